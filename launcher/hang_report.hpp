// The hang report printed on --timeout expiry or SIGQUIT: one table row per
// rank from the status page, then the wait-for analysis (deadlock.hpp).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <span>
#include <string>

#include "status_page.hpp"

namespace shmpi::launcher {

struct ReportRow {
  int rank = 0;
  pid_t pid = 0;
  bool exited = false;  // shmpirun has reaped this rank
  RankSnapshot status;
};

// The whole report, lines ending in '\n'. `now_ns` is CLOCK_MONOTONIC.
std::string format_hang_report(std::span<const ReportRow> rows, std::uint64_t now_ns);

}  // namespace shmpi::launcher
