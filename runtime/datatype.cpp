#include "runtime/datatype.hpp"

#include <complex>
#include <cstdint>
#include <cwchar>
#include <array>
#include <iterator>

namespace shmpi::runtime {
namespace {

template <class A, class B>
struct Pair {
  A value;
  B index;
};

using FloatInt = Pair<float, int>;
using DoubleInt = Pair<double, int>;
using LongInt = Pair<long, int>;
using TwoInt = Pair<int, int>;
using ShortInt = Pair<short, int>;
using LongDoubleInt = Pair<long double, int>;

struct Entry {
  MPI_Datatype handle;
  DatatypeInfo info;
};

#define SHMPI_TYPE(handle, type) Entry{handle, {sizeof(type), #handle, handle}}
constexpr Entry kEntries[] = {
    Entry{MPI_DATATYPE_NULL, {0, "MPI_DATATYPE_NULL"}},
    SHMPI_TYPE(MPI_CHAR, char),
    SHMPI_TYPE(MPI_SIGNED_CHAR, signed char),
    SHMPI_TYPE(MPI_UNSIGNED_CHAR, unsigned char),
    SHMPI_TYPE(MPI_BYTE, unsigned char),
    SHMPI_TYPE(MPI_WCHAR, wchar_t),
    SHMPI_TYPE(MPI_SHORT, short),
    SHMPI_TYPE(MPI_UNSIGNED_SHORT, unsigned short),
    SHMPI_TYPE(MPI_INT, int),
    SHMPI_TYPE(MPI_UNSIGNED, unsigned),
    SHMPI_TYPE(MPI_LONG, long),
    SHMPI_TYPE(MPI_UNSIGNED_LONG, unsigned long),
    SHMPI_TYPE(MPI_LONG_LONG_INT, long long),
    SHMPI_TYPE(MPI_UNSIGNED_LONG_LONG, unsigned long long),
    SHMPI_TYPE(MPI_FLOAT, float),
    SHMPI_TYPE(MPI_DOUBLE, double),
    SHMPI_TYPE(MPI_LONG_DOUBLE, long double),
    SHMPI_TYPE(MPI_INT8_T, std::int8_t),
    SHMPI_TYPE(MPI_INT16_T, std::int16_t),
    SHMPI_TYPE(MPI_INT32_T, std::int32_t),
    SHMPI_TYPE(MPI_INT64_T, std::int64_t),
    SHMPI_TYPE(MPI_UINT8_T, std::uint8_t),
    SHMPI_TYPE(MPI_UINT16_T, std::uint16_t),
    SHMPI_TYPE(MPI_UINT32_T, std::uint32_t),
    SHMPI_TYPE(MPI_UINT64_T, std::uint64_t),
    SHMPI_TYPE(MPI_C_BOOL, bool),
    SHMPI_TYPE(MPI_AINT, MPI_Aint),
    SHMPI_TYPE(MPI_OFFSET, MPI_Offset),
    SHMPI_TYPE(MPI_COUNT, MPI_Count),
    SHMPI_TYPE(MPI_C_FLOAT_COMPLEX, std::complex<float>),
    SHMPI_TYPE(MPI_C_DOUBLE_COMPLEX, std::complex<double>),
    SHMPI_TYPE(MPI_C_LONG_DOUBLE_COMPLEX, std::complex<long double>),
    SHMPI_TYPE(MPI_PACKED, unsigned char),
    SHMPI_TYPE(MPI_FLOAT_INT, FloatInt),
    SHMPI_TYPE(MPI_DOUBLE_INT, DoubleInt),
    SHMPI_TYPE(MPI_LONG_INT, LongInt),
    SHMPI_TYPE(MPI_2INT, TwoInt),
    SHMPI_TYPE(MPI_SHORT_INT, ShortInt),
    SHMPI_TYPE(MPI_LONG_DOUBLE_INT, LongDoubleInt),
};
#undef SHMPI_TYPE

// The table is indexed by handle: entry i must describe handle i.
constexpr bool indexed_by_handle() {
  for (std::size_t i = 0; i < std::size(kEntries); ++i)
    if (kEntries[i].handle != static_cast<MPI_Datatype>(i)) return false;
  return std::size(kEntries) == SHMPI_PREDEFINED_TYPES;
}
static_assert(indexed_by_handle());

constexpr std::array<DatatypeInfo, SHMPI_PREDEFINED_TYPES> kInfos = [] {
  std::array<DatatypeInfo, SHMPI_PREDEFINED_TYPES> infos{};
  for (std::size_t i = 0; i < infos.size(); ++i) infos[i] = kEntries[i].info;
  return infos;
}();

}  // namespace

namespace detail {
const DatatypeInfo* const predefined_table = kInfos.data();
}  // namespace detail

std::optional<DatatypeInfo> contiguous_datatype(const DatatypeInfo& old, std::size_t count) noexcept {
  DatatypeInfo info{0, "derived datatype", old.base, 0, false};
  if (__builtin_mul_overflow(old.size, count, &info.size)) return std::nullopt;
  if (__builtin_mul_overflow(old.base_count, count, &info.base_count)) return std::nullopt;
  return info;
}

MPI_Datatype DatatypeTable::add(const DatatypeInfo& info) {
  std::size_t i = 0;
  while (i < derived_.size() && derived_[i]) ++i;
  if (i == derived_.size()) derived_.emplace_back();
  derived_[i] = info;
  return static_cast<MPI_Datatype>(i) + SHMPI_PREDEFINED_TYPES;
}

bool DatatypeTable::commit(MPI_Datatype type) noexcept {
  if (!is_derived(type)) return false;
  derived_[static_cast<std::size_t>(type - SHMPI_PREDEFINED_TYPES)]->committed = true;
  return true;
}

bool DatatypeTable::free(MPI_Datatype type) noexcept {
  if (!is_derived(type)) return false;
  derived_[static_cast<std::size_t>(type - SHMPI_PREDEFINED_TYPES)].reset();
  return true;
}

}  // namespace shmpi::runtime
