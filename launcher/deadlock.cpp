#include "deadlock.hpp"

#include <algorithm>

namespace shmpi::launcher {
namespace {

// The rank `r` waits for, or -1 when it waits for no specific rank.
int waits_for(std::span<const WaitRecord> records, std::size_t r) {
  const WaitRecord& rec = records[r];
  if (rec.state != WaitRecord::State::Blocked) return -1;
  if (rec.peer < 0 || static_cast<std::size_t>(rec.peer) >= records.size()) return -1;
  return rec.peer;
}

std::string describe_wait(const WaitRecord& rec, int rank) {
  std::string tag = rec.tag < 0 ? "any tag" : "tag " + std::to_string(rec.tag);
  std::string call = rec.call.empty() ? "a blocking call" : rec.call;
  return "rank " + std::to_string(rank) + " waits in " + call + " for rank " + std::to_string(rec.peer) +
         " (" + tag + ")";
}

}  // namespace

std::vector<std::vector<int>> find_wait_cycles(std::span<const WaitRecord> records) {
  // walk[r]: 0 = unvisited, otherwise the id of the walk that visited r.
  std::vector<std::size_t> walk(records.size(), 0);
  std::vector<std::vector<int>> cycles;
  for (std::size_t start = 0; start < records.size(); ++start) {
    std::size_t id = start + 1;
    int r = static_cast<int>(start);
    while (r >= 0 && walk[static_cast<std::size_t>(r)] == 0) {
      walk[static_cast<std::size_t>(r)] = id;
      r = waits_for(records, static_cast<std::size_t>(r));
    }
    if (r < 0 || walk[static_cast<std::size_t>(r)] != id) continue;  // no new cycle on this walk
    std::vector<int> cycle;
    int at = r;
    do {
      cycle.push_back(at);
      at = waits_for(records, static_cast<std::size_t>(at));
    } while (at != r);
    std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
    cycles.push_back(std::move(cycle));
  }
  std::sort(cycles.begin(), cycles.end(), [](const auto& a, const auto& b) { return a[0] < b[0]; });
  return cycles;
}

std::string describe_cycle(std::span<const WaitRecord> records, const std::vector<int>& cycle) {
  std::string line = "deadlock: ";
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    if (i != 0) line += "; ";
    line += describe_wait(records[static_cast<std::size_t>(cycle[i])], cycle[i]);
  }
  return line;
}

std::vector<std::string> describe_waits_on_gone(std::span<const WaitRecord> records) {
  std::vector<std::string> lines;
  for (std::size_t r = 0; r < records.size(); ++r) {
    int peer = waits_for(records, r);
    if (peer < 0 || records[static_cast<std::size_t>(peer)].state != WaitRecord::State::Gone) continue;
    lines.push_back("stuck: " + describe_wait(records[r], static_cast<int>(r)) + ", which has finished");
  }
  return lines;
}

}  // namespace shmpi::launcher
