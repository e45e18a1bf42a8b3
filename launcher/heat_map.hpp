// The heat map of `--report comm-matrix FILE`: after a job that succeeded,
// shmpirun has gnuplot draw FILE.png from the bytes matrix rank 0 wrote to
// FILE (runtime/run_report.hpp): sender rank on y (rank 0 at the top),
// receiver rank on x, bytes on a logarithmic colour scale, pairs that
// exchanged nothing left white.
#pragma once

#include <string>

namespace shmpi::launcher {

// Draws FILE.png for the matrix in `csv_path` when gnuplot is in PATH;
// otherwise, or when there is nothing to draw, says so in one line on
// stderr. True if the picture was drawn. Never throws.
bool draw_heat_map(const std::string& csv_path) noexcept;

// The gnuplot commands that draw `csv_path` (a matrix of `nranks` ranks,
// with a header row and column) into `png_path`.
std::string heat_map_script(const std::string& csv_path, const std::string& png_path, int nranks);

}  // namespace shmpi::launcher
