// Known layouts: bounds, sizes and compiled programs of the constructors.
#include <gtest/gtest.h>

#include "datatype/copy.hpp"
#include "datatype/layouts.hpp"
#include "reference.hpp"

namespace shmpi::datatype {
namespace {

const Basic kInt{4, 4, 4, Scalar::Signed};
const Basic kDouble{8, 8, 8, Scalar::Float};
const Basic kChar{1, 1, 1, Scalar::Bytes};

std::vector<Offset> offsets(const Type& t, std::uint64_t count) {
  std::vector<Offset> out;
  for (const testing::Entry& e : testing::type_map(t, count)) out.push_back(e.offset);
  return out;
}

TEST(DatatypeConstructors, ColumnOfAMatrixIsOneStridedRun) {
  const TypeRef d = Type::basic(kDouble, 1);
  const TypeRef column = make_hvector(1000, 1, 8 * 500, d);  // column of a 1000 x 500 matrix
  ASSERT_TRUE(column);
  EXPECT_EQ(column->size(), 8000);
  EXPECT_EQ(column->extent(), 999 * 4000 + 8);
  ASSERT_EQ(column->program().ops.size(), 1u);
  EXPECT_EQ(column->program().ops[0].count, 1000u);
  EXPECT_EQ(column->program().ops[0].bytes, 8u);
  EXPECT_FALSE(column->contiguous());
  // Resized to one double, consecutive columns fold into one strided walk.
  const TypeRef next = Type::resized(column, 0, 8);
  EXPECT_EQ(next->extent(), 8);
  EXPECT_EQ(next->true_extent(), 999 * 4000 + 8);
}

TEST(DatatypeConstructors, TouchingBlocksMergeIntoOneRun) {
  const TypeRef i = Type::basic(kInt, 2);
  const TypeRef v = make_hvector(3, 2, 8, i);
  EXPECT_TRUE(v->contiguous());
  const std::vector<std::int64_t> lens{2, 3};
  const std::vector<Offset> disps{0, 8};
  EXPECT_TRUE(make_hindexed(lens, disps, i)->contiguous());
  const TypeRef nested = make_contiguous(4, make_contiguous(3, i));
  EXPECT_TRUE(nested->contiguous());
  EXPECT_EQ(nested->size(), 48);
}

TEST(DatatypeConstructors, StructIsPaddedToItsStrictestMember) {
  const std::vector<std::int64_t> lens{1, 1};
  const std::vector<Offset> disps{0, 8};
  const std::vector<TypeRef> types{Type::basic(kDouble, 1), Type::basic(kChar, 3)};
  const TypeRef s = make_struct(lens, disps, types);
  EXPECT_EQ(s->size(), 9);
  EXPECT_EQ(s->extent(), 16);
  EXPECT_EQ(s->true_extent(), 9);
  EXPECT_EQ(s->kind(), Type::kMixed);
  EXPECT_EQ(offsets(*s, 2), (std::vector<Offset>{0, 8, 16, 24}));
  // Explicit bounds are kept: no padding of a resized member's struct.
  const TypeRef r = Type::resized(types[1], -2, 5);
  const std::vector<TypeRef> one{r};
  const std::vector<std::int64_t> len1{2};
  const std::vector<Offset> at0{0};
  const TypeRef sr = make_struct(len1, at0, one);
  EXPECT_EQ(sr->lb(), -2);
  EXPECT_EQ(sr->extent(), 10);
}

TEST(DatatypeConstructors, ResizedKeepsDataMovesBounds) {
  const TypeRef i = Type::basic(kInt, 2);
  const TypeRef r = Type::resized(make_contiguous(2, i), -4, 20);
  EXPECT_EQ(r->lb(), -4);
  EXPECT_EQ(r->ub(), 16);
  EXPECT_EQ(r->true_lb(), 0);
  EXPECT_EQ(r->true_ub(), 8);
  EXPECT_EQ(offsets(*r, 2), (std::vector<Offset>{0, 4, 20, 24}));
  EXPECT_EQ(r->kind(), 2);
}

TEST(DatatypeConstructors, SubarrayOfACArray) {
  const TypeRef i = Type::basic(kInt, 2);
  const std::vector<std::int64_t> sizes{4, 5}, sub{2, 3}, starts{1, 2};
  const TypeRef s = make_subarray(sizes, sub, starts, Order::C, i);
  EXPECT_EQ(s->lb(), 0);
  EXPECT_EQ(s->extent(), 4 * 5 * 4);
  EXPECT_EQ(offsets(*s, 1), (std::vector<Offset>{4 * 7, 4 * 8, 4 * 9, 4 * 12, 4 * 13, 4 * 14}));
  const TypeRef f = make_subarray(sizes, sub, starts, Order::Fortran, i);  // column-major: index 0 fastest
  EXPECT_EQ(offsets(*f, 1), (std::vector<Offset>{4 * 9, 4 * 10, 4 * 13, 4 * 14, 4 * 17, 4 * 18}));
}

TEST(DatatypeConstructors, DarrayBlockAndCyclic) {
  const TypeRef c = Type::basic(kChar, 3);
  const std::vector<std::int64_t> gsizes{10}, psizes{3}, dflt{kDefaultDistributionArg}, two{2};
  const std::vector<Distribution> block{Distribution::Block}, cyclic{Distribution::Cyclic};
  // BLOCK: ceil(10 / 3) = 4 each; rank 2 holds 8 and 9.
  EXPECT_EQ(offsets(*make_darray(2, gsizes, block, dflt, psizes, Order::C, c), 1), (std::vector<Offset>{8, 9}));
  // CYCLIC(2): rank 1 holds 2, 3, 8, 9.
  const TypeRef cy = make_darray(1, gsizes, cyclic, two, psizes, Order::C, c);
  EXPECT_EQ(offsets(*cy, 1), (std::vector<Offset>{2, 3, 8, 9}));
  EXPECT_EQ(cy->extent(), 10);
  // 2-D 4 x 6, grid 2 x 3, (BLOCK, CYCLIC): rank 4 = grid (1, 1): rows 2-3, columns 1 and 4.
  const std::vector<std::int64_t> g2{4, 6}, p2{2, 3}, d2{kDefaultDistributionArg, kDefaultDistributionArg};
  const std::vector<Distribution> bc{Distribution::Block, Distribution::Cyclic};
  EXPECT_EQ(offsets(*make_darray(4, g2, bc, d2, p2, Order::C, c), 1), (std::vector<Offset>{13, 16, 19, 22}));
}

TEST(DatatypeConstructors, ElementsInPartialStreams) {
  const TypeRef i = Type::basic(kInt, 2);
  const std::vector<std::int64_t> lens{1, 2};
  const std::vector<Offset> disps{0, 8};
  const std::vector<TypeRef> types{Type::basic(kDouble, 1), i};
  const TypeRef s = make_struct(lens, disps, types);  // double, int, int: 16 bytes, 3 elements
  EXPECT_EQ(s->elements_in(0), 0);
  EXPECT_EQ(s->elements_in(7), 0);
  EXPECT_EQ(s->elements_in(12), 2);
  EXPECT_EQ(s->elements_in(16), 3);
  EXPECT_EQ(s->elements_in(16 + 8), 4);
}

TEST(DatatypeConstructors, OverflowGivesNothing) {
  const TypeRef d = Type::basic(kDouble, 1);
  EXPECT_FALSE(make_contiguous(INT64_MAX / 4, d));
  EXPECT_FALSE(make_hvector(1 << 30, 1, INT64_MAX / 8, d));
}

TEST(DatatypeConstructors, OverlapIsFound) {
  const TypeRef i = Type::basic(kInt, 2);
  const TypeRef twice = make_hvector(2, 1, 0, i);  // the same int twice
  EXPECT_EQ(find_overlap(twice->program(), 1, twice->extent(), 1000), Overlap::Yes);
  const TypeRef col = Type::resized(make_hvector(4, 1, 16, i), 0, 4);  // interleaved columns
  EXPECT_EQ(find_overlap(col->program(), 4, col->extent(), 1000), Overlap::No);
  EXPECT_EQ(find_overlap(col->program(), 5, col->extent(), 1000), Overlap::Yes);
  EXPECT_EQ(find_overlap(col->program(), 5, col->extent(), 3), Overlap::Unknown);
}

TEST(DatatypeConstructors, DeepNestingUsesMoreFrames) {
  TypeRef t = Type::basic(kInt, 2);
  for (int i = 0; i < 12; ++i) t = make_hvector(2, 1, t->extent() * 2 + 4, t);  // gaps keep every level a loop
  ASSERT_GT(t->program().depth, 8u);
  const std::vector<testing::Entry> map = testing::type_map(*t, 1);
  std::vector<std::byte> memory(static_cast<std::size_t>(t->true_ub()));
  for (std::size_t k = 0; k < memory.size(); ++k) memory[k] = std::byte(k * 17);
  std::vector<std::byte> out(static_cast<std::size_t>(t->size()));
  Cursor c(t->program(), 1, t->extent());
  c.seek(100);
  pack(c, memory.data(), out.data() + 100, out.size());
  c.seek(0);
  pack(c, memory.data(), out.data(), 100);
  EXPECT_EQ(out, testing::naive_pack(map, memory.data()));
}

}  // namespace
}  // namespace shmpi::datatype
