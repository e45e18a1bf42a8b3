// The segment budget (btl/segment_budget.hpp) with every profile's defaults:
// small jobs keep exactly ring_size, rings only shrink as ranks grow, and
// every job of up to 1024 ranks fits the budget.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "btl/segment_budget.hpp"
#include "shmpi/job_contract.hpp"
#include "shmpi/tunables.hpp"

namespace shmpi::btl {
namespace {

struct Defaults {
  std::string profile;
  std::size_t ring_size;
  std::uint64_t budget;
  std::size_t eager_limit;
};

// The defaults of every built-in profile.
std::vector<Defaults> profile_defaults() {
  std::vector<Defaults> all;
  for (const contract::BuiltinProfileText& builtin : contract::kBuiltinProfiles) {
    const std::string name = std::string(builtin.file).substr(0, std::string(builtin.file).find('.'));
    const contract::TunableDefaults d = contract::TunableDefaults::choose({name, "test ", ""}, contract::CpuIdentity{});
    EXPECT_EQ(d.error(), "");
    auto bytes = [&](const char* tunable) {
      return *contract::parse_bytes(d.default_of(*contract::find_tunable(tunable)));
    };
    all.push_back({name, bytes("ring_size"), bytes("segment_budget"), bytes("eager_limit")});
  }
  return all;
}

TEST(SegmentBudget, SmallJobsKeepRingSize) {
  for (const Defaults& d : profile_defaults())
    for (std::uint32_t n = 1; n <= 127; ++n)
      ASSERT_EQ(budget_ring_size(n, d.ring_size, d.budget), d.ring_size) << d.profile << ", " << n << " ranks";
}

TEST(SegmentBudget, RingShrinksMonotonicallyWithRanks) {
  for (const Defaults& d : profile_defaults()) {
    std::size_t previous = d.ring_size;
    for (std::uint32_t n = 1; n <= contract::kMaxRanks; ++n) {
      const std::size_t ring = budget_ring_size(n, d.ring_size, d.budget);
      ASSERT_LE(ring, previous) << d.profile << ", " << n << " ranks";
      ASSERT_EQ(ring & (ring - 1), 0u) << "a power of two";
      previous = ring;
    }
    EXPECT_LT(previous, d.ring_size) << d.profile << ": the largest job gets smaller rings";
  }
}

TEST(SegmentBudget, EveryJobUpTo1024RanksFitsTheBudget) {
  for (const Defaults& d : profile_defaults()) {
    EXPECT_EQ(d.budget, 16u << 20) << d.profile << ": the budget docs/tunables/segment_budget.md states";
    for (std::uint32_t n = 1; n <= 1024; ++n) {
      ASSERT_LE(budget_segment_bytes(n, d.ring_size, d.budget), d.budget) << d.profile << ", " << n << " ranks";
      // The eager limit that goes with the ring still fits a ring record.
      const std::size_t ring = budget_ring_size(n, d.ring_size, d.budget);
      ASSERT_LE(std::min(d.eager_limit, eager_limit_for_ring(ring)) + 64, ring / 4);
    }
  }
}

TEST(SegmentBudget, KnownSizes) {
  constexpr std::size_t kRing = 64 * 1024;
  constexpr std::uint64_t kBudget = 16 << 20;
  static_assert(budget_ring_size(2, kRing, kBudget) == kRing);
  EXPECT_EQ(budget_ring_size(253, kRing, kBudget), kRing);
  EXPECT_EQ(budget_ring_size(254, kRing, kBudget), kRing / 2);
  EXPECT_EQ(budget_ring_size(384, kRing, kBudget), kRing / 2);
  EXPECT_EQ(budget_ring_size(1024, kRing, kBudget), 8192u);
  EXPECT_EQ(budget_segment_bytes(64, kRing, kBudget), 4268544u);  // as shmpi_info prints it
}

TEST(SegmentBudget, ATinyBudgetStopsAtOnePage) {
  EXPECT_EQ(budget_ring_size(1024, 64 * 1024, 1 << 20), kSmallestBudgetRing);
  EXPECT_GT(budget_segment_bytes(1024, 64 * 1024, 1 << 20), 1u << 20);  // the floor, not the budget
  EXPECT_EQ(budget_ring_size(8, 4096, 1 << 20), 4096u);
}

TEST(SegmentBudget, EagerLimitIsAQuarterOfTheRingLessHeaders) {
  EXPECT_EQ(eager_limit_for_ring(65536), 16320u);
  EXPECT_EQ(eager_limit_for_ring(4096), 960u);
}

}  // namespace
}  // namespace shmpi::btl
