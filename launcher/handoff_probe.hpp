// How long a cache line takes to pass between two CPUs: the fact that
// decides whether a pair streams faster through a ring (two copies, both
// in a cache the cores share) or by single copy. A VM's virtual topology
// does not tell it (two vCPUs may be hardware threads of one core now and
// on different dies a minute later), so shmpirun measures it at start-up
// between the CPUs of ranks 0 and 1; profiles match on it (handoff_ns>=N).
#pragma once

#include <optional>
#include <shmpi/cpu_identity.hpp>
#include <span>
#include <string>

namespace shmpi::launcher {

// The one-way hand-off in ns (at least 1), timed by two processes pinned
// to `cpu_a` and `cpu_b` ping-ponging one line in a shared page; the median
// of a few short batches, so a preempted batch does not count. About 1 ms (at most about
// 50 ms on busy CPUs). nullopt when a process cannot be pinned, or not one
// batch completes in 10 s.
std::optional<unsigned> measure_handoff_ns(int cpu_a, int cpu_b);

// This CPU as the profile rule sees it for a job whose ranks 0 and 1 run
// on `cpu_a` and `cpu_b` (-1: not bound to one CPU): with the hand-off that
// SHMPI_MEASURED_HANDOFF_NS in `environment` states (0: none), else the one
// measured between the two, unless `profile_named` (a named profile wins
// anyway). Throws a usage line when the variable is not a number.
contract::CpuIdentity cpu_for_job(std::span<const std::string> environment, bool profile_named, int cpu_a, int cpu_b);

}  // namespace shmpi::launcher
