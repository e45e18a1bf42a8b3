// Unit tests of RouteChooser: which way the rendezvous messages of an epoch
// travel, from what earlier epochs cost, with tries of the other way.
#include "pml/route_chooser.hpp"

#include <gtest/gtest.h>

#include <functional>

namespace shmpi::pml {
namespace {

constexpr std::uint64_t kFirst = 128 * 1024;
constexpr int kGap = static_cast<int>(RouteChooser::kFirstGap);

// Runs `n` epochs of one message of `bytes`, each told at once with the
// cost cost(route, i) (i counts the epochs of this call); returns how many
// streamed.
int run(RouteChooser& c, std::uint64_t bytes, int n, const std::function<std::uint64_t(Route, int)>& cost) {
  int streamed = 0;
  for (int i = 0; i < n; ++i) {
    const Route r = c.choose(bytes);
    streamed += r == Route::Stream;
    c.record(r, bytes, bytes, cost(r, i));
  }
  return streamed;
}

int run(RouteChooser& c, std::uint64_t bytes, int n, std::uint64_t single_ns, std::uint64_t stream_ns) {
  return run(c, bytes, n, [=](Route r, int) { return r == Route::Stream ? stream_ns : single_ns; });
}

TEST(RouteChooser, SizesOutsideTheWindowAlwaysTakeSingleCopy) {
  RouteChooser c(kFirst);
  for (std::uint64_t bytes : {kFirst - 1, 4 * kFirst, 64 * kFirst}) {
    EXPECT_FALSE(c.chooses(bytes));
    for (int i = 0; i < 300; ++i) EXPECT_EQ(c.choose(bytes), Route::SingleCopy);
    c.record(Route::Stream, bytes, bytes, 1);
    EXPECT_EQ(c.cost(Route::Stream, bytes), 0U);
  }
  RouteChooser off(0);
  EXPECT_FALSE(off.enabled());
  for (int i = 0; i < 300; ++i) EXPECT_EQ(off.choose(kFirst), Route::SingleCopy);
}

TEST(RouteChooser, TriesTheOtherRouteOnTheThirdEpochAndKeepsTheCheaper) {
  RouteChooser c(kFirst);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(c.choose(kFirst), Route::SingleCopy);
    c.record(Route::SingleCopy, kFirst, kFirst, i == 0 ? 30000 : 7000);  // the first is cold
  }
  EXPECT_EQ(c.choose(kFirst), Route::Stream);
  c.record(Route::Stream, kFirst, kFirst, 4000);
  EXPECT_EQ(c.in_use(kFirst), Route::Stream);
  EXPECT_EQ(c.choose(kFirst), Route::Stream);
}

TEST(RouteChooser, AnEpochIsChargedPerByte) {
  RouteChooser c(kFirst);
  c.choose(kFirst);
  c.record(Route::SingleCopy, kFirst, 64 * kFirst, 64 * 7000);  // 64 messages in one epoch
  c.choose(kFirst);
  c.choose(kFirst);
  c.record(Route::Stream, kFirst, kFirst, 8000);  // one message, dearer per byte
  EXPECT_EQ(c.in_use(kFirst), Route::SingleCopy);
  EXPECT_LT(c.cost(Route::SingleCopy, kFirst), c.cost(Route::Stream, kFirst));
}

TEST(RouteChooser, ARouteThatLosesClearlyIsTriedLessAndLessOften) {
  RouteChooser c(kFirst);
  const int n = 1000;
  const int single = n - run(c, kFirst, n, 7000, 4000);
  // Epochs 1-2, the try on 3 that switched, then tries 16, 32, 64, 128,
  // 256, 256 ... epochs apart: a dozen at most; with a fixed gap of 16, 60.
  EXPECT_GE(single, 5);
  EXPECT_LE(single, 12);
  EXPECT_EQ(c.in_use(kFirst), Route::Stream);
}

TEST(RouteChooser, ARouteThatComesCloseIsTriedEveryGap) {
  RouteChooser c(kFirst);
  const int n = 20 * kGap;
  const int streamed = run(c, kFirst, n, 7000, 7500);  // within 1.25x
  EXPECT_GE(streamed, 18);
  EXPECT_LE(streamed, 22);
  EXPECT_EQ(c.in_use(kFirst), Route::SingleCopy);
}

TEST(RouteChooser, ATryNeverToldIsMadeAgainAfterTheGap) {
  RouteChooser c(kFirst);
  run(c, kFirst, 2, 7000, 4000);
  EXPECT_EQ(c.choose(kFirst), Route::Stream);  // its epoch is spoiled: never recorded
  int tries = 0;
  for (int i = 0; i < kGap; ++i) tries += c.choose(kFirst) == Route::Stream;
  EXPECT_EQ(tries, 1);
}

TEST(RouteChooser, TriesAtOnceWhenTheRouteInUseBecomesDearerThanTheOther) {
  RouteChooser c(kFirst);
  run(c, kFirst, 1000, 7000, 4000);  // streaming in use, single copy tried rarely
  ASSERT_EQ(c.in_use(kFirst), Route::Stream);
  // Streaming turns slow (the ranks moved apart): single copy within a few
  // epochs, not after the long gap.
  run(c, kFirst, 6, 7000, 9000);
  EXPECT_EQ(c.in_use(kFirst), Route::SingleCopy);
  EXPECT_LE(run(c, kFirst, 2 * kGap, 7000, 9000), 2);  // then tried back now and then
}

TEST(RouteChooser, ATriedRouteIsJudgedByItsTryNotByItsOldEpochs) {
  RouteChooser c(kFirst);
  run(c, kFirst, 100, 7000, 4000);  // streaming in use, cheap
  run(c, kFirst, 300, 3000, 4000);  // single copy became cheaper: taken at its next try
  ASSERT_EQ(c.in_use(kFirst), Route::SingleCopy);
  run(c, kFirst, 300, 3000, 20000);  // streaming tried again: far dearer now
  EXPECT_GT(c.cost(Route::Stream, kFirst), 5 * c.cost(Route::SingleCopy, kFirst));
}

TEST(RouteChooser, OneSlowEpochDoesNotFlipTheChoice) {
  RouteChooser c(kFirst);
  run(c, kFirst, kGap, 4000, 7000);  // streaming tried, single copy in use
  ASSERT_EQ(c.in_use(kFirst), Route::SingleCopy);
  const std::uint64_t before = c.cost(Route::SingleCopy, kFirst);
  c.record(Route::SingleCopy, kFirst, kFirst, 60000);  // a preempted copy
  EXPECT_EQ(c.cost(Route::SingleCopy, kFirst), before);
  EXPECT_EQ(c.choose(kFirst), Route::SingleCopy);
}

TEST(RouteChooser, SizeBucketsLearnApart) {
  RouteChooser c(kFirst);
  EXPECT_TRUE(c.same_bucket(kFirst, 2 * kFirst - 1));
  EXPECT_FALSE(c.same_bucket(kFirst, 2 * kFirst));
  run(c, kFirst, kGap, 7000, 4000);          // 128 KiB: streaming cheaper
  run(c, 2 * kFirst, kGap, 10000, 16000);    // 256 KiB: single copy cheaper
  EXPECT_EQ(c.in_use(kFirst), Route::Stream);
  EXPECT_EQ(c.in_use(2 * kFirst), Route::SingleCopy);
}

}  // namespace
}  // namespace shmpi::pml
