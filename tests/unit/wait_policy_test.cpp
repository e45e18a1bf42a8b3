// runtime/wait_policy: the Config's wait_policy and poll_pauses become the
// pml's WaitPolicy; Config::from_environment() reads poll_pauses.
#include "runtime/wait_policy.hpp"

#include <stdlib.h>

#include <gtest/gtest.h>
#include <shmpi/tunables.hpp>

#include <cstdint>

namespace shmpi::runtime {
namespace {

Config config_with(WaitMode mode, std::uint32_t pauses) {
  Config c;
  c.wait_policy = mode;
  c.poll_pauses = pauses;
  return c;
}

TEST(WaitPolicy, AutoSpinsThenYieldsThenSleeps) {
  pml::WaitPolicy p = wait_policy_for(config_with(WaitMode::Auto, 3), false);
  EXPECT_EQ(p.spins_before_yield, 1u << 14);
  EXPECT_EQ(p.yields_before_sleep, 4096u);
  EXPECT_EQ(p.pauses_between_polls, 3u);
}

TEST(WaitPolicy, AutoYieldsAtOnceWhenRanksOutnumberCores) {
  pml::WaitPolicy p = wait_policy_for(config_with(WaitMode::Auto, 0), true);
  EXPECT_EQ(p.spins_before_yield, 0u);
  EXPECT_EQ(p.yields_before_sleep, 64u);
  EXPECT_EQ(p.pauses_between_polls, 0u);
}

TEST(WaitPolicy, SpinNeverYieldsAndYieldAlwaysDoes) {
  pml::WaitPolicy spin = wait_policy_for(config_with(WaitMode::Spin, 7), true);
  EXPECT_EQ(spin.spins_before_yield, UINT32_MAX);
  EXPECT_EQ(spin.yields_before_sleep, 0u);
  EXPECT_EQ(spin.pauses_between_polls, 7u);
  pml::WaitPolicy yield = wait_policy_for(config_with(WaitMode::Yield, 1), false);
  EXPECT_EQ(yield.spins_before_yield, 0u);
  EXPECT_EQ(yield.pauses_between_polls, 1u);
}

TEST(WaitPolicy, PollPausesComeFromTheEnvironment) {
  ::setenv("SHMPI_POLL_PAUSES", "5", 1);
  EXPECT_EQ(Config::from_environment().poll_pauses, 5u);
  ::setenv("SHMPI_POLL_PAUSES", "5x", 1);
  try {
    (void)Config::from_environment();
    ADD_FAILURE() << "5x accepted";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "invalid SHMPI_POLL_PAUSES: poll_pauses=5x: not a whole number");
  }
  ::unsetenv("SHMPI_POLL_PAUSES");
  EXPECT_EQ(Config::from_environment().poll_pauses, contract::intel_cpu() ? 3u : 0u);
}

}  // namespace
}  // namespace shmpi::runtime
