// monotonic_ns(): CLOCK_MONOTONIC in nanoseconds, for timing start-up work
// (the box probe, a pause's length) and as the portable fallback of faster
// clocks.
#pragma once

#include <time.h>

#include <cstdint>

namespace shmpi::btl {

inline std::uint64_t monotonic_ns() noexcept {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(t.tv_nsec);
}

}  // namespace shmpi::btl
