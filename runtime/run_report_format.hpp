// The run report's content and text (SHMPI_STATS=1, SHMPI_COMM_MATRIX):
// what each rank contributes, and the lines and CSV files rank 0 makes of
// the whole job. Pure: no MPI, no I/O (runtime/run_report.hpp gathers and
// writes).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "pml/traffic_stats.hpp"

namespace shmpi::runtime {

// One rank's totals and decisions: plain words, gathered as bytes.
struct RankReport {
  pml::ProtocolTotals protocols;     // by protocol (pml/traffic_stats.hpp)
  std::uint64_t routes_single_copy = 0;  // rendezvous routes the RouteChooser picked
  std::uint64_t routes_stream = 0;
  std::uint64_t epochs_recorded = 0;     // epochs timed and told to the RouteChooser
  std::uint64_t reads_batched = 0;       // messages read by single copy in a batch of several
  std::uint64_t split_parts_written = 0; // parts of our sends we copied into receivers
  std::uint64_t pipelined_replies = 0;   // rendezvous-sized replies pipelined
  std::uint64_t unexpected_peak = 0;     // most unexpected messages held at once
  std::uint64_t unexpected_held_peak = 0;  // most bytes their payloads held at once (unexpected_budget)
  std::uint64_t backlogs_raised = 0;     // times this rank asked its senders to hold payloads back
  std::uint64_t sends_held_back = 0;     // sends of ours offered (rendezvous) because the receiver was backlogged
  std::uint64_t blocked_ns = 0;          // time spent in waits that blocked
  std::uint64_t slot_collectives = 0;    // collective calls made through the shared collective slots
};
static_assert(std::is_standard_layout_v<RankReport> && std::is_trivially_copyable_v<RankReport>);
static_assert(sizeof(RankReport) % sizeof(std::uint64_t) == 0);

// A pair's box line, as reported when the pair has no box.
inline constexpr std::uint32_t kNoBoxLine = 0xFFFFFFFFu;

// The whole job, as rank 0 sees it after the gather.
struct JobReport {
  std::uint32_t nranks = 0;
  std::string settings;                  // the tunables in force, one line
  std::vector<RankReport> ranks;         // by world rank
  std::vector<pml::TrafficCount> sent;   // [sender * nranks + receiver]: messages started, bytes
  std::vector<std::uint32_t> box_lines;  // [rank * nranks + peer]: the pair's box line, or kNoBoxLine
  bool box_lines_probed = false;         // the lines were timed (else every box is on line 0)
  std::uint64_t unexpected_budget = 0;   // the tunable, as rank 0 has it

  const pml::TrafficCount& pair(std::uint32_t sender, std::uint32_t receiver) const noexcept {
    return sent[std::size_t{sender} * nranks + receiver];
  }
};

// The report of SHMPI_STATS=1, one line per element, each starting with
// "shmpi stats: ": settings, job totals by protocol, the decisions, the
// deepest unexpected queue and time blocked, the most payload bytes an
// unexpected queue held and the backlogs (unexpected_budget), then a table
// of one row per rank under a header row.
std::vector<std::string> stats_lines(const JobReport& job);

// The communication matrix as CSV: a header row "sender/receiver,0,1,...",
// then one row per sender starting with its rank; cells are bytes (or
// messages) the row's rank sent to the column's rank.
enum class MatrixCell { Bytes, Messages };
std::string matrix_csv(const JobReport& job, MatrixCell cell);

}  // namespace shmpi::runtime
