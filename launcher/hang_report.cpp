#include "hang_report.hpp"

#include <cstdio>
#include <vector>

#include "deadlock.hpp"

namespace shmpi::launcher {
namespace {

using contract::RankState;

WaitRecord::State wait_state(const ReportRow& row) {
  if (row.exited) return WaitRecord::State::Gone;
  switch (row.status.state) {
    case RankState::Running: return WaitRecord::State::Running;
    case RankState::Blocked: return WaitRecord::State::Blocked;
    case RankState::Finalized: return WaitRecord::State::Gone;
    default: return WaitRecord::State::NotStarted;
  }
}

std::string state_name(const ReportRow& row) {
  std::string name;
  if (row.exited) return "exited";
  switch (row.status.state) {
    case RankState::NotStarted: name = "not-started"; break;
    case RankState::Running: name = "running"; break;
    case RankState::Blocked: name = "blocked"; break;
    case RankState::Finalized: name = "finalized"; break;
    default: name = "state-" + std::to_string(static_cast<std::uint32_t>(row.status.state)); break;
  }
  return row.status.consistent ? name : name + "(torn)";
}

std::string peer_text(std::int32_t peer) {
  if (peer == -1) return "any";
  if (peer < 0) return "-";
  return std::to_string(peer);
}

std::string format_row(const ReportRow& row, std::uint64_t now_ns) {
  const RankSnapshot& s = row.status;
  bool blocked = !row.exited && s.state == RankState::Blocked;
  bool active = blocked || (!row.exited && s.state == RankState::Running);
  std::string call = active && !s.call.empty() ? s.call : "-";
  std::string peer = blocked ? peer_text(s.peer) : "-";
  std::string tag = blocked ? (s.tag == -1 ? "any" : std::to_string(s.tag)) : "-";
  std::string bytes = blocked ? std::to_string(s.count) : "-";
  std::string ctx = blocked ? std::to_string(s.context) : "-";
  char seconds[32] = "-";
  if (blocked && s.since_ns != 0 && now_ns >= s.since_ns)
    std::snprintf(seconds, sizeof seconds, "%.3f", static_cast<double>(now_ns - s.since_ns) * 1e-9);
  std::string reqs = active ? std::to_string(s.outstanding) : "-";
  char line[256];
  std::snprintf(line, sizeof line, "%5d %8d  %-12s %-20s %5s %6s %12s %5s %10s %5s\n", row.rank,
                static_cast<int>(row.pid), state_name(row).c_str(), call.c_str(), peer.c_str(),
                tag.c_str(), bytes.c_str(), ctx.c_str(), seconds, reqs.c_str());
  return line;
}

}  // namespace

std::string format_hang_report(std::span<const ReportRow> rows, std::uint64_t now_ns) {
  char header[256];
  std::snprintf(header, sizeof header, "%5s %8s  %-12s %-20s %5s %6s %12s %5s %10s %5s\n", "rank", "pid",
                "state", "call", "peer", "tag", "bytes", "ctx", "blocked_s", "reqs");
  std::string report = "shmpirun: hang report for " + std::to_string(rows.size()) + " ranks\n";
  report += header;
  std::vector<WaitRecord> records;
  for (const ReportRow& row : rows) {
    report += format_row(row, now_ns);
    records.push_back({wait_state(row), row.status.call, row.status.peer, row.status.tag});
  }
  auto cycles = find_wait_cycles(records);
  for (const auto& cycle : cycles) report += describe_cycle(records, cycle) + "\n";
  for (const auto& line : describe_waits_on_gone(records)) report += line + "\n";
  if (cycles.empty()) report += "deadlock: no wait-for cycle among the ranks\n";
  return report;
}

}  // namespace shmpi::launcher
