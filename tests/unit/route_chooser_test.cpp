// Unit tests of RouteChooser: which way the rendezvous messages of an epoch
// travel, from what earlier epochs cost, with tries of the other way.
#include "pml/route_chooser.hpp"

#include <gtest/gtest.h>

#include <functional>

namespace shmpi::pml {
namespace {

constexpr std::uint64_t kFirst = 128 * 1024;
constexpr int kGap = static_cast<int>(RouteChooser::kFirstGap);
constexpr int kTry = static_cast<int>(RouteChooser::kTryMessages);

// Runs `n` epochs of one message, each timed at once with the cost
// cost(route, i) (i counts the epochs of this call); returns how many
// streamed.
int run(RouteChooser& c, int n, const std::function<std::uint64_t(Route, int)>& cost) {
  int streamed = 0;
  for (int i = 0; i < n; ++i) {
    const Route r = c.choose();
    streamed += r == Route::Stream;
    c.record(r, kFirst, 1, cost(r, i));
  }
  return streamed;
}

int run(RouteChooser& c, int n, std::uint64_t single, std::uint64_t stream) {
  return run(c, n, [=](Route r, int) { return r == Route::Stream ? stream : single; });
}

TEST(RouteChooser, OnlySizesFromTheThresholdToBelowTwiceItAreChosen) {
  RouteChooser c(kFirst);
  EXPECT_TRUE(c.enabled());
  EXPECT_FALSE(c.chooses(kFirst - 1));
  EXPECT_TRUE(c.chooses(kFirst));
  EXPECT_TRUE(c.chooses(2 * kFirst - 1));
  EXPECT_FALSE(c.chooses(2 * kFirst));
  RouteChooser off(0);
  EXPECT_FALSE(off.enabled());
  EXPECT_FALSE(off.chooses(kFirst));
}

TEST(RouteChooser, TheFirstEpochIsNotCountedAndATryTimesSeveralMessages) {
  RouteChooser c(kFirst);
  EXPECT_EQ(c.choose(), Route::SingleCopy);
  c.record(Route::SingleCopy, kFirst, 1, 1);  // cold, whatever it cost: not counted
  for (int i = 0; i < kTry; ++i) {            // kTryMessages timed on the route in use
    EXPECT_EQ(c.choose(), Route::SingleCopy);
    c.record(Route::SingleCopy, kFirst, 1, 7000);
  }
  for (int i = 0; i < kTry; ++i) {  // the try
    ASSERT_EQ(c.choose(), Route::Stream) << "try epoch " << i;
    EXPECT_EQ(c.in_use(), Route::SingleCopy);  // undecided until the try is over
    c.record(Route::Stream, kFirst, 1, i == 0 ? 20000 : 4000);  // its first one cold
  }
  EXPECT_EQ(c.in_use(), Route::Stream);
  EXPECT_EQ(c.choose(), Route::Stream);
}

TEST(RouteChooser, AnEpochIsChargedPerByteAndOneOfManyMessagesIsAWholeTry) {
  RouteChooser c(kFirst);
  const auto window = [&c](Route expected, std::uint64_t per_message) {
    EXPECT_EQ(c.choose(), expected);
    c.record(expected, 64 * kFirst, 64, 64 * per_message);  // 64 messages in one epoch
  };
  window(Route::SingleCopy, 7000);  // not counted
  window(Route::SingleCopy, 7000);
  window(Route::Stream, 5000);  // the try: one epoch is enough
  EXPECT_EQ(c.in_use(), Route::Stream);
  EXPECT_LT(c.cost(Route::Stream), c.cost(Route::SingleCopy));
}

TEST(RouteChooser, ALosingRouteIsTriedLessAndLessOften) {
  for (std::uint64_t stream : {std::uint64_t{7500}, std::uint64_t{14000}}) {  // close or far
    RouteChooser c(kFirst);
    const int streamed = run(c, 2000, 7000, stream);
    // Tries of 4 epochs 16, 64, 256, 1024 epochs apart; with a fixed gap, some 400.
    EXPECT_GE(streamed, 3 * kTry) << stream;
    EXPECT_LE(streamed, 5 * kTry) << stream;
    EXPECT_EQ(c.in_use(), Route::SingleCopy);
  }
}

TEST(RouteChooser, AWinningTryIsFollowedSoonByATryBack) {
  RouteChooser c(kFirst);
  run(c, 1 + 2 * kTry, 7000, 8000);  // the first try lost: the next one 64 epochs on
  ASSERT_EQ(c.in_use(), Route::SingleCopy);
  run(c, 4 * kGap + kTry, 7000, 4000);  // it wins
  ASSERT_EQ(c.in_use(), Route::Stream);
  EXPECT_EQ(kGap + kTry - run(c, kGap + kTry, 7000, 4000), kTry);  // single copy tried after kFirstGap
}

TEST(RouteChooser, ATryNeverTimedIsGivenUpAndMadeAgainAfterTheGap) {
  RouteChooser c(kFirst);
  run(c, 1 + kTry, 7000, 4000);
  int tried = 0;
  while (tried < 100 && c.choose() == Route::Stream) ++tried;  // spoiled: never recorded
  EXPECT_EQ(tried, static_cast<int>(RouteChooser::kMaxTryEpochs));
  int again = 0;
  for (int i = 0; i < kGap; ++i) again += c.choose() == Route::Stream;
  EXPECT_GE(again, 1);
}

TEST(RouteChooser, TriesAtOnceWhenTheRouteInUseBecomesDearerThanTheOther) {
  RouteChooser c(kFirst);
  run(c, 1500, 7000, 4000);  // streaming in use, single copy tried 1024 epochs apart
  ASSERT_EQ(c.in_use(), Route::Stream);
  // Streaming turns slow (the ranks moved apart): once its window shows
  // it, single copy is tried at once and taken.
  run(c, RouteChooser::kTryMessages + 1 + kTry, 7000, 9000);
  EXPECT_EQ(c.in_use(), Route::SingleCopy);
  EXPECT_LE(run(c, 2 * kGap, 7000, 9000), kTry);  // then tried back now and then
}

TEST(RouteChooser, ATriedRouteIsJudgedByItsTryNotByItsOldEpochs) {
  RouteChooser c(kFirst);
  // Windows of 64 messages: one epoch is a whole try.
  const auto windows = [&c](int n, std::uint64_t single, std::uint64_t stream) {
    for (int i = 0; i < n; ++i) {
      const Route r = c.choose();
      c.record(r, 64 * kFirst, 64, 64 * (r == Route::Stream ? stream : single));
    }
  };
  windows(100, 7000, 4000);   // streaming in use, cheap
  windows(1100, 3000, 4000);  // single copy became cheaper: taken at its next try
  ASSERT_EQ(c.in_use(), Route::SingleCopy);
  windows(1100, 3000, 20000);  // streaming tried again: far dearer now
  EXPECT_GT(c.cost(Route::Stream), 5 * c.cost(Route::SingleCopy));
}

TEST(RouteChooser, OneSlowEpochDoesNotFlipTheChoice) {
  RouteChooser c(kFirst);
  run(c, kGap, 4000, 7000);  // streaming tried, single copy in use
  ASSERT_EQ(c.in_use(), Route::SingleCopy);
  const std::uint64_t before = c.cost(Route::SingleCopy);
  c.record(Route::SingleCopy, kFirst, 1, 60000);  // a preempted copy
  EXPECT_EQ(c.cost(Route::SingleCopy), before);
  EXPECT_EQ(c.choose(), Route::SingleCopy);
}

}  // namespace
}  // namespace shmpi::pml
