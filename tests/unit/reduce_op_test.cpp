// Reduction kernels: every predefined op on every type it applies to, the
// MPI-3.1 §5.9.2 applicability table, and the unaligned / in-place paths.
#include "runtime/reduce_op.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <vector>

#include "runtime/datatype.hpp"

namespace shmpi::runtime {
namespace {

// Runs `op` on `in` and `inout` and returns the new inout.
template <class T>
std::vector<T> reduce(MPI_Op op, MPI_Datatype type, const std::vector<T>& in,
                      std::vector<T> inout) {
  EXPECT_TRUE(op_applies(op, type)) << op_name(op) << " on " << predefined_datatype(type)->name;
  EXPECT_EQ(in.size(), inout.size());
  apply_op(op, type, in.data(), inout.data(), inout.size());
  return inout;
}

// ---- integer types (C integer, MPI_CHAR, multi-language) ---------------

template <class T, MPI_Datatype H, bool Logical = true>
struct IntCase {
  using type = T;
  static constexpr MPI_Datatype handle = H;
  static constexpr bool logical = Logical;  // §5.9.2: LAND etc. only on C integers
};

using IntCases = ::testing::Types<
    IntCase<char, MPI_CHAR>, IntCase<signed char, MPI_SIGNED_CHAR>,
    IntCase<unsigned char, MPI_UNSIGNED_CHAR>, IntCase<short, MPI_SHORT>,
    IntCase<unsigned short, MPI_UNSIGNED_SHORT>, IntCase<int, MPI_INT>,
    IntCase<unsigned, MPI_UNSIGNED>, IntCase<long, MPI_LONG>,
    IntCase<unsigned long, MPI_UNSIGNED_LONG>, IntCase<long long, MPI_LONG_LONG_INT>,
    IntCase<unsigned long long, MPI_UNSIGNED_LONG_LONG>, IntCase<std::int8_t, MPI_INT8_T>,
    IntCase<std::int16_t, MPI_INT16_T>, IntCase<std::int32_t, MPI_INT32_T>,
    IntCase<std::int64_t, MPI_INT64_T>, IntCase<std::uint8_t, MPI_UINT8_T>,
    IntCase<std::uint16_t, MPI_UINT16_T>, IntCase<std::uint32_t, MPI_UINT32_T>,
    IntCase<std::uint64_t, MPI_UINT64_T>, IntCase<MPI_Aint, MPI_AINT, false>,
    IntCase<MPI_Offset, MPI_OFFSET, false>, IntCase<MPI_Count, MPI_COUNT, false>>;

template <class Case>
class IntegerOps : public ::testing::Test {};
TYPED_TEST_SUITE(IntegerOps, IntCases);

TYPED_TEST(IntegerOps, MaxMinWithMixedSigns) {
  using T = typename TypeParam::type;
  constexpr MPI_Datatype h = TypeParam::handle;
  constexpr T hi = std::numeric_limits<T>::max();
  constexpr T lo = std::numeric_limits<T>::min();
  if constexpr (std::is_signed_v<T>) {
    const std::vector<T> in{-3, 2, 0, 7, hi, lo};
    const std::vector<T> io{2, -3, 5, 7, -1, 1};
    EXPECT_EQ(reduce(MPI_MAX, h, in, io), (std::vector<T>{2, 2, 5, 7, hi, 1}));
    EXPECT_EQ(reduce(MPI_MIN, h, in, io), (std::vector<T>{-3, -3, 0, 7, -1, lo}));
  } else {
    const std::vector<T> in{3, 2, 0, 7, hi};
    const std::vector<T> io{2, 3, 5, 7, 1};
    EXPECT_EQ(reduce(MPI_MAX, h, in, io), (std::vector<T>{3, 3, 5, 7, hi}));
    EXPECT_EQ(reduce(MPI_MIN, h, in, io), (std::vector<T>{2, 2, 0, 7, 1}));
  }
}

TYPED_TEST(IntegerOps, SumAndProdWrapOnOverflow) {
  using T = typename TypeParam::type;
  constexpr MPI_Datatype h = TypeParam::handle;
  constexpr T hi = std::numeric_limits<T>::max();
  constexpr T lo = std::numeric_limits<T>::min();
  if constexpr (std::is_signed_v<T>) {
    EXPECT_EQ(reduce<T>(MPI_SUM, h, {-3, 2, 7, hi, lo, -5}, {2, -3, 7, 1, -1, -6}),
              (std::vector<T>{-1, -1, 14, lo, hi, -11}));
    EXPECT_EQ(reduce<T>(MPI_PROD, h, {-3, 2, 7, hi, lo, -5}, {2, -3, 0, 2, -1, -6}),
              (std::vector<T>{-6, -6, 0, -2, lo, 30}));
  } else {
    EXPECT_EQ(reduce<T>(MPI_SUM, h, {3, 2, 7, hi, hi}, {2, 3, 7, 1, hi}),
              (std::vector<T>{5, 5, 14, 0, static_cast<T>(hi - 1)}));
    EXPECT_EQ(reduce<T>(MPI_PROD, h, {3, 2, 7, hi, hi}, {2, 3, 0, 2, hi}),
              (std::vector<T>{6, 6, 0, static_cast<T>(hi - 1), 1}));
  }
}

TYPED_TEST(IntegerOps, LogicalOpsYieldZeroOrOne) {
  using T = typename TypeParam::type;
  constexpr MPI_Datatype h = TypeParam::handle;
  if constexpr (!TypeParam::logical) {
    EXPECT_FALSE(op_applies(MPI_LAND, h));
    EXPECT_FALSE(op_applies(MPI_LOR, h));
    EXPECT_FALSE(op_applies(MPI_LXOR, h));
  } else {
    constexpr T hi = std::numeric_limits<T>::max();
    constexpr T lo = std::numeric_limits<T>::min();
    const std::vector<T> in{0, 0, 5, 5, hi, static_cast<T>(lo + 1)};
    const std::vector<T> io{0, 6, 0, 6, hi, lo};
    EXPECT_EQ(reduce(MPI_LAND, h, in, io), (std::vector<T>{0, 0, 0, 1, 1, std::is_signed_v<T>}));
    EXPECT_EQ(reduce(MPI_LOR, h, in, io), (std::vector<T>{0, 1, 1, 1, 1, 1}));
    EXPECT_EQ(reduce(MPI_LXOR, h, in, io), (std::vector<T>{0, 1, 1, 0, 0, !std::is_signed_v<T>}));
  }
}

TYPED_TEST(IntegerOps, BitwiseOps) {
  using T = typename TypeParam::type;
  constexpr MPI_Datatype h = TypeParam::handle;
  constexpr T hi = std::numeric_limits<T>::max();
  constexpr T lo = std::numeric_limits<T>::min();
  const std::vector<T> in{12, hi, lo, 0};
  const std::vector<T> io{10, lo, lo, hi};
  const T all = static_cast<T>(hi | lo);  // every bit set
  EXPECT_EQ(reduce(MPI_BAND, h, in, io), (std::vector<T>{8, 0, lo, 0}));
  EXPECT_EQ(reduce(MPI_BOR, h, in, io), (std::vector<T>{14, all, lo, hi}));
  EXPECT_EQ(reduce(MPI_BXOR, h, in, io), (std::vector<T>{6, all, 0, hi}));
}

TYPED_TEST(IntegerOps, LocOpsDoNotApply) {
  EXPECT_FALSE(op_applies(MPI_MAXLOC, TypeParam::handle));
  EXPECT_FALSE(op_applies(MPI_MINLOC, TypeParam::handle));
}

// ---- floating point ------------------------------------------------------

template <class T, MPI_Datatype H>
struct FloatCase {
  using type = T;
  static constexpr MPI_Datatype handle = H;
};
using FloatCases = ::testing::Types<FloatCase<float, MPI_FLOAT>, FloatCase<double, MPI_DOUBLE>,
                                    FloatCase<long double, MPI_LONG_DOUBLE>>;

template <class Case>
class FloatingOps : public ::testing::Test {};
TYPED_TEST_SUITE(FloatingOps, FloatCases);

TYPED_TEST(FloatingOps, ArithmeticAndExtremes) {
  using T = typename TypeParam::type;
  constexpr MPI_Datatype h = TypeParam::handle;
  const T inf = std::numeric_limits<T>::infinity();
  const std::vector<T> in{-1.5, 2.25, 0, -inf, 3};
  const std::vector<T> io{0.5, -4, -0.75, 1, 3};
  EXPECT_EQ(reduce(MPI_MAX, h, in, io), (std::vector<T>{0.5, 2.25, 0, 1, 3}));
  EXPECT_EQ(reduce(MPI_MIN, h, in, io), (std::vector<T>{-1.5, -4, -0.75, -inf, 3}));
  EXPECT_EQ(reduce(MPI_SUM, h, in, io), (std::vector<T>{-1, -1.75, -0.75, -inf, 6}));
  EXPECT_EQ(reduce(MPI_PROD, h, in, io), (std::vector<T>{-0.75, -9, 0, -inf, 9}));
  for (MPI_Op op : {MPI_LAND, MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR, MPI_MAXLOC,
                    MPI_MINLOC})
    EXPECT_FALSE(op_applies(op, h)) << op_name(op);
}

// ---- complex -------------------------------------------------------------

template <class T, MPI_Datatype H>
struct ComplexCase {
  using type = std::complex<T>;
  static constexpr MPI_Datatype handle = H;
};
using ComplexCases =
    ::testing::Types<ComplexCase<float, MPI_C_FLOAT_COMPLEX>, ComplexCase<double, MPI_C_DOUBLE_COMPLEX>,
                     ComplexCase<long double, MPI_C_LONG_DOUBLE_COMPLEX>, ComplexCase<double, MPI_CXX_DOUBLE_COMPLEX>>;

template <class Case>
class ComplexOps : public ::testing::Test {};
TYPED_TEST_SUITE(ComplexOps, ComplexCases);

TYPED_TEST(ComplexOps, SumAndProd) {
  using C = typename TypeParam::type;
  constexpr MPI_Datatype h = TypeParam::handle;
  const std::vector<C> in{{1, 2}, {-0.5, 0}, {0, 1}};
  const std::vector<C> io{{3, 4}, {2, -2}, {0, 1}};
  EXPECT_EQ(reduce(MPI_SUM, h, in, io), (std::vector<C>{{4, 6}, {1.5, -2}, {0, 2}}));
  EXPECT_EQ(reduce(MPI_PROD, h, in, io), (std::vector<C>{{-5, 10}, {-1, 1}, {-1, 0}}));
  for (MPI_Op op : {MPI_MAX, MPI_MIN, MPI_LAND, MPI_BAND, MPI_MAXLOC})
    EXPECT_FALSE(op_applies(op, h)) << op_name(op);
}

// ---- MPI_C_BOOL and MPI_BYTE ---------------------------------------------

TEST(LogicalOps, CBoolTruthTablesAcceptNonCanonicalBytes) {
  // Bytes as a C caller may leave them: any nonzero byte is true.
  const std::vector<std::uint8_t> in{0, 0, 1, 1, 0xFF, 2};
  const std::vector<std::uint8_t> io{0, 1, 0, 1, 0x02, 0};
  EXPECT_EQ(reduce(MPI_LAND, MPI_C_BOOL, in, io), (std::vector<std::uint8_t>{0, 0, 0, 1, 1, 0}));
  EXPECT_EQ(reduce(MPI_LOR, MPI_C_BOOL, in, io), (std::vector<std::uint8_t>{0, 1, 1, 1, 1, 1}));
  EXPECT_EQ(reduce(MPI_LXOR, MPI_C_BOOL, in, io), (std::vector<std::uint8_t>{0, 1, 1, 0, 0, 1}));
  for (MPI_Op op : {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_BAND, MPI_BOR, MPI_BXOR})
    EXPECT_FALSE(op_applies(op, MPI_C_BOOL)) << op_name(op);
}

TEST(BitwiseOps, ByteIsBitwiseOnly) {
  const std::vector<unsigned char> in{0xF0, 0xFF, 0x00};
  const std::vector<unsigned char> io{0x3C, 0x81, 0x00};
  EXPECT_EQ(reduce(MPI_BAND, MPI_BYTE, in, io), (std::vector<unsigned char>{0x30, 0x81, 0}));
  EXPECT_EQ(reduce(MPI_BOR, MPI_BYTE, in, io), (std::vector<unsigned char>{0xFC, 0xFF, 0}));
  EXPECT_EQ(reduce(MPI_BXOR, MPI_BYTE, in, io), (std::vector<unsigned char>{0xCC, 0x7E, 0}));
  for (MPI_Op op : {MPI_MAX, MPI_SUM, MPI_LAND, MPI_LOR})
    EXPECT_FALSE(op_applies(op, MPI_BYTE)) << op_name(op);
}

// ---- MAXLOC / MINLOC -----------------------------------------------------

template <class V>
struct ValueIndex {  // the C layout users declare for MPI_FLOAT_INT etc.
  V value;
  int index;
  bool operator==(const ValueIndex&) const = default;
};

template <class V, MPI_Datatype H>
struct PairCase {
  using type = ValueIndex<V>;
  static constexpr MPI_Datatype handle = H;
};
using PairCases = ::testing::Types<
    PairCase<float, MPI_FLOAT_INT>, PairCase<double, MPI_DOUBLE_INT>,
    PairCase<long, MPI_LONG_INT>, PairCase<int, MPI_2INT>, PairCase<short, MPI_SHORT_INT>,
    PairCase<long double, MPI_LONG_DOUBLE_INT>>;

template <class Case>
class LocOps : public ::testing::Test {};
TYPED_TEST_SUITE(LocOps, PairCases);

TYPED_TEST(LocOps, ValueWinsAndTiesTakeTheSmallerIndex) {
  using P = typename TypeParam::type;
  constexpr MPI_Datatype h = TypeParam::handle;
  ASSERT_EQ(predefined_datatype(h)->size, sizeof(P));
  //                          larger in   larger io   tie, in idx<  tie, io idx<  negatives
  const std::vector<P> in{{5, 9}, {-2, 1}, {4, 3}, {4, 8}, {-7, 2}};
  const std::vector<P> io{{-1, 0}, {3, 7}, {4, 6}, {4, 5}, {-7, 2}};
  EXPECT_EQ(reduce(MPI_MAXLOC, h, in, io),
            (std::vector<P>{{5, 9}, {3, 7}, {4, 3}, {4, 5}, {-7, 2}}));
  EXPECT_EQ(reduce(MPI_MINLOC, h, in, io),
            (std::vector<P>{{-1, 0}, {-2, 1}, {4, 3}, {4, 5}, {-7, 2}}));
  for (MPI_Op op : {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND})
    EXPECT_FALSE(op_applies(op, h)) << op_name(op);
}

// Packed pairs (a derived type of them, as it travels): the value, then the
// index, no padding. The result must be the C-struct result, byte for byte
// over the 12 (6, 20 ...) bytes of each pair and nothing past them.
TYPED_TEST(LocOps, PackedPairsGiveTheStructResult) {
  using P = typename TypeParam::type;
  using V = decltype(P::value);
  constexpr MPI_Datatype h = TypeParam::handle;
  constexpr std::size_t kPacked = sizeof(V) + sizeof(int);
  const std::vector<P> in{{5, 9}, {-2, 1}, {4, 3}, {4, 8}};
  const std::vector<P> io{{-1, 0}, {3, 7}, {4, 6}, {4, 5}};
  auto pack = [&](const std::vector<P>& pairs) {
    std::vector<unsigned char> bytes(pairs.size() * kPacked + 1, 0xEE);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      std::memcpy(&bytes[i * kPacked], &pairs[i].value, sizeof(V));
      std::memcpy(&bytes[i * kPacked + sizeof(V)], &pairs[i].index, sizeof(int));
    }
    return bytes;
  };
  for (MPI_Op op : {MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE}) {
    std::vector<unsigned char> pin = pack(in);
    std::vector<unsigned char> pio = pack(io);
    apply_op(op, h, pin.data(), pio.data(), in.size(), PairLayout::Packed);
    EXPECT_EQ(pio, pack(reduce(op, h, in, io))) << op_name(op);
  }
}

// ---- MPI_REPLACE ---------------------------------------------------------

TEST(Replace, CopiesExactlyCountElementsOfEveryType) {
  // Also cross-checks the kernels' element sizes against datatype.cpp.
  for (MPI_Datatype t = 1; t < SHMPI_PREDEFINED_TYPES; ++t) {
    SCOPED_TRACE(predefined_datatype(t)->name);
    ASSERT_TRUE(op_applies(MPI_REPLACE, t));
    const std::size_t size = predefined_datatype(t)->size;
    alignas(64) unsigned char in[4 * 32];
    alignas(64) unsigned char io[4 * 32];
    for (std::size_t i = 0; i < sizeof in; ++i) in[i] = static_cast<unsigned char>(i + 1);
    std::memset(io, 0xEE, sizeof io);
    apply_op(MPI_REPLACE, t, in, io, 3);
    EXPECT_EQ(std::memcmp(io, in, 3 * size), 0);
    EXPECT_EQ(io[3 * size], 0xEE);
  }
  EXPECT_FALSE(op_applies(MPI_REPLACE, MPI_DATATYPE_NULL));
}

// ---- buffers: misaligned, in place, long, empty --------------------------

// Runs `op` on `count` elements placed at byte offset 1 in both buffers
// and compares with the aligned result.
template <class T>
void expect_unaligned_matches_aligned(MPI_Op op, MPI_Datatype type, std::vector<T> in,
                                      std::vector<T> io) {
  const std::size_t bytes = in.size() * sizeof(T);
  std::vector<unsigned char> uin(bytes + 1);
  std::vector<unsigned char> uio(bytes + 1);
  std::memcpy(uin.data() + 1, in.data(), bytes);
  std::memcpy(uio.data() + 1, io.data(), bytes);
  apply_op(op, type, uin.data() + 1, uio.data() + 1, in.size());
  std::vector<T> unaligned(in.size());
  std::memcpy(unaligned.data(), uio.data() + 1, bytes);  // compares fields, not padding
  EXPECT_EQ(unaligned, reduce(op, type, in, io)) << op_name(op);
}

TEST(Buffers, MisalignedElementsGiveTheAlignedResult) {
  expect_unaligned_matches_aligned<float>(MPI_SUM, MPI_FLOAT, {1, 2, 3, 4, 5}, {5, 4, 3, 2, 1});
  expect_unaligned_matches_aligned<std::int64_t>(MPI_PROD, MPI_INT64_T, {-3, 1LL << 62, 7},
                                                 {5, 4, 7});
  expect_unaligned_matches_aligned<long double>(MPI_MAX, MPI_LONG_DOUBLE, {1, -2}, {-1, 2});
  expect_unaligned_matches_aligned<std::complex<double>>(MPI_PROD, MPI_C_DOUBLE_COMPLEX,
                                                         {{1, 2}}, {{3, 4}});
  expect_unaligned_matches_aligned<ValueIndex<double>>(MPI_MINLOC, MPI_DOUBLE_INT,
                                                       {{1, 4}, {2, 0}}, {{1, 3}, {3, 1}});
}

TEST(Buffers, InPlaceSameBuffer) {
  std::vector<int> v{1, -2, 3};
  apply_op(MPI_SUM, MPI_INT, v.data(), v.data(), v.size());
  EXPECT_EQ(v, (std::vector<int>{2, -4, 6}));
  apply_op(MPI_REPLACE, MPI_INT, v.data(), v.data(), v.size());
  EXPECT_EQ(v, (std::vector<int>{2, -4, 6}));
}

TEST(Buffers, LongVectorsCoverTheVectorLoopAndItsTail) {
  constexpr std::size_t n = 1027;
  std::vector<float> fin(n), fio(n);
  std::vector<std::int32_t> iin(n), iio(n);
  for (std::size_t i = 0; i < n; ++i) {
    fin[i] = static_cast<float>(i);
    fio[i] = 0.5f;
    iin[i] = static_cast<std::int32_t>(i) - 500;
    iio[i] = std::numeric_limits<std::int32_t>::max();
  }
  apply_op(MPI_SUM, MPI_FLOAT, fin.data(), fio.data(), n);
  apply_op(MPI_SUM, MPI_INT32_T, iin.data(), iio.data(), n);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(fio[i], static_cast<float>(i) + 0.5f) << i;
    const auto wrapped = static_cast<std::int32_t>(
        static_cast<std::uint32_t>(iin[i]) + static_cast<std::uint32_t>(INT32_MAX));
    ASSERT_EQ(iio[i], wrapped) << i;
  }
}

TEST(Buffers, ZeroCountWritesNothing) {
  int in = 1;
  int io = 7;
  apply_op(MPI_SUM, MPI_INT, &in, &io, 0);
  EXPECT_EQ(io, 7);
}

// ---- the applicability table ---------------------------------------------

// §5.9.2 written out independently of the implementation's groups.
bool expected_applies(MPI_Op op, MPI_Datatype t) {
  const std::set<MPI_Datatype> c_int{
      MPI_CHAR /* extension */, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_SHORT,
      MPI_UNSIGNED_SHORT, MPI_INT, MPI_UNSIGNED, MPI_LONG, MPI_UNSIGNED_LONG,
      MPI_LONG_LONG_INT, MPI_UNSIGNED_LONG_LONG, MPI_INT8_T, MPI_INT16_T, MPI_INT32_T,
      MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T};
  const std::set<MPI_Datatype> fortran_int{MPI_INTEGER, MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8};
  const std::set<MPI_Datatype> floating{MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_REAL, MPI_DOUBLE_PRECISION,
                                        MPI_REAL4, MPI_REAL8};
  const std::set<MPI_Datatype> logical{MPI_C_BOOL, MPI_CXX_BOOL, MPI_LOGICAL};
  const std::set<MPI_Datatype> complex{MPI_C_FLOAT_COMPLEX,   MPI_C_DOUBLE_COMPLEX,   MPI_C_LONG_DOUBLE_COMPLEX,
                                       MPI_CXX_FLOAT_COMPLEX, MPI_CXX_DOUBLE_COMPLEX, MPI_CXX_LONG_DOUBLE_COMPLEX,
                                       MPI_COMPLEX,           MPI_DOUBLE_COMPLEX,     MPI_COMPLEX8,
                                       MPI_COMPLEX16};
  const std::set<MPI_Datatype> multi{MPI_AINT, MPI_OFFSET, MPI_COUNT};
  const std::set<MPI_Datatype> pairs{MPI_FLOAT_INT, MPI_DOUBLE_INT,      MPI_LONG_INT, MPI_2INT,
                                     MPI_SHORT_INT, MPI_LONG_DOUBLE_INT, MPI_2INTEGER};
  const auto in = [t](const std::set<MPI_Datatype>& s) { return s.count(t) != 0; };
  switch (op) {
    case MPI_MAX:
    case MPI_MIN:
      return in(c_int) || in(fortran_int) || in(floating) || in(multi);
    case MPI_SUM:
    case MPI_PROD:
      return in(c_int) || in(fortran_int) || in(floating) || in(complex) || in(multi);
    case MPI_LAND:
    case MPI_LOR:
    case MPI_LXOR:
      return in(c_int) || in(logical);
    case MPI_BAND:
    case MPI_BOR:
    case MPI_BXOR:
      return in(c_int) || in(fortran_int) || t == MPI_BYTE || in(multi);
    case MPI_MAXLOC: case MPI_MINLOC: return in(pairs);
    case MPI_REPLACE: case MPI_NO_OP: return t > MPI_DATATYPE_NULL && t < SHMPI_PREDEFINED_TYPES;
    default: return false;
  }
}

TEST(OpApplies, MatchesTheStandardsTableForEveryHandle) {
  for (MPI_Op op = -2; op <= MPI_NO_OP + 2; ++op)
    for (MPI_Datatype t = -2; t <= SHMPI_PREDEFINED_TYPES + 2; ++t)
      EXPECT_EQ(op_applies(op, t), expected_applies(op, t)) << "op " << op << " type " << t;
}

TEST(OpApplies, SpotChecks) {
  EXPECT_FALSE(op_applies(MPI_SUM, MPI_C_BOOL));
  EXPECT_FALSE(op_applies(MPI_BAND, MPI_FLOAT));
  EXPECT_FALSE(op_applies(MPI_MAXLOC, MPI_INT));
  EXPECT_FALSE(op_applies(MPI_LAND, MPI_AINT));
  EXPECT_FALSE(op_applies(MPI_SUM, MPI_WCHAR));
  EXPECT_FALSE(op_applies(MPI_MAX, MPI_PACKED));
  EXPECT_FALSE(op_applies(MPI_OP_NULL, MPI_INT));
  EXPECT_TRUE(op_applies(MPI_MAX, MPI_CHAR));
  EXPECT_TRUE(op_applies(MPI_BXOR, MPI_COUNT));
  EXPECT_TRUE(op_applies(MPI_REPLACE, MPI_PACKED));
}

TEST(NoOp, LeavesTheTargetAsItIs) {
  int in[3] = {1, 2, 3};
  int io[3] = {7, 8, 9};
  apply_op(MPI_NO_OP, MPI_INT, in, io, 3);
  EXPECT_EQ(io[0], 7);
  EXPECT_EQ(io[1], 8);
  EXPECT_EQ(io[2], 9);
}

TEST(OpAppliesDeathTest, ApplyingAForbiddenOpAssertsInDebugAndIsANoOpInRelease) {
  std::uint8_t in = 1;
  std::uint8_t io = 1;
  EXPECT_DEBUG_DEATH(apply_op(MPI_SUM, MPI_C_BOOL, &in, &io, 1), "op_applies");
  EXPECT_EQ(io, 1);
}

TEST(OpName, NamesEveryPredefinedOp) {
  const char* names[] = {"MPI_MAX",  "MPI_MIN",  "MPI_SUM",    "MPI_PROD",   "MPI_LAND",
                         "MPI_BAND", "MPI_LOR",  "MPI_BOR",    "MPI_LXOR",   "MPI_BXOR",
                         "MPI_MAXLOC", "MPI_MINLOC", "MPI_REPLACE", "MPI_NO_OP"};
  for (MPI_Op op = MPI_MAX; op <= MPI_NO_OP; ++op)
    EXPECT_STREQ(op_name(op), names[op - MPI_MAX]);
  EXPECT_EQ(op_name(MPI_OP_NULL), nullptr);
  EXPECT_EQ(op_name(MPI_NO_OP + 1), nullptr);
  EXPECT_EQ(op_name(-1), nullptr);
}

}  // namespace
}  // namespace shmpi::runtime
