// JobMemory: the shared memory a job's receive segments need, by the same
// rule the ranks size them with (btl/segment_budget.hpp), and the memory
// available to them, so shmpirun refuses a job that cannot fit before
// anything starts instead of letting ranks die of SIGBUS mid-run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace shmpi::launcher {

// The tunables that size a job's segments, as the ranks will have them.
struct SegmentTunables {
  std::uint64_t ring_size = 0;
  std::uint64_t segment_budget = 0;
  std::uint64_t test_available_memory = 0;  // test hook: non-zero replaces the measurement
};

// Bytes of the segments of a job of `ranks` (saturates at UINT64_MAX).
std::uint64_t job_segment_bytes(std::uint64_t ranks, const SegmentTunables& tunables);

// Memory the job's segments may take, and where that number comes from.
struct AvailableMemory {
  std::uint64_t bytes = 0;
  std::string source;  // e.g. "MemAvailable", "the cgroup limit (/sys/fs/cgroup/x/memory.max)"
};

// The least of MemAvailable and, for each cgroup v2 from ours up, memory.max
// less memory.current; nullopt when none can be read. Segments are memfds:
// the size of /dev/shm does not bound them.
std::optional<AvailableMemory> measure_available_memory();

// Throws a one-line usage error when the job's segments exceed the memory
// available (test_available_memory, when set, instead of the measurement).
void check_job_fits(int ranks, const SegmentTunables& tunables);

}  // namespace shmpi::launcher
