// Unit tests of the run report's text (runtime/run_report_format.cpp):
// the lines of SHMPI_STATS=1 and the CSV of the communication matrix.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/run_report_format.hpp"

namespace shmpi::runtime {
namespace {

using pml::Protocol;

void set(RankReport& r, Protocol p, std::uint64_t messages, std::uint64_t bytes) {
  r.protocols.by_protocol[static_cast<std::size_t>(p)] = pml::TrafficCount{messages, bytes};
}

// Rank 0 sends 3 box, 2 eager, 1 rendezvous (split) message to rank 1;
// rank 1 answers with 4 box messages; one message of rank 0 to itself.
JobReport two_ranks() {
  JobReport job;
  job.nranks = 2;
  job.settings = "eager_limit 1024";
  job.ranks.resize(2);
  set(job.ranks[0], Protocol::Box, 3, 24);
  set(job.ranks[0], Protocol::Eager, 3, 1000);
  set(job.ranks[0], Protocol::Rendezvous, 1, 1048576);
  set(job.ranks[1], Protocol::Box, 4, 0);
  set(job.ranks[1], Protocol::Split, 1, 1048576);
  job.ranks[0].split_parts_written = 1;
  job.ranks[1].routes_single_copy = 2;
  job.ranks[1].routes_stream = 1;
  job.ranks[1].epochs_recorded = 3;
  job.ranks[1].reads_batched = 6;
  job.ranks[1].protocols.read_batches = 2;
  job.ranks[0].pipelined_replies = 7;
  job.ranks[0].unexpected_peak = 1;
  job.ranks[1].unexpected_peak = 9;
  job.ranks[0].blocked_ns = 1'500'000;
  job.ranks[1].blocked_ns = 250'000;
  job.sent = {{1, 100}, {6, 1048600}, {4, 0}, {0, 0}};
  job.box_lines = {kNoBoxLine, 5, 5, kNoBoxLine};
  job.box_lines_probed = true;
  job.ranks[0].unexpected_held_peak = 4096;
  job.ranks[1].unexpected_held_peak = 70000;
  job.ranks[1].backlogs_raised = 2;
  job.ranks[0].sends_held_back = 5;
  job.unexpected_budget = 65536;
  return job;
}

TEST(RunReportFormat, StatsLines) {
  const std::vector<std::string> lines = stats_lines(two_ranks());
  const std::vector<std::string> expected{
      "shmpi stats: 2 ranks; eager_limit 1024",
      "shmpi stats: sent: box 7 msgs 24 B; eager 3 msgs 1000 B; pipelined 0 msgs 0 B; rendezvous 1 msgs 1048576 B",
      "shmpi stats: rendezvous received: single copy 0 msgs 0 B; split 1 msgs 1048576 B; streamed 0 msgs 0 B",
      "shmpi stats: decisions: rendezvous routes chosen: single copy 2, stream 1 (epochs timed 3); single-copy reads "
      "batched: 6 msgs in 2 calls; split parts written by senders: 1; replies pipelined: 7; fast-box lines "
      "chosen: line 5 x1",
      "shmpi stats: deepest unexpected queue: 9 (rank 1); time blocked: 1.750 ms in all, most 1.500 ms (rank 0)",
      "shmpi stats: unexpected payloads held: most 70000 B (rank 1), unexpected_budget 65536 B; backlogs raised 2, "
      "sends held back 5",
      "shmpi stats: rank  box  eager  pipelined  rndv-sent  single-copy  split  streamed  sent-msgs  sent-bytes  "
      "unexpected-peak  blocked-ms",
      "shmpi stats:    0    3      3          0          1            0      0         0          7     1048700  "
      "              1       1.500",
      "shmpi stats:    1    4      0          0          0            0      1         0          4           0  "
      "              9       0.250",
  };
  EXPECT_EQ(lines, expected);
}

TEST(RunReportFormat, NoBoxesSaysSo) {
  JobReport job = two_ranks();
  job.box_lines.assign(4, kNoBoxLine);
  EXPECT_NE(stats_lines(job)[3].find("fast-box lines chosen: no fast boxes"), std::string::npos);
}

TEST(RunReportFormat, BoxLinesNotProbedSaySo) {
  JobReport job = two_ranks();
  job.box_lines = {kNoBoxLine, 0, 0, kNoBoxLine};
  job.box_lines_probed = false;
  EXPECT_NE(stats_lines(job)[3].find("fast-box lines chosen: not probed (line 0)"), std::string::npos);
}

TEST(RunReportFormat, MatrixCsvOfBytesAndOfMessages) {
  const JobReport job = two_ranks();
  EXPECT_EQ(matrix_csv(job, MatrixCell::Bytes), "sender/receiver,0,1\n0,100,1048600\n1,0,0\n");
  EXPECT_EQ(matrix_csv(job, MatrixCell::Messages), "sender/receiver,0,1\n0,1,6\n1,4,0\n");
}

}  // namespace
}  // namespace shmpi::runtime
