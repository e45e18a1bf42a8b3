// Topology arithmetic (runtime/topology.cpp): MPI_Dims_create and the
// Cartesian coordinate, rank, shift and sub-grid calculations.
#include "runtime/topology.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace shmpi::runtime {
namespace {

std::vector<int> dims(int nnodes, std::vector<int> d) {
  EXPECT_FALSE(dims_create(nnodes, static_cast<int>(d.size()), d.data()));
  return d;
}

TEST(DimsCreate, BalancedAndNonIncreasing) {
  EXPECT_EQ(dims(6, {0, 0}), (std::vector<int>{3, 2}));
  EXPECT_EQ(dims(16, {0, 0}), (std::vector<int>{4, 4}));
  EXPECT_EQ(dims(24, {0, 0, 0}), (std::vector<int>{4, 3, 2}));
  EXPECT_EQ(dims(7, {0, 0}), (std::vector<int>{7, 1}));
  EXPECT_EQ(dims(1, {0, 0, 0}), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(dims(36, {0, 0, 0}), (std::vector<int>{4, 3, 3}));
}

// The closest factors, where giving each prime to the smallest dim misses
// them (336 came out 24 x 14); ties go to the larger smallest dim, then to
// the better balance of the rest (MPICH's choices, which users compare).
TEST(DimsCreate, TheClosestFactorsNotTheGreedyOnes) {
  EXPECT_EQ(dims(336, {0, 0}), (std::vector<int>{21, 16}));
  EXPECT_EQ(dims(720, {0, 0}), (std::vector<int>{30, 24}));
  EXPECT_EQ(dims(5040, {0, 0, 0}), (std::vector<int>{21, 16, 15}));
  EXPECT_EQ(dims(10800, {0, 0, 0}), (std::vector<int>{27, 20, 20}));
  EXPECT_EQ(dims(98784, {0, 0, 0, 0, 0}), (std::vector<int>{14, 14, 9, 8, 7}));
  EXPECT_EQ(dims(1 << 20, std::vector<int>(20, 0)), (std::vector<int>(20, 2)));
  EXPECT_EQ(dims(2147483647, {0, 0}), (std::vector<int>{2147483647, 1}));  // a prime
}

TEST(DimsCreate, KeepsFixedEntries) {
  EXPECT_EQ(dims(12, {0, 3}), (std::vector<int>{4, 3}));
  EXPECT_EQ(dims(12, {2, 0, 0}), (std::vector<int>{2, 3, 2}));
  EXPECT_EQ(dims(6, {2, 3}), (std::vector<int>{2, 3}));
}

TEST(DimsCreate, RefusesImpossibleRequests) {
  std::vector<int> d{5, 0};
  EXPECT_TRUE(dims_create(12, 2, d.data()));
  d = {2, 2};
  EXPECT_TRUE(dims_create(5, 2, d.data()));
  d = {-1, 0};
  EXPECT_TRUE(dims_create(4, 2, d.data()));
  EXPECT_TRUE(dims_create(0, 0, nullptr));
  EXPECT_TRUE(dims_create(4, -1, nullptr));
}

CartTopology grid(std::vector<int> d, std::vector<bool> p) { return CartTopology{std::move(d), std::move(p)}; }

TEST(Cart, CoordinatesAreRowMajorAndRoundTrip) {
  const CartTopology t = grid({2, 3, 4}, {false, true, false});
  EXPECT_EQ(t.size(), 24);
  EXPECT_EQ(t.coords(0), (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(t.coords(5), (std::vector<int>{0, 1, 1}));
  EXPECT_EQ(t.coords(23), (std::vector<int>{1, 2, 3}));
  for (int r = 0; r < t.size(); ++r) EXPECT_EQ(t.rank_of(t.coords(r).data()), r);
}

TEST(Cart, PeriodicDimensionsWrapOthersFallOff) {
  const CartTopology t = grid({3, 4}, {true, false});
  const int wrapped[] = {-1, 2};
  EXPECT_EQ(t.rank_of(wrapped), 2 * 4 + 2);
  const int off[] = {0, 4};
  EXPECT_EQ(t.rank_of(off), MPI_PROC_NULL);
  int source = 0, dest = 0;
  t.shift(0, 0, 1, source, dest);  // (0,0) along the periodic dimension
  EXPECT_EQ(source, 8);
  EXPECT_EQ(dest, 4);
  t.shift(3, 1, 1, source, dest);  // (0,3) along the open one
  EXPECT_EQ(source, 2);
  EXPECT_EQ(dest, MPI_PROC_NULL);
  t.shift(5, 1, -2, source, dest);  // (1,1) two steps down
  EXPECT_EQ(source, 7);
  EXPECT_EQ(dest, MPI_PROC_NULL);
}

TEST(Cart, SubGridsGroupByTheDroppedDimensions) {
  const CartTopology t = grid({2, 3}, {false, true});
  const int keep_columns[] = {0, 1};
  const CartTopology row = t.sub(keep_columns);
  EXPECT_EQ(row.dims, (std::vector<int>{3}));
  EXPECT_EQ(row.periods, (std::vector<bool>{true}));
  int color = -1, key = -1;
  t.sub_position(4, keep_columns, color, key);  // (1,1)
  EXPECT_EQ(color, 1);
  EXPECT_EQ(key, 1);
  const int keep_none[] = {0, 0};
  EXPECT_TRUE(t.sub(keep_none).dims.empty());
  EXPECT_EQ(t.sub(keep_none).size(), 1);
  t.sub_position(4, keep_none, color, key);
  EXPECT_EQ(color, 4);
  EXPECT_EQ(key, 0);
}

TEST(Graph, DegreesAndNeighboursFromCumulativeIndex) {
  const GraphTopology g{{2, 3, 3, 5}, {1, 3, 0, 0, 2}};
  EXPECT_EQ(g.degree(0), 2);
  EXPECT_EQ(g.degree(2), 0);
  EXPECT_EQ(g.degree(3), 2);
  EXPECT_EQ(g.neighbours(3)[1], 2);
}

}  // namespace
}  // namespace shmpi::runtime
