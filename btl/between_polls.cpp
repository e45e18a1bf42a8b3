#include "btl/between_polls.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "btl/monotonic_ns.hpp"

namespace shmpi::btl {

double measure_pause_ns() noexcept {
  constexpr int kRuns = 5;
  constexpr int kPauses = 256;  // 2.5-12 us a run: long against the clock's own cost
  double best = std::numeric_limits<double>::max();
  for (int run = 0; run < kRuns; ++run) {
    const std::uint64_t start = monotonic_ns();
    for (int i = 0; i < kPauses; ++i) pause_once();
    best = std::min(best, static_cast<double>(monotonic_ns() - start) / kPauses);
  }
  return best;
}

std::uint32_t pauses_for(std::uint32_t gap_ns, double pause_ns) noexcept {
  if (gap_ns == 0) return 0;
  if (!(pause_ns > 0)) return 1;
  const double pauses = std::round(static_cast<double>(gap_ns) / pause_ns);
  return pauses < 1 ? 1 : pauses > 1000 ? 1000 : static_cast<std::uint32_t>(pauses);
}

}  // namespace shmpi::btl
