// btl/between_polls: a gap in nanoseconds becomes whole pauses.
#include "btl/between_polls.hpp"

#include <gtest/gtest.h>

namespace shmpi::btl {
namespace {

TEST(BetweenPolls, AGapBecomesTheNearestWholeNumberOfPausesAtLeastOne) {
  EXPECT_EQ(pauses_for(0, 10.0), 0u);    // no gap: an lfence
  EXPECT_EQ(pauses_for(30, 10.0), 3u);
  EXPECT_EQ(pauses_for(30, 9.0), 3u);    // 3.3
  EXPECT_EQ(pauses_for(30, 8.0), 4u);    // 3.75
  EXPECT_EQ(pauses_for(30, 40.0), 1u);   // shorter than one pause: one
  EXPECT_EQ(pauses_for(30, 0.0), 1u);    // a clock that saw nothing
  EXPECT_EQ(pauses_for(1000, 0.01), 1000u);  // bounded
}

TEST(BetweenPolls, APauseTakesSomeTimeButNotMuch) {
  const double ns = measure_pause_ns();
  EXPECT_GT(ns, 0.0);
  EXPECT_LT(ns, 10'000.0);
}

}  // namespace
}  // namespace shmpi::btl
