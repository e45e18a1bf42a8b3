// Group set logic (runtime/group.cpp): order of results, rank checks.
#include "runtime/group.hpp"

#include <gtest/gtest.h>

#include <variant>

namespace shmpi::runtime {
namespace {

Group g(std::initializer_list<std::uint32_t> l) { return Group(l); }

TEST(Group, UnionKeepsFirstOrderThenNewMembersOfSecond) {
  EXPECT_EQ(group_union(g({5, 1, 3}), g({2, 3, 5, 0})), g({5, 1, 3, 2, 0}));
  EXPECT_EQ(group_intersection(g({5, 1, 3}), g({3, 5})), g({5, 3}));
  EXPECT_EQ(group_difference(g({5, 1, 3}), g({3, 5})), g({1}));
  EXPECT_TRUE(group_intersection(g({1}), g({2})).empty());
}

TEST(Group, CompareTellsIdenticalSimilarUnequal) {
  EXPECT_EQ(compare_groups(g({1, 2}), g({1, 2})), MPI_IDENT);
  EXPECT_EQ(compare_groups(g({1, 2}), g({2, 1})), MPI_SIMILAR);
  EXPECT_EQ(compare_groups(g({1, 2}), g({1, 3})), MPI_UNEQUAL);
  EXPECT_EQ(compare_groups(g({}), g({})), MPI_IDENT);
}

TEST(Group, InclExclFollowTheGivenOrder) {
  const Group base = g({10, 11, 12, 13});
  const int ranks[] = {3, 0};
  EXPECT_EQ(std::get<Group>(group_incl(base, ranks, 2)), g({13, 10}));
  EXPECT_EQ(std::get<Group>(group_excl(base, ranks, 2)), g({11, 12}));
  EXPECT_TRUE(std::get<Group>(group_incl(base, nullptr, 0)).empty());
}

TEST(Group, InvalidOrRepeatedRanksAreRefused) {
  const Group base = g({10, 11, 12});
  const int out_of_range[] = {3};
  const int negative[] = {-1};
  const int twice[] = {1, 1};
  EXPECT_EQ(std::get<ArgError>(group_incl(base, out_of_range, 1)).error_class, MPI_ERR_RANK);
  EXPECT_EQ(std::get<ArgError>(group_excl(base, negative, 1)).error_class, MPI_ERR_RANK);
  EXPECT_EQ(std::get<ArgError>(group_incl(base, twice, 2)).error_class, MPI_ERR_RANK);
  EXPECT_EQ(std::get<ArgError>(group_incl(base, twice, -1)).error_class, MPI_ERR_ARG);
}

TEST(Group, RangesExpandWithPositiveAndNegativeStrides) {
  const Group base = g({0, 1, 2, 3, 4, 5, 6, 7});
  const int ranges[][3] = {{6, 0, -3}, {1, 7, 4}};  // 6 3 0, 1 5
  EXPECT_EQ(std::get<Group>(group_range_incl(base, ranges, 2)), g({6, 3, 0, 1, 5}));
  EXPECT_EQ(std::get<Group>(group_range_excl(base, ranges, 2)), g({2, 4, 7}));
  const int zero_stride[][3] = {{0, 2, 0}};
  const int overlap[][3] = {{0, 3, 1}, {3, 4, 1}};
  const int beyond[][3] = {{0, 8, 1}};
  EXPECT_EQ(std::get<ArgError>(group_range_incl(base, zero_stride, 1)).error_class, MPI_ERR_ARG);
  EXPECT_EQ(std::get<ArgError>(group_range_incl(base, overlap, 2)).error_class, MPI_ERR_RANK);
  EXPECT_EQ(std::get<ArgError>(group_range_excl(base, beyond, 1)).error_class, MPI_ERR_RANK);
}

TEST(Group, TranslateRanksMapsThroughWorldRanks) {
  const Group a = g({4, 7, 9}), b = g({9, 4});
  const int in[] = {0, 1, 2, MPI_PROC_NULL};
  int out[4] = {};
  EXPECT_FALSE(translate_ranks(a, in, 4, b, out));
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], MPI_UNDEFINED);
  EXPECT_EQ(out[2], 0);
  EXPECT_EQ(out[3], MPI_PROC_NULL);
  const int bad[] = {3};
  EXPECT_EQ(translate_ranks(a, bad, 1, b, out)->error_class, MPI_ERR_RANK);
  EXPECT_EQ(rank_in(a, 9), 2);
  EXPECT_EQ(rank_in(a, 5), MPI_UNDEFINED);
}

}  // namespace
}  // namespace shmpi::runtime
