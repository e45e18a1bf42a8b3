// Unit tests of the fast-box line probe: the decision, the schedule that
// meets every pair once, and the probe itself between two threads (both ends
// agree on the line, which is left as an empty box), also through Transport.
#include "btl/box_probe.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "btl/transport.hpp"

namespace shmpi::btl {
namespace {

TEST(BoxProbe, FastestLineIsTheSmallestTimeAndTheFirstOfEqualOnes) {
  const std::vector<std::uint64_t> times = {900, 700, 800, 700, 1200};
  EXPECT_EQ(fastest_line(times), 1u);
  const std::vector<std::uint64_t> one = {5};
  EXPECT_EQ(fastest_line(one), 0u);
}

TEST(BoxProbe, ScheduleMeetsEveryPairOnceAndSymmetrically) {
  for (std::uint32_t n = 1; n <= 9; ++n) {
    std::set<std::pair<std::uint32_t, std::uint32_t>> met;
    for (std::uint32_t round = 0; round < probe_rounds(n); ++round) {
      for (std::uint32_t rank = 0; rank < n; ++rank) {
        const std::uint32_t partner = probe_partner(rank, round, n);
        if (partner == n) continue;  // sits this round out
        ASSERT_LT(partner, n);
        ASSERT_NE(partner, rank) << "n=" << n << " round=" << round;
        ASSERT_EQ(probe_partner(partner, round, n), rank) << "n=" << n << " round=" << round;
        if (rank < partner) {
          EXPECT_TRUE(met.insert({rank, partner}).second) << "pair met twice, n=" << n;
        }
      }
    }
    EXPECT_EQ(met.size(), static_cast<std::size_t>(n) * (n - 1) / 2) << "n=" << n;
  }
}

// Runs the probe between two threads over `lines`; returns both choices.
std::pair<std::uint32_t, std::uint32_t> probe_pair(std::span<FastBox> lines, const BoxProbeSettings& settings) {
  std::uint32_t follower = kBoxLines;
  std::thread peer([&] { follower = probe_box_lines(lines, false, settings); });
  const std::uint32_t leader = probe_box_lines(lines, true, settings);
  peer.join();
  return {leader, follower};
}

TEST(BoxProbe, BothEndsAgreeAndTheChosenLineIsAnEmptyBoxOfTheLowerRank) {
  for (int run = 0; run < 20; ++run) {
    std::vector<FastBox> lines(kBoxLines);
    std::memset(static_cast<void*>(lines.data()), 0, lines.size() * sizeof(FastBox));
    const auto [leader, follower] = probe_pair(lines, BoxProbeSettings{2, 16});
    ASSERT_LT(leader, kBoxLines);
    ASSERT_EQ(leader, follower) << "run " << run;
    EXPECT_EQ(box_detail::load(lines[leader].state), 0u);  // not pending, written by rank 0 (the leader)
    EXPECT_EQ(lines[leader].ring_before, 0u);
  }
}

TEST(BoxProbe, ALeaderPastItsBudgetStopsAndTheFollowerLearnsTheChoice) {
  for (const std::uint64_t budget : {std::uint64_t{0}, std::uint64_t{20'000}}) {
    std::vector<FastBox> lines(kBoxLines);
    std::memset(static_cast<void*>(lines.data()), 0, lines.size() * sizeof(FastBox));
    // No budget: stopped within line 0's first batch, which was not timed
    // to the end, so line 0. 20 us: stopped somewhere in the sweeps.
    const auto [leader, follower] = probe_pair(lines, BoxProbeSettings{3, 64, budget});
    ASSERT_EQ(leader, follower) << "budget " << budget;
    if (budget == 0) {
      EXPECT_EQ(leader, 0u);
    }
    EXPECT_EQ(box_detail::load(lines[leader].state), 0u);
  }
}

// Ranks 0 and 1 of a job, connected; each asks to probe or not.
struct Pair {
  Pair(bool a_probes, bool b_probes)
      : a(0, 2, Limits{4096, NumaPolicy::None, true, a_probes}),
        b(1, 2, Limits{4096, NumaPolicy::None, true, b_probes}) {
    a.connect(1, b.address());
    b.connect(0, a.address());
  }
  Transport a;
  Transport b;
};

TEST(BoxProbe, TransportsMoveBothEndsOfThePairToTheSameLine) {
  Pair pair(true, true);
  Transport& a = pair.a;
  Transport& b = pair.b;
  const FastBox* first = a.box_line(1);
  std::uint32_t probed_b = 0;
  std::thread peer([&] { probed_b = b.choose_box_lines(); });
  const std::uint32_t probed_a = a.choose_box_lines();
  peer.join();
  EXPECT_EQ(probed_a, 1u);
  EXPECT_EQ(probed_b, 1u);
  const FastBox* chosen = a.box_line(1);
  EXPECT_GE(chosen, first);
  EXPECT_LT(chosen, first + kBoxLines);
  EXPECT_EQ(a.choose_box_lines(), 0u);  // once: a second call moves nothing
  EXPECT_EQ(a.box_line(1), chosen);

  // b reads the line a writes: a small record goes through the chosen line
  // and arrives, and b's answer is written over it.
  const char hello[] = "boxed";
  ASSERT_TRUE(a.writer(1).try_push({}, std::as_bytes(std::span(hello))));
  a.notify(1);
  EXPECT_NE(box_detail::load(chosen->state) & box_detail::kPending, 0u);
  int got = 0;
  b.poll([&](std::uint32_t source, std::span<const std::byte> body) {
    got += source == 0 && body.size() == sizeof hello && std::memcmp(body.data(), hello, sizeof hello) == 0;
  });
  EXPECT_EQ(got, 1);
  ASSERT_TRUE(b.writer(0).try_push({}, std::as_bytes(std::span(hello))));
  EXPECT_EQ(box_detail::writer_of(box_detail::load(chosen->state)), 1u);
  EXPECT_NE(box_detail::load(chosen->state) & box_detail::kPending, 0u);
}

TEST(BoxProbe, APairProbesOnlyWhenBothRanksDo) {
  Pair pair(true, false);
  const FastBox* first = pair.a.box_line(1);
  EXPECT_EQ(pair.a.choose_box_lines(), 0u);  // would spin forever if it probed alone
  EXPECT_EQ(pair.b.choose_box_lines(), 0u);
  EXPECT_EQ(pair.a.box_line(1), first);
}

}  // namespace
}  // namespace shmpi::btl
