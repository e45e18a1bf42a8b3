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

// Runs `n` epochs of one message of `bytes`, each timed at once with the
// cost cost(route, i) (i counts the epochs of this call); returns how many
// streamed.
int run(RouteChooser& c, std::uint64_t bytes, int n, const std::function<std::uint64_t(Route, int)>& cost) {
  int streamed = 0;
  for (int i = 0; i < n; ++i) {
    const Route r = c.choose(bytes);
    streamed += r == Route::Stream;
    c.record(r, bytes, bytes, 1, cost(r, i));
  }
  return streamed;
}

int run(RouteChooser& c, std::uint64_t bytes, int n, std::uint64_t single, std::uint64_t stream) {
  return run(c, bytes, n, [=](Route r, int) { return r == Route::Stream ? stream : single; });
}

TEST(RouteChooser, SizesOutsideTheWindowAlwaysTakeSingleCopy) {
  RouteChooser c(kFirst);
  for (std::uint64_t bytes : {kFirst - 1, 4 * kFirst, 64 * kFirst}) {
    EXPECT_FALSE(c.chooses(bytes));
    for (int i = 0; i < 300; ++i) EXPECT_EQ(c.choose(bytes), Route::SingleCopy);
    c.record(Route::Stream, bytes, bytes, 1, 1);
    EXPECT_EQ(c.cost(Route::Stream, bytes), 0U);
  }
  RouteChooser off(0);
  EXPECT_FALSE(off.enabled());
  for (int i = 0; i < 300; ++i) EXPECT_EQ(off.choose(kFirst), Route::SingleCopy);
}

TEST(RouteChooser, TheFirstEpochIsNotCountedAndATryTimesSeveralMessages) {
  RouteChooser c(kFirst);
  EXPECT_EQ(c.choose(kFirst), Route::SingleCopy);
  c.record(Route::SingleCopy, kFirst, kFirst, 1, 1);  // cold, whatever it cost: not counted
  for (int i = 0; i < kTry; ++i) {                     // kTryMessages timed on the route in use
    EXPECT_EQ(c.choose(kFirst), Route::SingleCopy);
    c.record(Route::SingleCopy, kFirst, kFirst, 1, 7000);
  }
  for (int i = 0; i < kTry; ++i) {  // the try
    ASSERT_EQ(c.choose(kFirst), Route::Stream) << "try epoch " << i;
    EXPECT_EQ(c.in_use(kFirst), Route::SingleCopy);  // undecided until the try is over
    c.record(Route::Stream, kFirst, kFirst, 1, i == 0 ? 20000 : 4000);  // its first one cold
  }
  EXPECT_EQ(c.in_use(kFirst), Route::Stream);
  EXPECT_EQ(c.choose(kFirst), Route::Stream);
}

TEST(RouteChooser, AnEpochIsChargedPerByteAndOneOfManyMessagesIsAWholeTry) {
  RouteChooser c(kFirst);
  const auto window = [&c](Route expected, std::uint64_t per_message) {
    EXPECT_EQ(c.choose(kFirst), expected);
    c.record(expected, kFirst, 64 * kFirst, 64, 64 * per_message);  // 64 messages in one epoch
  };
  window(Route::SingleCopy, 7000);  // not counted
  window(Route::SingleCopy, 7000);
  window(Route::Stream, 5000);  // the try: one epoch is enough
  EXPECT_EQ(c.in_use(kFirst), Route::Stream);
  EXPECT_LT(c.cost(Route::Stream, kFirst), c.cost(Route::SingleCopy, kFirst));
}

TEST(RouteChooser, ARouteThatLosesClearlyIsTriedLessAndLessOften) {
  RouteChooser c(kFirst);
  const int single = 2000 - run(c, kFirst, 2000, 7000, 4000);
  // 5 epochs before the first try (which switches), then tries of 4
  // epochs 16, 64, 256, 1024 epochs apart; with a fixed gap, some 400.
  EXPECT_GE(single, 5 + 3 * kTry);
  EXPECT_LE(single, 5 + 5 * kTry);
  EXPECT_EQ(c.in_use(kFirst), Route::Stream);
}

TEST(RouteChooser, ARouteThatComesCloseIsTriedEveryGap) {
  RouteChooser c(kFirst);
  const int n = 20 * (kGap + kTry);
  const int streamed = run(c, kFirst, n, 7000, 7500);  // within 1.25x
  EXPECT_GE(streamed, 18 * kTry);
  EXPECT_LE(streamed, 21 * kTry);
  EXPECT_EQ(c.in_use(kFirst), Route::SingleCopy);
}

TEST(RouteChooser, ATryNeverTimedIsGivenUpAndMadeAgainAfterTheGap) {
  RouteChooser c(kFirst);
  run(c, kFirst, 1 + kTry, 7000, 4000);
  int tried = 0;
  while (tried < 100 && c.choose(kFirst) == Route::Stream) ++tried;  // spoiled: never recorded
  EXPECT_EQ(tried, static_cast<int>(RouteChooser::kMaxTryEpochs));
  int again = 0;
  for (int i = 0; i < kGap; ++i) again += c.choose(kFirst) == Route::Stream;
  EXPECT_GE(again, 1);
}

TEST(RouteChooser, TriesAtOnceWhenTheRouteInUseBecomesDearerThanTheOther) {
  RouteChooser c(kFirst);
  run(c, kFirst, 1500, 7000, 4000);  // streaming in use, single copy tried 1024 epochs apart
  ASSERT_EQ(c.in_use(kFirst), Route::Stream);
  // Streaming turns slow (the ranks moved apart): once its window shows
  // it, single copy is tried at once and taken.
  run(c, kFirst, RouteChooser::kTryMessages + 1 + kTry, 7000, 9000);
  EXPECT_EQ(c.in_use(kFirst), Route::SingleCopy);
  EXPECT_LE(run(c, kFirst, 2 * kGap, 7000, 9000), kTry);  // then tried back now and then
}

TEST(RouteChooser, ATriedRouteIsJudgedByItsTryNotByItsOldEpochs) {
  RouteChooser c(kFirst);
  // Windows of 64 messages: one epoch is a whole try.
  const auto windows = [&c](int n, std::uint64_t single, std::uint64_t stream) {
    for (int i = 0; i < n; ++i) {
      const Route r = c.choose(kFirst);
      c.record(r, kFirst, 64 * kFirst, 64, 64 * (r == Route::Stream ? stream : single));
    }
  };
  windows(100, 7000, 4000);   // streaming in use, cheap
  windows(1100, 3000, 4000);  // single copy became cheaper: taken at its next try
  ASSERT_EQ(c.in_use(kFirst), Route::SingleCopy);
  windows(1100, 3000, 20000);  // streaming tried again: far dearer now
  EXPECT_GT(c.cost(Route::Stream, kFirst), 5 * c.cost(Route::SingleCopy, kFirst));
}

TEST(RouteChooser, OneSlowEpochDoesNotFlipTheChoice) {
  RouteChooser c(kFirst);
  run(c, kFirst, kGap, 4000, 7000);  // streaming tried, single copy in use
  ASSERT_EQ(c.in_use(kFirst), Route::SingleCopy);
  const std::uint64_t before = c.cost(Route::SingleCopy, kFirst);
  c.record(Route::SingleCopy, kFirst, kFirst, 1, 60000);  // a preempted copy
  EXPECT_EQ(c.cost(Route::SingleCopy, kFirst), before);
  EXPECT_EQ(c.choose(kFirst), Route::SingleCopy);
}

TEST(RouteChooser, SizeBucketsLearnApart) {
  RouteChooser c(kFirst);
  EXPECT_TRUE(c.same_bucket(kFirst, 2 * kFirst - 1));
  EXPECT_FALSE(c.same_bucket(kFirst, 2 * kFirst));
  run(c, kFirst, 2 * kGap, 7000, 4000);        // 128 KiB: streaming cheaper
  run(c, 2 * kFirst, 2 * kGap, 10000, 16000);  // 256 KiB: single copy cheaper
  EXPECT_EQ(c.in_use(kFirst), Route::Stream);
  EXPECT_EQ(c.in_use(2 * kFirst), Route::SingleCopy);
}

}  // namespace
}  // namespace shmpi::pml
