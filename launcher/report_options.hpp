// shmpirun --report: the run report the ranks make at MPI_Finalize
// (runtime/run_report.hpp), asked for through their environment.
//   --report stats             SHMPI_STATS=1: rank 0 prints the report on stderr
//   --report comm-matrix FILE  SHMPI_COMM_MATRIX=<FILE, absolute>: rank 0 writes
//                              FILE (bytes) and FILE.messages.csv; shmpirun then
//                              draws FILE.png with gnuplot (heat_map.hpp)
// Both may be given.
#pragma once

#include <string>
#include <string_view>

#include "rank_env.hpp"

namespace shmpi::launcher {

struct ReportOptions {
  bool stats = false;       // --report stats
  std::string comm_matrix;  // --report comm-matrix FILE (absolute once prepared)
};

// Applies `--report WHAT` (pure). For "comm-matrix" the FILE is the next
// argument, given to take_matrix_file() (nullptr: there is none);
// "comm-matrix=FILE" takes it at once. Throws LaunchError (usage) for
// anything else.
void apply_report(ReportOptions& report, std::string_view flag, std::string_view what);
void take_matrix_file(ReportOptions& report, const std::string* file);
inline bool matrix_file_follows(std::string_view what) noexcept { return what == "comm-matrix"; }

// Makes FILE absolute (the ranks may not share our idea of "."), checks its
// directory exists, and sets the ranks' variables. Throws LaunchError.
void prepare_report(ReportOptions& report, Environment& rank_env);

}  // namespace shmpi::launcher
