#include "topology.hpp"

#include <sched.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace shmpi::launcher {
namespace {

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::vector<int> allowed_cpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  if (cpus.empty()) cpus.push_back(0);
  return cpus;
}

// Orders `cpus` so that the k-th hardware thread of every core comes before
// the (k+1)-th thread of any core (thread_siblings_list in /sys).
std::vector<int> spread_over_cores(const std::vector<int>& cpus) {
  std::vector<std::pair<int, int>> keyed;  // (thread index within its core, cpu)
  for (int cpu : cpus) {
    auto siblings = parse_cpu_list(read_first_line(
        "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/thread_siblings_list"));
    auto it = std::find(siblings.begin(), siblings.end(), cpu);
    int index = it == siblings.end() ? 0 : static_cast<int>(it - siblings.begin());
    keyed.emplace_back(index, cpu);
  }
  std::stable_sort(keyed.begin(), keyed.end());
  std::vector<int> ordered;
  for (auto [index, cpu] : keyed) ordered.push_back(cpu);
  return ordered;
}

std::vector<NumaNode> read_nodes(const std::vector<int>& ordered) {
  std::map<int, NumaNode> nodes;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/sys/devices/system/node", ec)) {
    std::string name = entry.path().filename().native();
    int id = 0;
    if (!name.starts_with("node")) continue;
    auto [end, err] = std::from_chars(name.data() + 4, name.data() + name.size(), id);
    if (err != std::errc{} || end != name.data() + name.size()) continue;
    auto list = parse_cpu_list(read_first_line(entry.path().native() + "/cpulist"));
    std::set<int> members(list.begin(), list.end());
    NumaNode node{id, {}};
    for (int cpu : ordered)
      if (members.count(cpu) != 0) node.cpus.push_back(cpu);
    if (!node.cpus.empty()) nodes.emplace(id, std::move(node));
  }
  std::vector<NumaNode> result;
  for (auto& [id, node] : nodes) result.push_back(std::move(node));
  if (result.empty()) result.push_back(NumaNode{0, ordered});
  return result;
}

}  // namespace

const NumaNode& Topology::node_of(int cpu) const {
  for (const NumaNode& node : nodes)
    if (std::find(node.cpus.begin(), node.cpus.end(), cpu) != node.cpus.end()) return node;
  return nodes.front();
}

Topology read_topology() {
  Topology topology;
  topology.cpus = spread_over_cores(allowed_cpus());
  topology.nodes = read_nodes(topology.cpus);
  return topology;
}

std::vector<int> parse_cpu_list(std::string_view text) {
  std::vector<int> cpus;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  while (!text.empty()) {
    std::string_view item = text.substr(0, text.find(','));
    text.remove_prefix(std::min(text.size(), item.size() + 1));
    int first = 0, last = 0;
    const char* end = item.data() + item.size();
    auto [p, ec] = std::from_chars(item.data(), end, first);
    if (ec != std::errc{}) return {};
    last = first;
    if (p != end) {
      if (*p != '-') return {};
      auto [q, ec2] = std::from_chars(p + 1, end, last);
      if (ec2 != std::errc{} || q != end || last < first) return {};
    }
    for (int cpu = first; cpu <= last; ++cpu) cpus.push_back(cpu);
  }
  return cpus;
}

std::string format_cpu_list(std::span<const int> cpus) {
  std::vector<int> sorted(cpus.begin(), cpus.end());
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::string text;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1) ++j;
    if (!text.empty()) text += ',';
    text += std::to_string(sorted[i]);
    if (j > i) text += '-' + std::to_string(sorted[j]);
    i = j + 1;
  }
  return text;
}

}  // namespace shmpi::launcher
