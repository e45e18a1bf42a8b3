// Where each rank runs: mapping (which CPU a rank takes) and binding (which
// CPUs it may use). plan_placement() is pure and unit-tested; place_ranks()
// adds the cross-job CoreLocks.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core_locks.hpp"
#include "options.hpp"
#include "topology.hpp"

namespace shmpi::launcher {

struct RankBinding {
  std::vector<int> cpus;  // empty: not bound
  int numa = -1;          // node of the binding, -1 when not bound
};

struct Placement {
  std::vector<RankBinding> ranks;
  bool oversubscribed = false;  // more ranks than CPUs
  bool shared_cores = false;    // not bound because another job holds the cores
};

// Every allowed CPU in the order ranks take them: by core, or round-robin
// over NUMA nodes.
std::vector<int> mapping_order(const Topology& topology, MapBy map_by);

// `owned`: CPUs this job holds (CoreLocks), in the order acquired.
Placement plan_placement(const Topology& topology, int ranks, BindTo bind_to, MapBy map_by,
                         std::span<const int> owned);

// Plans with `locks`, and keeps exactly the locks of CPUs the plan uses.
Placement place_ranks(const Topology& topology, int ranks, BindTo bind_to, MapBy map_by, CoreLocks& locks);

}  // namespace shmpi::launcher
