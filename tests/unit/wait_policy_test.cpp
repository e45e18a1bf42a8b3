// runtime/wait_policy: the Config's wait_policy and poll_gap_ns become the
// pml's WaitPolicy; Config::from_environment() reads poll_gap_ns; a job
// whose ranks outnumber cores pipelines replies further (runtime/config.hpp).
#include "runtime/wait_policy.hpp"

#include <stdlib.h>

#include <gtest/gtest.h>
#include <shmpi/tunables.hpp>

#include <cstdint>

namespace shmpi::runtime {
namespace {

Config config_with(WaitMode mode, std::uint32_t gap_ns) {
  Config c;
  c.wait_policy = mode;
  c.poll_gap_ns = gap_ns;
  return c;
}

TEST(WaitPolicy, AutoSpinsThenYieldsThenSleeps) {
  pml::WaitPolicy p = wait_policy_for(config_with(WaitMode::Auto, 30), false, 10.0);
  EXPECT_EQ(p.spins_before_yield, 1u << 14);
  EXPECT_EQ(p.yields_before_sleep, 4096u);
  EXPECT_EQ(p.yield_ns, 2'000'000u);  // or 2 ms of yielding, on a loaded node
  EXPECT_EQ(p.pauses_between_polls, 3u);  // 30 ns of 10-ns pauses
  EXPECT_FALSE(p.long_at_once);
}

TEST(WaitPolicy, AutoYieldsAtOnceWhenRanksOutnumberCores) {
  pml::WaitPolicy p = wait_policy_for(config_with(WaitMode::Auto, 0), true, 10.0);
  EXPECT_EQ(p.spins_before_yield, 0u);
  EXPECT_EQ(p.yields_before_sleep, 64u);
  EXPECT_EQ(p.yield_ns, 200'000u);
  EXPECT_EQ(p.pauses_between_polls, 0u);
  EXPECT_TRUE(p.long_at_once);  // no 256 rounds of polling first
}

TEST(WaitPolicy, SpinNeverYieldsAndYieldAlwaysDoes) {
  pml::WaitPolicy spin = wait_policy_for(config_with(WaitMode::Spin, 70), true, 10.0);
  EXPECT_EQ(spin.spins_before_yield, UINT32_MAX);
  EXPECT_EQ(spin.yields_before_sleep, 0u);
  EXPECT_EQ(spin.pauses_between_polls, 7u);
  pml::WaitPolicy yield = wait_policy_for(config_with(WaitMode::Yield, 30), false, 40.0);
  EXPECT_EQ(yield.spins_before_yield, 0u);
  EXPECT_EQ(yield.pauses_between_polls, 1u);  // a gap shorter than a pause still pauses once
  EXPECT_FALSE(yield.long_at_once);  // cores shared with another job may still be idle
  EXPECT_FALSE(spin.long_at_once);
}

TEST(WaitPolicy, ThePollGapComesFromTheEnvironment) {
  ::setenv("SHMPI_POLL_GAP_NS", "45", 1);
  EXPECT_EQ(Config::from_environment().poll_gap_ns, 45u);
  ::setenv("SHMPI_POLL_GAP_NS", "5x", 1);
  try {
    (void)Config::from_environment();
    ADD_FAILURE() << "5x accepted";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "invalid SHMPI_POLL_GAP_NS: poll_gap_ns=5x: not a whole number");
  }
  ::unsetenv("SHMPI_POLL_GAP_NS");
  ::setenv("SHMPI_PROFILE", "intel", 1);  // the default comes from the profile
  EXPECT_EQ(Config::from_environment().poll_gap_ns, 40u);
  ::setenv("SHMPI_PROFILE", "general", 1);
  EXPECT_EQ(Config::from_environment().poll_gap_ns, 0u);
  ::unsetenv("SHMPI_PROFILE");
}

// Ranks that outnumber cores pipeline replies up to 128 KiB, above any
// profile's lower limit, and split no single copy; a limit the user chose
// stays as it is.
TEST(OversubscribedConfig, RepliesPipelineUpTo128KiBAndNoSplitUnlessTheUserChose) {
  ::setenv("SHMPI_PROFILE", "general", 1);
  const Config general = Config::from_environment();
  EXPECT_EQ(general.reply_pipeline_limit, 0u);
  EXPECT_FALSE(general.reply_pipeline_limit_chosen);
  EXPECT_NE(general.split_threshold, 0u);
  EXPECT_FALSE(general.split_threshold_chosen);
  EXPECT_EQ(general.when_ranks_outnumber_cores().reply_pipeline_limit, 131072u);
  EXPECT_EQ(general.when_ranks_outnumber_cores().split_threshold, 0u);
  ::setenv("SHMPI_PROFILE", "intel", 1);
  EXPECT_EQ(Config::from_environment().when_ranks_outnumber_cores().reply_pipeline_limit, 131072u);
  ::setenv("SHMPI_REPLY_PIPELINE_LIMIT", "0", 1);
  ::setenv("SHMPI_SPLIT_THRESHOLD", "65536", 1);
  const Config chosen = Config::from_environment();
  EXPECT_TRUE(chosen.reply_pipeline_limit_chosen);
  EXPECT_TRUE(chosen.split_threshold_chosen);
  EXPECT_EQ(chosen.when_ranks_outnumber_cores().reply_pipeline_limit, 0u);
  EXPECT_EQ(chosen.when_ranks_outnumber_cores().split_threshold, 65536u);
  ::unsetenv("SHMPI_REPLY_PIPELINE_LIMIT");
  ::unsetenv("SHMPI_SPLIT_THRESHOLD");
  ::unsetenv("SHMPI_PROFILE");
  Config larger = general;
  larger.reply_pipeline_limit = 1 << 20;  // a profile's larger limit is kept
  EXPECT_EQ(larger.when_ranks_outnumber_cores().reply_pipeline_limit, 1u << 20);
}

}  // namespace
}  // namespace shmpi::runtime
