// How a rank waits for its peers, from its Config: spin, yield or sleep, and
// how it paces its polls (pml::WaitPolicy, followed by the pml's one wait
// loop: pml/wait_loop.hpp).
#pragma once

#include "pml/wait_loop.hpp"
#include "runtime/config.hpp"

namespace shmpi::runtime {

// `ranks_outnumber_cores`: the job has more ranks on this node than the
// node has cores, so a spinning waiter would starve the rank it waits for.
// `pause_ns`: what one pause instruction takes here (btl::measure_pause_ns();
// not needed when config.poll_gap_ns is 0).
pml::WaitPolicy wait_policy_for(const Config& config, bool ranks_outnumber_cores, double pause_ns) noexcept;

}  // namespace shmpi::runtime
