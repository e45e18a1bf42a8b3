#include "runtime/wait_policy.hpp"

#include <cstdint>

#include "btl/between_polls.hpp"

namespace shmpi::runtime {

pml::WaitPolicy wait_policy_for(const Config& config, bool ranks_outnumber_cores, double pause_ns) noexcept {
  pml::WaitPolicy policy;
  policy.pauses_between_polls = btl::pauses_for(config.poll_gap_ns, pause_ns);
  if (config.wait_policy == WaitMode::Spin) {
    policy.spins_before_yield = UINT32_MAX;
    policy.yields_before_sleep = 0;
  } else if (config.wait_policy == WaitMode::Yield || ranks_outnumber_cores) {
    policy.spins_before_yield = 0;  // yield at once
    policy.yields_before_sleep = 64;
    policy.yield_ns = 200'000;
    // Not for yield alone (shmpirun asks for it when another job holds
    // cores we would bind to): two ranks on two idle cores answer each
    // other within the first rounds (osu_bcast 2 ranks 4 B: 0.16 us
    // polling first, 0.5 us yielding at once).
    policy.long_at_once = ranks_outnumber_cores;
  } else {
    // Spin (about 50 us), then yield; after a few milliseconds without any
    // progress, sleep on the doorbell until a peer sends.
    policy.spins_before_yield = 1u << 14;
    policy.yields_before_sleep = 4096;
    policy.yield_ns = 2'000'000;
  }
  if (config.sleep_at_once) {
    // Test hook: a missed wake-up costs a second per sleep, so the test
    // that provokes one (net_cases.cmake, mixed_wake) hangs instead of slowing.
    policy.spins_before_yield = 0;
    policy.yields_before_sleep = 1;
    policy.yield_ns = 0;
    policy.sleep_ns = 1'000'000'000;
  }
  return policy;
}

}  // namespace shmpi::runtime
