// LaunchPlan: everything decided and checked before a single process is
// started. prepare_launch() throws LaunchError (exit 2, one line) for any
// bad input, so a failing plan leaves nothing behind.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core_locks.hpp"
#include "options.hpp"
#include "placement.hpp"
#include "preflight.hpp"
#include "rank_env.hpp"
#include "topology.hpp"

namespace shmpi::launcher {

struct LaunchPlan {
  Options options;
  std::string program_path;      // resolved like execvp
  int ranks = 0;
  Topology topology;
  CoreLocks core_locks;          // held for the job's lifetime
  Placement placement;
  Environment rank_env;          // job-wide; PMIx and the session add per-job variables
  std::vector<RankFiles> files;  // --output-filename, else empty
};

// `environment` is shmpirun's own ("NAME=value" entries).
LaunchPlan prepare_launch(Options options, std::span<const std::string> environment);

// The --report-bindings line of one rank (Open MPI's shape):
// "[host:pid] MCW rank 1 bound to CPU 1 (NUMA node 0): [./B]".
std::string binding_line(const std::string& prefix, int rank, const RankBinding& binding,
                         const Topology& topology);

}  // namespace shmpi::launcher
