// The run report users ask for at MPI_Finalize (launcher/README.md):
// - SHMPI_STATS=1: rank 0 prints, on stderr, what the job's traffic did and
//   what the self-tuning parts decided (run_report_format.hpp);
// - SHMPI_COMM_MATRIX=FILE: rank 0 writes the per-pair matrix of bytes
//   sent to FILE and of messages sent to FILE.messages.csv (CSV).
// Both read at MPI_Finalize; unset (or SHMPI_STATS=0), nothing is gathered
// or printed. The counters behind it are always kept (pml/traffic_stats.hpp).
#pragma once

#include <string>

namespace shmpi::runtime {

class Context;

// What the environment asks for.
struct ReportRequest {
  bool stats = false;        // SHMPI_STATS=1
  std::string comm_matrix;   // SHMPI_COMM_MATRIX, or empty
  std::string problem;       // a value not understood, to tell the user once

  bool wanted() const noexcept { return stats || !comm_matrix.empty(); }
  static ReportRequest from_environment();
};

// Called by every rank in MPI_Finalize, after its own sends are out and
// before the final synchronisation: snapshots this rank's counters, gathers
// every rank's at rank 0 over MPI_COMM_WORLD's collective context, and
// prints / writes what was asked. Does nothing when nothing was asked.
void report_run(Context& context);

}  // namespace shmpi::runtime
