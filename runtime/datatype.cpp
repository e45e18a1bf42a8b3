#include "runtime/datatype.hpp"

#include <array>
#include <complex>
#include <cstdint>
#include <cstddef>
#include <cwchar>
#include <iterator>
#include <limits>
#include <utility>

#include "datatype/cursor.hpp"

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
    SHMPI_TYPE(MPI_CXX_BOOL, bool),
    SHMPI_TYPE(MPI_CXX_FLOAT_COMPLEX, std::complex<float>),
    SHMPI_TYPE(MPI_CXX_DOUBLE_COMPLEX, std::complex<double>),
    SHMPI_TYPE(MPI_CXX_LONG_DOUBLE_COMPLEX, std::complex<long double>),
    SHMPI_TYPE(MPI_CHARACTER, char),
    SHMPI_TYPE(MPI_LOGICAL, int),
    SHMPI_TYPE(MPI_INTEGER, int),
    SHMPI_TYPE(MPI_REAL, float),
    SHMPI_TYPE(MPI_DOUBLE_PRECISION, double),
    SHMPI_TYPE(MPI_COMPLEX, std::complex<float>),
    SHMPI_TYPE(MPI_DOUBLE_COMPLEX, std::complex<double>),
    SHMPI_TYPE(MPI_INTEGER1, std::int8_t),
    SHMPI_TYPE(MPI_INTEGER2, std::int16_t),
    SHMPI_TYPE(MPI_INTEGER4, std::int32_t),
    SHMPI_TYPE(MPI_INTEGER8, std::int64_t),
    SHMPI_TYPE(MPI_REAL4, float),
    SHMPI_TYPE(MPI_REAL8, double),
    SHMPI_TYPE(MPI_COMPLEX8, std::complex<float>),
    SHMPI_TYPE(MPI_COMPLEX16, std::complex<double>),
    SHMPI_TYPE(MPI_2INTEGER, TwoInt),
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

namespace {

using datatype::Basic;
using datatype::Scalar;
using datatype::Type;
using datatype::TypeRef;

template <class T>
constexpr Basic basic_of(Scalar scalar, std::size_t external_size = sizeof(T)) {
  return Basic{sizeof(T), alignof(T), static_cast<std::uint8_t>(external_size), scalar};
}

template <class T>
constexpr Scalar integer() {
  return std::numeric_limits<T>::is_signed ? Scalar::Signed : Scalar::Unsigned;
}

// The engine's basic element of each scalar predefined type (external32
// sizes from MPI-4.1 Table 19.2: long 4 bytes, wchar_t 2, long double 16).
std::optional<Basic> scalar_basic(MPI_Datatype handle) {
  switch (handle) {
    case MPI_CHAR:
    case MPI_SIGNED_CHAR:
    case MPI_UNSIGNED_CHAR:
    case MPI_BYTE:
    case MPI_PACKED:
    case MPI_CHARACTER:
      return basic_of<char>(Scalar::Bytes);
    case MPI_LOGICAL:
    case MPI_INTEGER:
    case MPI_INTEGER4:
      return basic_of<std::int32_t>(Scalar::Signed);
    case MPI_INTEGER1:
      return basic_of<std::int8_t>(Scalar::Signed);
    case MPI_INTEGER2:
      return basic_of<std::int16_t>(Scalar::Signed);
    case MPI_INTEGER8:
      return basic_of<std::int64_t>(Scalar::Signed);
    case MPI_REAL:
    case MPI_REAL4:
      return basic_of<float>(Scalar::Float);
    case MPI_DOUBLE_PRECISION:
    case MPI_REAL8:
      return basic_of<double>(Scalar::Float);
    case MPI_C_BOOL:
    case MPI_CXX_BOOL:
      return basic_of<bool>(Scalar::Bytes, 1);
    case MPI_WCHAR: return basic_of<wchar_t>(integer<wchar_t>(), 2);
    case MPI_SHORT: return basic_of<short>(Scalar::Signed);
    case MPI_UNSIGNED_SHORT: return basic_of<unsigned short>(Scalar::Unsigned);
    case MPI_INT: return basic_of<int>(Scalar::Signed);
    case MPI_UNSIGNED: return basic_of<unsigned>(Scalar::Unsigned);
    case MPI_LONG: return basic_of<long>(Scalar::Signed, 4);
    case MPI_UNSIGNED_LONG: return basic_of<unsigned long>(Scalar::Unsigned, 4);
    case MPI_LONG_LONG_INT: return basic_of<long long>(Scalar::Signed);
    case MPI_UNSIGNED_LONG_LONG: return basic_of<unsigned long long>(Scalar::Unsigned);
    case MPI_FLOAT: return basic_of<float>(Scalar::Float);
    case MPI_DOUBLE: return basic_of<double>(Scalar::Float);
    case MPI_LONG_DOUBLE: return basic_of<long double>(Scalar::LongDouble, 16);
    case MPI_INT8_T: return basic_of<std::int8_t>(Scalar::Signed);
    case MPI_INT16_T: return basic_of<std::int16_t>(Scalar::Signed);
    case MPI_INT32_T: return basic_of<std::int32_t>(Scalar::Signed);
    case MPI_INT64_T: return basic_of<std::int64_t>(Scalar::Signed);
    case MPI_UINT8_T: return basic_of<std::uint8_t>(Scalar::Unsigned);
    case MPI_UINT16_T: return basic_of<std::uint16_t>(Scalar::Unsigned);
    case MPI_UINT32_T: return basic_of<std::uint32_t>(Scalar::Unsigned);
    case MPI_UINT64_T: return basic_of<std::uint64_t>(Scalar::Unsigned);
    case MPI_AINT: return basic_of<MPI_Aint>(Scalar::Signed);
    case MPI_OFFSET: return basic_of<MPI_Offset>(Scalar::Signed);
    case MPI_COUNT: return basic_of<MPI_Count>(Scalar::Signed);
    default: return std::nullopt;
  }
}

// Two elements of `first` and `second` at the offsets a C struct gives
// them, as one predefined type (complex numbers, the MINLOC/MAXLOC pairs).
template <class T>
TypeRef pair_layout(const std::array<TypeRef, SHMPI_PREDEFINED_TYPES>& all, MPI_Datatype handle, MPI_Datatype first,
                    MPI_Datatype second, std::size_t second_at) {
  std::vector<datatype::Block> blocks{datatype::Block{0, 1, 1, 0, all[first]},
                                      datatype::Block{static_cast<datatype::Offset>(second_at), 1, 1, 0, all[second]}};
  TypeRef t = Type::blocks(std::move(blocks), true, handle);
  return t->extent() == sizeof(T) ? t : Type::resized(t, 0, sizeof(T));
}

std::array<TypeRef, SHMPI_PREDEFINED_TYPES> predefined_layouts() {
  std::array<TypeRef, SHMPI_PREDEFINED_TYPES> all{};
  for (MPI_Datatype h = 1; h < SHMPI_PREDEFINED_TYPES; ++h)
    if (auto b = scalar_basic(h)) all[h] = Type::basic(*b, h);
  all[MPI_C_FLOAT_COMPLEX] = pair_layout<std::complex<float>>(all, MPI_C_FLOAT_COMPLEX, MPI_FLOAT, MPI_FLOAT, sizeof(float));
  all[MPI_C_DOUBLE_COMPLEX] =
      pair_layout<std::complex<double>>(all, MPI_C_DOUBLE_COMPLEX, MPI_DOUBLE, MPI_DOUBLE, sizeof(double));
  all[MPI_C_LONG_DOUBLE_COMPLEX] = pair_layout<std::complex<long double>>(all, MPI_C_LONG_DOUBLE_COMPLEX,
                                                                          MPI_LONG_DOUBLE, MPI_LONG_DOUBLE,
                                                                          sizeof(long double));
  all[MPI_CXX_FLOAT_COMPLEX] =
      pair_layout<std::complex<float>>(all, MPI_CXX_FLOAT_COMPLEX, MPI_FLOAT, MPI_FLOAT, sizeof(float));
  all[MPI_CXX_DOUBLE_COMPLEX] =
      pair_layout<std::complex<double>>(all, MPI_CXX_DOUBLE_COMPLEX, MPI_DOUBLE, MPI_DOUBLE, sizeof(double));
  all[MPI_CXX_LONG_DOUBLE_COMPLEX] = pair_layout<std::complex<long double>>(
      all, MPI_CXX_LONG_DOUBLE_COMPLEX, MPI_LONG_DOUBLE, MPI_LONG_DOUBLE, sizeof(long double));
  for (const MPI_Datatype h : {MPI_COMPLEX, MPI_COMPLEX8})
    all[h] = pair_layout<std::complex<float>>(all, h, MPI_REAL, MPI_REAL, sizeof(float));
  for (const MPI_Datatype h : {MPI_DOUBLE_COMPLEX, MPI_COMPLEX16})
    all[h] = pair_layout<std::complex<double>>(all, h, MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, sizeof(double));
  all[MPI_2INTEGER] = pair_layout<TwoInt>(all, MPI_2INTEGER, MPI_INTEGER, MPI_INTEGER, offsetof(TwoInt, index));
  all[MPI_FLOAT_INT] = pair_layout<FloatInt>(all, MPI_FLOAT_INT, MPI_FLOAT, MPI_INT, offsetof(FloatInt, index));
  all[MPI_DOUBLE_INT] = pair_layout<DoubleInt>(all, MPI_DOUBLE_INT, MPI_DOUBLE, MPI_INT, offsetof(DoubleInt, index));
  all[MPI_LONG_INT] = pair_layout<LongInt>(all, MPI_LONG_INT, MPI_LONG, MPI_INT, offsetof(LongInt, index));
  all[MPI_2INT] = pair_layout<TwoInt>(all, MPI_2INT, MPI_INT, MPI_INT, offsetof(TwoInt, index));
  all[MPI_SHORT_INT] = pair_layout<ShortInt>(all, MPI_SHORT_INT, MPI_SHORT, MPI_INT, offsetof(ShortInt, index));
  all[MPI_LONG_DOUBLE_INT] =
      pair_layout<LongDoubleInt>(all, MPI_LONG_DOUBLE_INT, MPI_LONG_DOUBLE, MPI_INT, offsetof(LongDoubleInt, index));
  return all;
}

// Receives into more than this many runs are not checked for overlap.
constexpr std::uint64_t kOverlapCheckRuns = 1 << 16;

}  // namespace

DerivedRef make_derived(const DatatypeTable& types, TypeRef layout, TypeContents contents) {
  auto d = std::make_shared<DerivedType>();
  const std::int32_t kind = layout->kind();
  d->info = DatatypeInfo{static_cast<std::size_t>(layout->size()), "derived datatype", MPI_DATATYPE_NULL,
                         static_cast<std::size_t>(layout->elements()), false, false};
  if (kind > MPI_DATATYPE_NULL && kind < SHMPI_PREDEFINED_TYPES) {
    d->info.base = kind;
    // By the base's layout: packed, a padded pair (MPI_DOUBLE_INT) is its
    // 12 bytes of data, not its C struct's 16.
    d->info.base_count = d->info.size / static_cast<std::size_t>(types.layout(kind)->size());
  }
  d->overlaps = datatype::find_overlap(layout->program(), 1, layout->extent(), kOverlapCheckRuns) ==
                datatype::Overlap::Yes;
  d->layout = std::move(layout);
  d->contents = std::move(contents);
  return d;
}

DatatypeTable::DatatypeTable() : predefined_(predefined_layouts()) {}

bool DatatypeTable::was_freed(MPI_Datatype type) const noexcept {
  const auto i = static_cast<std::size_t>(type - SHMPI_PREDEFINED_TYPES);
  return type >= SHMPI_PREDEFINED_TYPES && i < derived_.size() && derived_[i].freed;
}

const TypeRef& DatatypeTable::layout(MPI_Datatype type) const noexcept {
  if (type < SHMPI_PREDEFINED_TYPES) return predefined_[type];
  return derived_[static_cast<std::size_t>(type - SHMPI_PREDEFINED_TYPES)].type->layout;
}

const DerivedRef& DatatypeTable::derived(MPI_Datatype type) const noexcept {
  static const DerivedRef kNone;
  if (!is_derived(type)) return kNone;
  return derived_[static_cast<std::size_t>(type - SHMPI_PREDEFINED_TYPES)].type;
}

MPI_Datatype DatatypeTable::add(DerivedRef type, bool committed) {
  std::size_t i = 0;
  while (i < derived_.size() && derived_[i].type) ++i;
  if (i == derived_.size()) derived_.emplace_back();
  Slot& slot = derived_[i];
  slot.info = type->info;
  slot.type = std::move(type);
  slot.freed = false;
  const auto handle = static_cast<MPI_Datatype>(i) + SHMPI_PREDEFINED_TYPES;
  if (committed) commit(handle);
  return handle;
}

bool DatatypeTable::commit(MPI_Datatype type) noexcept {
  if (!is_derived(type)) return false;
  Slot& slot = derived_[static_cast<std::size_t>(type - SHMPI_PREDEFINED_TYPES)];
  slot.info.committed = true;
  // Direct types take the send path that multiplies count * size unchecked:
  // below 4 GiB an element times an int count cannot overflow.
  slot.info.direct = slot.type->layout->contiguous() && slot.info.size < (std::size_t{1} << 32);
  return true;
}

bool DatatypeTable::free(MPI_Datatype type) noexcept {
  if (!is_derived(type)) return false;
  Slot& slot = derived_[static_cast<std::size_t>(type - SHMPI_PREDEFINED_TYPES)];
  slot.type.reset();
  slot.freed = true;
  return true;
}

}  // namespace shmpi::runtime
