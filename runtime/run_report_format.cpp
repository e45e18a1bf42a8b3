#include "runtime/run_report_format.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string_view>

namespace shmpi::runtime {
namespace {

using pml::Protocol;
using pml::TrafficCount;

constexpr std::string_view kPrefix = "shmpi stats: ";

std::string count_text(std::string_view name, const TrafficCount& c) {
  return std::string(name) + " " + std::to_string(c.messages) + " msgs " + std::to_string(c.bytes) + " B";
}

std::string ms_text(std::uint64_t ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", static_cast<double>(ns) / 1e6);
  return text;
}

// Every rank's totals added up.
RankReport job_totals(const JobReport& job) {
  RankReport sum;
  for (const RankReport& r : job.ranks) {
    for (std::size_t p = 0; p < pml::kProtocols; ++p) {
      sum.protocols.by_protocol[p].messages += r.protocols.by_protocol[p].messages;
      sum.protocols.by_protocol[p].bytes += r.protocols.by_protocol[p].bytes;
    }
    sum.protocols.read_batches += r.protocols.read_batches;
    sum.routes_single_copy += r.routes_single_copy;
    sum.routes_stream += r.routes_stream;
    sum.epochs_recorded += r.epochs_recorded;
    sum.reads_batched += r.reads_batched;
    sum.split_parts_written += r.split_parts_written;
    sum.pipelined_replies += r.pipelined_replies;
    sum.blocked_ns += r.blocked_ns;
    sum.backlogs_raised += r.backlogs_raised;
    sum.sends_held_back += r.sends_held_back;
    sum.slot_collectives += r.slot_collectives;
  }
  return sum;
}

// "line 3 x2, line 5 x1" over the pairs that have a box (each pair once).
std::string box_lines_text(const JobReport& job) {
  std::array<std::uint64_t, 64> pairs_on{};
  bool any = false;
  for (std::uint32_t rank = 0; rank < job.nranks; ++rank) {
    for (std::uint32_t peer = rank + 1; peer < job.nranks; ++peer) {
      const std::uint32_t line = job.box_lines[std::size_t{rank} * job.nranks + peer];
      if (line >= pairs_on.size()) continue;
      ++pairs_on[line];
      any = true;
    }
  }
  if (!any) return "no fast boxes";
  if (!job.box_lines_probed) return "not probed (line 0)";
  std::string text;
  for (std::size_t line = 0; line < pairs_on.size(); ++line) {
    if (pairs_on[line] == 0) continue;
    if (!text.empty()) text += ", ";
    text += "line " + std::to_string(line) + " x" + std::to_string(pairs_on[line]);
  }
  return text;
}

std::string decisions_line(const RankReport& sum, const JobReport& job) {
  return std::string(kPrefix) + "decisions: rendezvous routes chosen: single copy " +
         std::to_string(sum.routes_single_copy) + ", stream " + std::to_string(sum.routes_stream) +
         " (epochs timed " + std::to_string(sum.epochs_recorded) + "); single-copy reads batched: " +
         std::to_string(sum.reads_batched) + " msgs in " + std::to_string(sum.protocols.read_batches) +
         " calls; split parts written by senders: " + std::to_string(sum.split_parts_written) +
         "; replies pipelined: " + std::to_string(sum.pipelined_replies) +
         "; fast-box lines chosen: " + box_lines_text(job);
}

std::string waiting_line(const RankReport& sum, const JobReport& job) {
  std::uint32_t deepest = 0;
  std::uint32_t longest = 0;
  for (std::uint32_t r = 0; r < job.nranks; ++r) {
    if (job.ranks[r].unexpected_peak > job.ranks[deepest].unexpected_peak) deepest = r;
    if (job.ranks[r].blocked_ns > job.ranks[longest].blocked_ns) longest = r;
  }
  return std::string(kPrefix) + "deepest unexpected queue: " + std::to_string(job.ranks[deepest].unexpected_peak) +
         " (rank " + std::to_string(deepest) + "); time blocked: " + ms_text(sum.blocked_ns) +
         " ms in all, most " + ms_text(job.ranks[longest].blocked_ns) + " ms (rank " + std::to_string(longest) +
         ")";
}

// The most payload bytes any rank's unexpected messages held, against the
// budget, and what the backlog flag did.
std::string backlog_line(const RankReport& sum, const JobReport& job) {
  std::uint32_t most = 0;
  for (std::uint32_t r = 0; r < job.nranks; ++r)
    if (job.ranks[r].unexpected_held_peak > job.ranks[most].unexpected_held_peak) most = r;
  return std::string(kPrefix) + "unexpected payloads held: most " +
         std::to_string(job.ranks[most].unexpected_held_peak) + " B (rank " + std::to_string(most) +
         "), unexpected_budget " + std::to_string(job.unexpected_budget) + " B; backlogs raised " +
         std::to_string(sum.backlogs_raised) + ", sends held back " + std::to_string(sum.sends_held_back);
}

// The per-rank table, columns right-aligned under their headers.
std::vector<std::string> rank_table(const JobReport& job) {
  std::vector<std::vector<std::string>> rows{{"rank", "box", "eager", "pipelined", "rndv-sent", "single-copy",
                                              "split", "streamed", "sent-msgs", "sent-bytes", "unexpected-peak",
                                              "blocked-ms"}};
  for (std::uint32_t r = 0; r < job.nranks; ++r) {
    const RankReport& rank = job.ranks[r];
    std::vector<std::string> row{std::to_string(r)};
    for (Protocol p : {Protocol::Box, Protocol::Eager, Protocol::Pipelined, Protocol::Rendezvous,
                       Protocol::SingleCopy, Protocol::Split, Protocol::Streamed})
      row.push_back(std::to_string(rank.protocols[p].messages));
    TrafficCount sent;
    for (std::uint32_t to = 0; to < job.nranks; ++to) {
      sent.messages += job.pair(r, to).messages;
      sent.bytes += job.pair(r, to).bytes;
    }
    row.push_back(std::to_string(sent.messages));
    row.push_back(std::to_string(sent.bytes));
    row.push_back(std::to_string(rank.unexpected_peak));
    row.push_back(ms_text(rank.blocked_ns));
    rows.push_back(std::move(row));
  }
  std::vector<std::size_t> width(rows.front().size(), 0);
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  std::vector<std::string> lines;
  for (const auto& row : rows) {
    std::string line(kPrefix);
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c != 0) line += "  ";
      line += std::string(width[c] - row[c].size(), ' ') + row[c];
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace

std::vector<std::string> stats_lines(const JobReport& job) {
  const RankReport sum = job_totals(job);
  const pml::ProtocolTotals& p = sum.protocols;
  std::vector<std::string> lines{
      std::string(kPrefix) + std::to_string(job.nranks) + " ranks; " + job.settings,
      std::string(kPrefix) + "sent: " + count_text("box", p[Protocol::Box]) + "; " +
          count_text("eager", p[Protocol::Eager]) + "; " + count_text("pipelined", p[Protocol::Pipelined]) + "; " +
          count_text("rendezvous", p[Protocol::Rendezvous]),
      std::string(kPrefix) + "rendezvous received: " + count_text("single copy", p[Protocol::SingleCopy]) + "; " +
          count_text("split", p[Protocol::Split]) + "; " + count_text("streamed", p[Protocol::Streamed]),
      decisions_line(sum, job),
      waiting_line(sum, job),
      backlog_line(sum, job),
  };
  // Only a job with ranks on other nodes has network traffic to report.
  if (p[Protocol::Network].messages != 0)
    lines.insert(lines.begin() + 3, std::string(kPrefix) + "network: " + count_text("sent", p[Protocol::Network]));
  // Nor does a job without small collectives calls through the slots.
  if (sum.slot_collectives != 0)
    lines.push_back(std::string(kPrefix) + "collective calls through the shared slots: " +
                    std::to_string(sum.slot_collectives) + " (summed over ranks)");
  for (std::string& row : rank_table(job)) lines.push_back(std::move(row));
  return lines;
}

std::string matrix_csv(const JobReport& job, MatrixCell cell) {
  std::string csv = "sender/receiver";
  for (std::uint32_t to = 0; to < job.nranks; ++to) csv += "," + std::to_string(to);
  csv += '\n';
  for (std::uint32_t from = 0; from < job.nranks; ++from) {
    csv += std::to_string(from);
    for (std::uint32_t to = 0; to < job.nranks; ++to) {
      const TrafficCount& c = job.pair(from, to);
      csv += "," + std::to_string(cell == MatrixCell::Bytes ? c.bytes : c.messages);
    }
    csv += '\n';
  }
  return csv;
}

}  // namespace shmpi::runtime
