// The CPUs shmpirun may use (its own affinity mask) and their NUMA nodes,
// read from sched_getaffinity and /sys. Parsing and formatting of CPU lists
// ("0-3,8") are pure and unit-tested.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shmpi::launcher {

struct NumaNode {
  int id = 0;
  std::vector<int> cpus;  // allowed CPUs of the node, in mapping order
};

struct Topology {
  // Allowed logical CPUs, one hardware thread of every core before the
  // second thread of any core, so consecutive ranks land on distinct cores.
  std::vector<int> cpus;
  std::vector<NumaNode> nodes;  // at least one

  // The node holding `cpu` (nodes[0] when unknown).
  const NumaNode& node_of(int cpu) const;
};

Topology read_topology();

// "0-3,8" -> {0,1,2,3,8}; empty on malformed text.
std::vector<int> parse_cpu_list(std::string_view text);
// {8,0,1,2,3} -> "0-3,8"
std::string format_cpu_list(std::span<const int> cpus);

}  // namespace shmpi::launcher
