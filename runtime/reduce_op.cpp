#include "runtime/reduce_op.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <complex>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

namespace shmpi::runtime {
namespace {

// ---- type groups (MPI-3.1 §5.9.2) ---------------------------------------

enum class Group : std::uint8_t {
  None,            // MPI_DATATYPE_NULL: no op applies
  CInteger,        // MPI_INT, MPI_UNSIGNED, MPI_INT8_T, ... MPI_UNSIGNED_CHAR
  CharExtension,   // MPI_CHAR: not a C integer in §5.9.2, accepted as one
                   // (MPICH's "C_INTEGER_EXTRA" group does the same)
  Floating,        // MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE
  Logical,         // MPI_C_BOOL, MPI_CXX_BOOL, MPI_LOGICAL (an int: nonzero is .TRUE.)
  Complex,         // MPI_C_FLOAT_COMPLEX, ... MPI_CXX_LONG_DOUBLE_COMPLEX
  Byte,            // MPI_BYTE
  MultiLanguage,   // MPI_AINT, MPI_OFFSET, MPI_COUNT
  FortranInteger,  // MPI_INTEGER, MPI_INTEGER1..8: no logical ops (§6.9.2)
  Pair,            // MPI_FLOAT_INT ... MPI_LONG_DOUBLE_INT (§5.9.4)
  Other,           // MPI_WCHAR, MPI_PACKED: only MPI_REPLACE applies
};

using GroupSet = std::uint32_t;

constexpr GroupSet groups(std::initializer_list<Group> list) {
  GroupSet set = 0;
  for (Group g : list) set |= GroupSet{1} << static_cast<unsigned>(g);
  return set;
}

constexpr bool contains(GroupSet set, Group g) {
  return (set >> static_cast<unsigned>(g)) & 1u;
}

// ---- element types -------------------------------------------------------

// The MAXLOC/MINLOC pair types: C structs { value; int index; }, laid out
// exactly as in runtime/datatype.cpp and as users declare them.
template <class V>
struct ValueIndex {
  V value;
  int index;
};

// MPI_C_BOOL is stored as a byte and read as "nonzero is true", so a C
// caller's non-canonical _Bool bytes never reach a C++ `bool` load.
static_assert(sizeof(bool) == 1);
using BoolByte = unsigned char;

// One slot per datatype handle, in handle order: the element's storage type
// and its §5.9.2 group.
template <MPI_Datatype H, class T, Group G>
struct Slot {
  static constexpr MPI_Datatype handle = H;
  static constexpr Group group = G;
  using type = T;
};

using Slots = std::tuple<
    Slot<MPI_DATATYPE_NULL, unsigned char, Group::None>, Slot<MPI_CHAR, char, Group::CharExtension>,
    Slot<MPI_SIGNED_CHAR, signed char, Group::CInteger>, Slot<MPI_UNSIGNED_CHAR, unsigned char, Group::CInteger>,
    Slot<MPI_BYTE, unsigned char, Group::Byte>, Slot<MPI_WCHAR, wchar_t, Group::Other>,
    Slot<MPI_SHORT, short, Group::CInteger>, Slot<MPI_UNSIGNED_SHORT, unsigned short, Group::CInteger>,
    Slot<MPI_INT, int, Group::CInteger>, Slot<MPI_UNSIGNED, unsigned, Group::CInteger>,
    Slot<MPI_LONG, long, Group::CInteger>, Slot<MPI_UNSIGNED_LONG, unsigned long, Group::CInteger>,
    Slot<MPI_LONG_LONG_INT, long long, Group::CInteger>,
    Slot<MPI_UNSIGNED_LONG_LONG, unsigned long long, Group::CInteger>, Slot<MPI_FLOAT, float, Group::Floating>,
    Slot<MPI_DOUBLE, double, Group::Floating>, Slot<MPI_LONG_DOUBLE, long double, Group::Floating>,
    Slot<MPI_INT8_T, std::int8_t, Group::CInteger>, Slot<MPI_INT16_T, std::int16_t, Group::CInteger>,
    Slot<MPI_INT32_T, std::int32_t, Group::CInteger>, Slot<MPI_INT64_T, std::int64_t, Group::CInteger>,
    Slot<MPI_UINT8_T, std::uint8_t, Group::CInteger>, Slot<MPI_UINT16_T, std::uint16_t, Group::CInteger>,
    Slot<MPI_UINT32_T, std::uint32_t, Group::CInteger>, Slot<MPI_UINT64_T, std::uint64_t, Group::CInteger>,
    Slot<MPI_C_BOOL, BoolByte, Group::Logical>, Slot<MPI_AINT, MPI_Aint, Group::MultiLanguage>,
    Slot<MPI_OFFSET, MPI_Offset, Group::MultiLanguage>, Slot<MPI_COUNT, MPI_Count, Group::MultiLanguage>,
    Slot<MPI_C_FLOAT_COMPLEX, std::complex<float>, Group::Complex>,
    Slot<MPI_C_DOUBLE_COMPLEX, std::complex<double>, Group::Complex>,
    Slot<MPI_C_LONG_DOUBLE_COMPLEX, std::complex<long double>, Group::Complex>,
    Slot<MPI_PACKED, unsigned char, Group::Other>, Slot<MPI_FLOAT_INT, ValueIndex<float>, Group::Pair>,
    Slot<MPI_DOUBLE_INT, ValueIndex<double>, Group::Pair>, Slot<MPI_LONG_INT, ValueIndex<long>, Group::Pair>,
    Slot<MPI_2INT, ValueIndex<int>, Group::Pair>, Slot<MPI_SHORT_INT, ValueIndex<short>, Group::Pair>,
    Slot<MPI_LONG_DOUBLE_INT, ValueIndex<long double>, Group::Pair>, Slot<MPI_CXX_BOOL, BoolByte, Group::Logical>,
    Slot<MPI_CXX_FLOAT_COMPLEX, std::complex<float>, Group::Complex>,
    Slot<MPI_CXX_DOUBLE_COMPLEX, std::complex<double>, Group::Complex>,
    Slot<MPI_CXX_LONG_DOUBLE_COMPLEX, std::complex<long double>, Group::Complex>,
    Slot<MPI_CHARACTER, char, Group::Other>, Slot<MPI_LOGICAL, int, Group::Logical>,
    Slot<MPI_INTEGER, int, Group::FortranInteger>, Slot<MPI_REAL, float, Group::Floating>,
    Slot<MPI_DOUBLE_PRECISION, double, Group::Floating>, Slot<MPI_COMPLEX, std::complex<float>, Group::Complex>,
    Slot<MPI_DOUBLE_COMPLEX, std::complex<double>, Group::Complex>,
    Slot<MPI_INTEGER1, std::int8_t, Group::FortranInteger>, Slot<MPI_INTEGER2, std::int16_t, Group::FortranInteger>,
    Slot<MPI_INTEGER4, std::int32_t, Group::FortranInteger>, Slot<MPI_INTEGER8, std::int64_t, Group::FortranInteger>,
    Slot<MPI_REAL4, float, Group::Floating>, Slot<MPI_REAL8, double, Group::Floating>,
    Slot<MPI_COMPLEX8, std::complex<float>, Group::Complex>, Slot<MPI_COMPLEX16, std::complex<double>, Group::Complex>,
    Slot<MPI_2INTEGER, ValueIndex<int>, Group::Pair>>;

inline constexpr std::size_t kTypeCount = std::tuple_size_v<Slots>;
static_assert(kTypeCount == SHMPI_PREDEFINED_TYPES);

// ---- the operations ------------------------------------------------------

// Signed SUM/PROD are done in this unsigned type and converted back, which
// wraps modulo 2^bits (defined in C++20). Types narrower than `unsigned`
// widen to `unsigned` so integer promotion cannot yield a signed `int`
// product that overflows (65535 * 65535 does).
template <class T>
using WrapArith = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                     std::make_unsigned_t<T>>;

inline constexpr GroupSet kIntegers = groups({Group::CInteger, Group::CharExtension});

// Each op: its handle, its name, the groups it applies to (the rows of the
// §5.9.2 table) and `apply(in, inout)`, returning the new inout element.
struct OpNull {
  static constexpr MPI_Op handle = MPI_OP_NULL;
  static constexpr const char* name = nullptr;
  static constexpr GroupSet allowed = 0;
};

struct Max {
  static constexpr MPI_Op handle = MPI_MAX;
  static constexpr const char* name = "MPI_MAX";
  static constexpr GroupSet allowed =
      kIntegers | groups({Group::Floating, Group::MultiLanguage, Group::FortranInteger});
  // `a > b ? a : b` is exactly x86 maxps/maxpd, so float loops vectorise.
  template <class T>
  static T apply(T in, T inout) noexcept { return in > inout ? in : inout; }
};

struct Min {
  static constexpr MPI_Op handle = MPI_MIN;
  static constexpr const char* name = "MPI_MIN";
  static constexpr GroupSet allowed = Max::allowed;
  template <class T>
  static T apply(T in, T inout) noexcept { return in < inout ? in : inout; }
};

struct Sum {
  static constexpr MPI_Op handle = MPI_SUM;
  static constexpr const char* name = "MPI_SUM";
  static constexpr GroupSet allowed =
      kIntegers | groups({Group::Floating, Group::Complex, Group::MultiLanguage, Group::FortranInteger});
  template <class T>
  static T apply(T in, T inout) noexcept {
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(static_cast<WrapArith<T>>(in) + static_cast<WrapArith<T>>(inout));
    else
      return in + inout;
  }
};

struct Prod {
  static constexpr MPI_Op handle = MPI_PROD;
  static constexpr const char* name = "MPI_PROD";
  static constexpr GroupSet allowed = Sum::allowed;
  template <class T>
  static T apply(T in, T inout) noexcept {
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(static_cast<WrapArith<T>>(in) * static_cast<WrapArith<T>>(inout));
    else
      return in * inout;
  }
};

// Logical ops: any nonzero element is true; the result is 0 or 1.
inline constexpr GroupSet kLogicalAllowed = kIntegers | groups({Group::Logical});

struct LAnd {
  static constexpr MPI_Op handle = MPI_LAND;
  static constexpr const char* name = "MPI_LAND";
  static constexpr GroupSet allowed = kLogicalAllowed;
  template <class T>
  static T apply(T in, T inout) noexcept { return static_cast<T>(in != 0 && inout != 0); }
};

struct LOr {
  static constexpr MPI_Op handle = MPI_LOR;
  static constexpr const char* name = "MPI_LOR";
  static constexpr GroupSet allowed = kLogicalAllowed;
  template <class T>
  static T apply(T in, T inout) noexcept { return static_cast<T>(in != 0 || inout != 0); }
};

struct LXor {
  static constexpr MPI_Op handle = MPI_LXOR;
  static constexpr const char* name = "MPI_LXOR";
  static constexpr GroupSet allowed = kLogicalAllowed;
  template <class T>
  static T apply(T in, T inout) noexcept { return static_cast<T>((in != 0) != (inout != 0)); }
};

inline constexpr GroupSet kBitwiseAllowed =
    kIntegers | groups({Group::Byte, Group::MultiLanguage, Group::FortranInteger});

struct BAnd {
  static constexpr MPI_Op handle = MPI_BAND;
  static constexpr const char* name = "MPI_BAND";
  static constexpr GroupSet allowed = kBitwiseAllowed;
  template <class T>
  static T apply(T in, T inout) noexcept { return static_cast<T>(in & inout); }
};

struct BOr {
  static constexpr MPI_Op handle = MPI_BOR;
  static constexpr const char* name = "MPI_BOR";
  static constexpr GroupSet allowed = kBitwiseAllowed;
  template <class T>
  static T apply(T in, T inout) noexcept { return static_cast<T>(in | inout); }
};

struct BXor {
  static constexpr MPI_Op handle = MPI_BXOR;
  static constexpr const char* name = "MPI_BXOR";
  static constexpr GroupSet allowed = kBitwiseAllowed;
  template <class T>
  static T apply(T in, T inout) noexcept { return static_cast<T>(in ^ inout); }
};

// MPI-3.1 §5.9.4: the larger (smaller) value wins; on equal values the
// smaller index wins, which keeps the op commutative.
struct MaxLoc {
  static constexpr MPI_Op handle = MPI_MAXLOC;
  static constexpr const char* name = "MPI_MAXLOC";
  static constexpr GroupSet allowed = groups({Group::Pair});
  template <class P>
  static P apply(P in, P inout) noexcept {
    if (in.value > inout.value) return in;
    if (inout.value > in.value) return inout;
    return P{inout.value, std::min(in.index, inout.index)};
  }
};

struct MinLoc {
  static constexpr MPI_Op handle = MPI_MINLOC;
  static constexpr const char* name = "MPI_MINLOC";
  static constexpr GroupSet allowed = groups({Group::Pair});
  template <class P>
  static P apply(P in, P inout) noexcept {
    if (in.value < inout.value) return in;
    if (inout.value < in.value) return inout;
    return P{inout.value, std::min(in.index, inout.index)};
  }
};

// One-sided only (§11.3.4): the origin's element replaces the target's.
struct Replace {
  static constexpr MPI_Op handle = MPI_REPLACE;
  static constexpr const char* name = "MPI_REPLACE";
  static constexpr GroupSet allowed =
      groups({Group::CInteger, Group::CharExtension, Group::Floating, Group::Logical, Group::Complex, Group::Byte,
              Group::MultiLanguage, Group::FortranInteger, Group::Pair, Group::Other});
  template <class T>
  static T apply(T in, T /*inout*/) noexcept { return in; }
};

// One-sided only (§11.3.4): the target's element stays as it is.
struct NoOp {
  static constexpr MPI_Op handle = MPI_NO_OP;
  static constexpr const char* name = "MPI_NO_OP";
  static constexpr GroupSet allowed = Replace::allowed;
  template <class T>
  static T apply(T /*in*/, T inout) noexcept { return inout; }
};

using Ops = std::tuple<OpNull, Max, Min, Sum, Prod, LAnd, BAnd, LOr, BOr, LXor, BXor,
                       MaxLoc, MinLoc, Replace, NoOp>;
inline constexpr std::size_t kOpCount = std::tuple_size_v<Ops>;

// ---- kernels -------------------------------------------------------------

using Kernel = void (*)(const void* in, void* inout, std::size_t count) noexcept;

template <class T>
bool is_aligned(const void* p) noexcept {
  return reinterpret_cast<std::uintptr_t>(p) % alignof(T) == 0;
}

// The one loop every op×type kernel is made of. Aligned buffers use typed
// loads (what the vectoriser wants); misaligned ones copy each element
// through a local, which is the only defined way to read them.
template <class Op, class T>
void reduce(const void* in, void* inout, std::size_t count) noexcept {
  static_assert(std::is_trivially_copyable_v<T>);
  if constexpr (std::is_same_v<Op, Replace>) {
    if (in != inout) std::memcpy(inout, in, count * sizeof(T));
    return;
  }
  if constexpr (std::is_same_v<Op, NoOp>) return;
  if (is_aligned<T>(in) && is_aligned<T>(inout)) {
    const T* a = static_cast<const T*>(in);
    T* b = static_cast<T*>(inout);
    for (std::size_t i = 0; i < count; ++i) b[i] = Op::apply(a[i], b[i]);
    return;
  }
  const auto* a = static_cast<const unsigned char*>(in);
  auto* b = static_cast<unsigned char*>(inout);
  for (std::size_t i = 0; i < count; ++i) {
    T x;
    T y;
    std::memcpy(&x, a + i * sizeof(T), sizeof(T));
    std::memcpy(&y, b + i * sizeof(T), sizeof(T));
    y = Op::apply(x, y);
    std::memcpy(b + i * sizeof(T), &y, sizeof(T));
  }
}

// A padded pair (MPI_DOUBLE_INT: 12 bytes of data in a 16-byte struct) as
// MPI_Pack lays it out: the value, then the index, no padding.
template <class T>
struct Padded : std::false_type {};
template <class V>
struct Padded<ValueIndex<V>> : std::bool_constant<(sizeof(V) + sizeof(int) < sizeof(ValueIndex<V>))> {
  using value_type = V;
};

template <class Op, class V>
void reduce_packed_pairs(const void* in, void* inout, std::size_t count) noexcept {
  constexpr std::size_t kBytes = sizeof(V) + sizeof(int);
  if constexpr (std::is_same_v<Op, Replace>) {
    if (in != inout) std::memcpy(inout, in, count * kBytes);
    return;
  }
  if constexpr (std::is_same_v<Op, NoOp>) return;
  const auto* a = static_cast<const unsigned char*>(in);
  auto* b = static_cast<unsigned char*>(inout);
  for (std::size_t i = 0; i < count; ++i, a += kBytes, b += kBytes) {
    ValueIndex<V> x;
    ValueIndex<V> y;
    std::memcpy(&x.value, a, sizeof(V));
    std::memcpy(&x.index, a + sizeof(V), sizeof(int));
    std::memcpy(&y.value, b, sizeof(V));
    std::memcpy(&y.index, b + sizeof(V), sizeof(int));
    y = Op::apply(x, y);
    std::memcpy(b, &y.value, sizeof(V));
    std::memcpy(b + sizeof(V), &y.index, sizeof(int));
  }
}

// The kernel for Op on slot S, or nullptr when §5.9.2 forbids the pair.
// Forbidden pairs are never instantiated (BAND on float would not compile).
template <class Op, class S, PairLayout L>
constexpr Kernel kernel_for() {
  if constexpr (!contains(Op::allowed, S::group))
    return nullptr;
  else if constexpr (L == PairLayout::Packed && Padded<typename S::type>::value)
    return &reduce_packed_pairs<Op, typename Padded<typename S::type>::value_type>;
  else
    return &reduce<Op, typename S::type>;
}

using KernelRow = std::array<Kernel, kTypeCount>;
using KernelTable = std::array<KernelRow, kOpCount>;

template <class Op, PairLayout L, std::size_t... T>
constexpr KernelRow make_row(std::index_sequence<T...>) {
  static_assert(((std::tuple_element_t<T, Slots>::handle == static_cast<MPI_Datatype>(T)) && ...),
                "Slots must be listed in datatype handle order");
  return {kernel_for<Op, std::tuple_element_t<T, Slots>, L>()...};
}

template <PairLayout L, std::size_t... O>
constexpr KernelTable make_table(std::index_sequence<O...>) {
  static_assert(((std::tuple_element_t<O, Ops>::handle == static_cast<MPI_Op>(O)) && ...),
                "Ops must be listed in op handle order");
  return {make_row<std::tuple_element_t<O, Ops>, L>(std::make_index_sequence<kTypeCount>{})...};
}

template <std::size_t... O>
constexpr std::array<const char*, kOpCount> make_names(std::index_sequence<O...>) {
  return {std::tuple_element_t<O, Ops>::name...};
}

// Built at compile time: [op handle][datatype handle] -> kernel or nullptr,
// one table per way a padded pair may be laid out.
constexpr KernelTable kKernels = make_table<PairLayout::CStruct>(std::make_index_sequence<kOpCount>{});
constexpr KernelTable kPackedKernels = make_table<PairLayout::Packed>(std::make_index_sequence<kOpCount>{});
constexpr std::array<const char*, kOpCount> kNames =
    make_names(std::make_index_sequence<kOpCount>{});

Kernel lookup(MPI_Op op, MPI_Datatype type, PairLayout pairs = PairLayout::CStruct) noexcept {
  if (op < 0 || static_cast<std::size_t>(op) >= kOpCount) return nullptr;
  if (type < 0 || static_cast<std::size_t>(type) >= kTypeCount) return nullptr;
  const KernelTable& table = pairs == PairLayout::Packed ? kPackedKernels : kKernels;
  return table[static_cast<std::size_t>(op)][static_cast<std::size_t>(type)];
}

}  // namespace

bool op_applies(MPI_Op op, MPI_Datatype type) noexcept { return lookup(op, type) != nullptr; }

const char* op_name(MPI_Op op) noexcept {
  if (op < 0 || static_cast<std::size_t>(op) >= kOpCount) return nullptr;
  return kNames[static_cast<std::size_t>(op)];
}

void apply_op(MPI_Op op, MPI_Datatype type, const void* in, void* inout, std::size_t count,
              PairLayout pairs) noexcept {
  const Kernel kernel = lookup(op, type, pairs);
  assert(kernel != nullptr && "apply_op: op does not apply to type (check op_applies)");
  if (kernel != nullptr) kernel(in, inout, count);
}

}  // namespace shmpi::runtime
