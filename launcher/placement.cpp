#include "placement.hpp"

#include <algorithm>

namespace shmpi::launcher {

std::vector<int> mapping_order(const Topology& topology, MapBy map_by) {
  if (map_by == MapBy::Core || topology.nodes.size() < 2) return topology.cpus;
  std::vector<int> order;
  for (std::size_t k = 0; order.size() < topology.cpus.size(); ++k)
    for (const NumaNode& node : topology.nodes)
      if (k < node.cpus.size()) order.push_back(node.cpus[k]);
  return order;
}

namespace {

RankBinding bind_rank(const Topology& topology, int cpu, BindTo bind_to) {
  const NumaNode& node = topology.node_of(cpu);
  if (bind_to == BindTo::Numa) return {node.cpus, node.id};
  return {{cpu}, node.id};
}

}  // namespace

Placement plan_placement(const Topology& topology, int ranks, BindTo bind_to, MapBy map_by,
                         std::span<const int> owned) {
  Placement plan;
  auto n = static_cast<std::size_t>(ranks);
  plan.oversubscribed = n > topology.cpus.size();
  plan.ranks.resize(n);
  if (bind_to == BindTo::Auto) {
    if (plan.oversubscribed) return plan;
    if (owned.size() < n) {  // another job holds cores we would need: share, unbound
      plan.shared_cores = true;
      return plan;
    }
    bind_to = BindTo::Core;
  }
  if (bind_to == BindTo::None) return plan;
  // Explicit binding (or Auto that fits): the CPUs we own first, then the rest.
  std::vector<int> order(owned.begin(), owned.end());
  for (int cpu : mapping_order(topology, map_by))
    if (std::find(owned.begin(), owned.end(), cpu) == owned.end()) order.push_back(cpu);
  plan.shared_cores = owned.size() < std::min(n, topology.cpus.size());
  for (std::size_t r = 0; r < n; ++r) plan.ranks[r] = bind_rank(topology, order[r % order.size()], bind_to);
  return plan;
}

Placement place_ranks(const Topology& topology, int ranks, BindTo bind_to, MapBy map_by, CoreLocks& locks) {
  std::vector<int> owned;
  bool oversubscribed = static_cast<std::size_t>(ranks) > topology.cpus.size();
  if (bind_to != BindTo::None && !(bind_to == BindTo::Auto && oversubscribed))
    owned = locks.acquire(mapping_order(topology, map_by), static_cast<std::size_t>(ranks));
  Placement plan = plan_placement(topology, ranks, bind_to, map_by, owned);
  std::vector<int> used;
  for (std::size_t r = 0; r < plan.ranks.size() && r < owned.size(); ++r)
    if (!plan.ranks[r].cpus.empty()) used.push_back(owned[r]);
  locks.release_except(used);
  return plan;
}

}  // namespace shmpi::launcher
