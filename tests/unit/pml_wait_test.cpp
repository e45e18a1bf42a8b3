// Pml::wait_until, the one loop a rank waits in: it progresses until done,
// and tells its watcher about a wait only once that wait has lasted.
#include <gtest/gtest.h>

#include <cstdint>

#include "pml/pml.hpp"
#include "tests/unit/pml_job.hpp"

namespace shmpi::pml {
namespace {
using namespace shmpi::pml::test_job;

struct CountingWatch : Unwatched {
  int started = 0;
  int ended = 0;
  void long_wait() noexcept {
    EXPECT_EQ(started, ended);  // never twice without an end between
    ++started;
  }
  void long_wait_over() noexcept { ++ended; }
};

// done() that turns true on its `calls`-th call.
struct TrueAfter {
  std::uint32_t calls;
  std::uint32_t seen = 0;
  bool operator()() noexcept { return ++seen >= calls; }
};

TEST(PmlWait, AShortWaitTellsTheWatcherNothing) {
  TwoRanks job;
  CountingWatch watch;
  TrueAfter done{kPollsBeforeLongWait};
  job.p0->wait_until(done, watch);
  EXPECT_EQ(done.seen, kPollsBeforeLongWait);
  EXPECT_EQ(watch.started, 0);
  EXPECT_EQ(watch.ended, 0);
}

TEST(PmlWait, ALongWaitIsReportedOnceAndItsEndToo) {
  TwoRanks job;
  CountingWatch watch;
  TrueAfter done{kPollsBeforeLongWait + 100};
  job.p0->wait_until(done, watch);
  EXPECT_EQ(done.seen, kPollsBeforeLongWait + 100);
  EXPECT_EQ(watch.started, 1);
  EXPECT_EQ(watch.ended, 1);
}

// A policy that yields at once and then sleeps on the doorbell (a
// millisecond at most each time) still ends when done() turns true.
TEST(PmlWait, AWaitThatYieldsAndSleepsStillEnds) {
  btl::Transport t(0, 1, btl::Limits{});
  Pml p(t, default_limits(), WaitPolicy{0, 2, 1'000'000, 0});
  CountingWatch watch;
  TrueAfter done{kPollsBeforeLongWait + 20};
  p.wait_until(done, watch);
  EXPECT_EQ(watch.started, 1);
  EXPECT_EQ(watch.ended, 1);
}

// Ranks that outnumber cores: a wait whose first round finds nothing is
// long at once (and yields), rather than after kPollsBeforeLongWait rounds.
TEST(PmlWait, AWaitLongAtOnceIsReportedAfterItsFirstEmptyRound) {
  btl::Transport t(0, 1, btl::Limits{});
  WaitPolicy policy{0, 64, 200'000, 1'000'000};
  policy.long_at_once = true;
  Pml p(t, default_limits(), policy);
  CountingWatch watch;
  TrueAfter done{3};
  p.wait_until(done, watch);
  EXPECT_EQ(done.seen, 3u);
  EXPECT_EQ(watch.started, 1);
  EXPECT_EQ(watch.ended, 1);
}

// The loop progresses: a message already in the ring completes the receive.
TEST(PmlWait, WaitingProgressesUntilTheRequestCompletes) {
  TwoRanks job;
  int value = 42, got = 0;
  Request send, recv;
  job.p0->start_send(send, 1, Envelope{kCtx, 0, 9}, &value, sizeof value);
  job.p1->start_recv(recv, Envelope{kCtx, 0, 9}, &got, sizeof got);
  CountingWatch watch;
  job.p1->wait_until([&recv] { return recv.complete; }, watch);
  EXPECT_EQ(got, 42);
  EXPECT_EQ(recv.status.bytes, sizeof value);
  EXPECT_EQ(watch.started, 0);
}

}  // namespace
}  // namespace shmpi::pml
