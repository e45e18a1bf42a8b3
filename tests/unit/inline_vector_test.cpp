// InlineVector (runtime/inline_vector.hpp): the same contents as a
// std::vector through every change, across the inline/heap boundary.
#include "runtime/inline_vector.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <utility>
#include <vector>

namespace {

using shmpi::runtime::InlineVector;
using Small = InlineVector<std::size_t, 4>;

std::vector<std::size_t> contents(const Small& v) { return {v.begin(), v.end()}; }

TEST(InlineVector, ResizeValueInitializesAcrossTheBoundary) {
  Small v;
  EXPECT_TRUE(v.empty());
  v.resize(3);
  v[0] = 7;
  v.resize(6);  // onto the heap: keeps 7, the rest zero
  EXPECT_EQ(contents(v), (std::vector<std::size_t>{7, 0, 0, 0, 0, 0}));
  v[5] = 9;
  v.resize(2);  // back inside
  EXPECT_EQ(contents(v), (std::vector<std::size_t>{7, 0}));
  v[1] = 3;
  v.resize(4);  // grown inside: the old tail does not come back
  EXPECT_EQ(contents(v), (std::vector<std::size_t>{7, 3, 0, 0}));
}

TEST(InlineVector, PushBackAndAssignMatchAVector) {
  Small v;
  std::vector<std::size_t> expected;
  for (std::size_t i = 0; i < 10; ++i) {
    v.push_back(i * i);
    expected.push_back(i * i);
    ASSERT_EQ(contents(v), expected) << "after " << i + 1 << " push_backs";
  }
  v.push_back(v[9]);  // an element of its own, with no room left in the heap array
  EXPECT_EQ(v[10], 81u);
  v.assign(3, 5);
  EXPECT_EQ(contents(v), (std::vector<std::size_t>{5, 5, 5}));
  const std::size_t many[] = {1, 2, 3, 4, 5};
  v.assign(many, many + 5);
  EXPECT_EQ(contents(v), (std::vector<std::size_t>{1, 2, 3, 4, 5}));
}

TEST(InlineVector, CopiesAndMovesKeepContentsInsideOrOnTheHeap) {
  for (std::size_t n : {3u, 9u}) {
    Small a;
    for (std::size_t i = 0; i < n; ++i) a.push_back(i + 1);
    Small copy = a;
    EXPECT_EQ(contents(copy), contents(a));
    copy[0] = 42;
    EXPECT_EQ(a[0], 1u) << "a copy shares nothing";
    Small moved = std::move(copy);
    EXPECT_EQ(moved[0], 42u);
    EXPECT_EQ(moved.size(), n);
    EXPECT_TRUE(copy.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty and usable
    copy.push_back(1);
    EXPECT_EQ(contents(copy), (std::vector<std::size_t>{1}));
    Small assigned;
    assigned = std::move(moved);
    EXPECT_EQ(assigned.size(), n);
    EXPECT_EQ(assigned[n - 1], n);
  }
}

}  // namespace
