#include "job_memory.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string_view>

#include "btl/segment_budget.hpp"
#include "launch_error.hpp"

namespace shmpi::launcher {
namespace {

// "259 MiB" (rounded up), "1.0 GiB", "15.3 TiB".
std::string format_bytes(std::uint64_t bytes) {
  char text[32];
  if (bytes >= (1ull << 40)) {
    std::snprintf(text, sizeof text, "%.1f TiB", static_cast<double>(bytes) / static_cast<double>(1ull << 40));
  } else if (bytes >= (1ull << 30)) {
    std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / static_cast<double>(1ull << 30));
  } else {
    std::snprintf(text, sizeof text, "%llu MiB", static_cast<unsigned long long>((bytes + (1ull << 20) - 1) >> 20));
  }
  return text;
}

std::optional<std::uint64_t> mem_available() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return std::nullopt;
}

// A number from a cgroup file; nullopt for "max" or an unreadable file.
std::optional<std::uint64_t> cgroup_number(const std::string& path) {
  std::ifstream file(path);
  std::uint64_t value = 0;
  if (!(file >> value)) return std::nullopt;
  return value;
}

// Our cgroup v2 directory, from the "0::/path" line of /proc/self/cgroup.
std::string own_cgroup() {
  std::ifstream file("/proc/self/cgroup");
  std::string line;
  while (std::getline(file, line))
    if (line.starts_with("0::")) return line.substr(3);
  return "/";
}

// Keeps in `best` the tighter of it and what the cgroups from ours up to
// the root leave (memory.max less memory.current).
void tighten_by_cgroups(std::optional<AvailableMemory>& best) {
  std::string group = own_cgroup();
  while (true) {
    const std::string dir = "/sys/fs/cgroup" + (group == "/" ? std::string() : group);
    const std::optional<std::uint64_t> limit = cgroup_number(dir + "/memory.max");
    if (limit) {
      const std::uint64_t used = cgroup_number(dir + "/memory.current").value_or(0);
      const std::uint64_t left = *limit > used ? *limit - used : 0;
      if (!best || left < best->bytes) best = AvailableMemory{left, "the cgroup limit (" + dir + "/memory.max)"};
    }
    if (group == "/" || group.empty()) break;
    const std::size_t slash = group.rfind('/');
    group = slash == 0 ? "/" : group.substr(0, slash);
  }
}

}  // namespace

std::uint64_t job_segment_bytes(std::uint64_t ranks, const SegmentTunables& tunables) {
  const auto n = static_cast<std::uint32_t>(std::min<std::uint64_t>(ranks, UINT32_MAX));
  const std::uint64_t segment = btl::budget_segment_bytes(n, tunables.ring_size, tunables.segment_budget);
  const std::uint64_t per_rank = (segment + btl::kPageBytes - 1) / btl::kPageBytes * btl::kPageBytes;
  std::uint64_t total = 0;
  return __builtin_mul_overflow(per_rank, ranks, &total) ? UINT64_MAX : total;
}

std::optional<AvailableMemory> measure_available_memory() {
  std::optional<AvailableMemory> best;
  if (const std::optional<std::uint64_t> bytes = mem_available()) best = AvailableMemory{*bytes, "MemAvailable"};
  tighten_by_cgroups(best);
  return best;
}

void check_job_fits(int ranks, const SegmentTunables& tunables) {
  const std::optional<AvailableMemory> available =
      tunables.test_available_memory != 0
          ? AvailableMemory{tunables.test_available_memory, "test_available_memory"}
          : measure_available_memory();
  const std::uint64_t need = job_segment_bytes(static_cast<std::uint64_t>(ranks), tunables);
  if (!available || need <= available->bytes) return;
  const std::size_t ring = btl::budget_ring_size(static_cast<std::uint32_t>(ranks), tunables.ring_size,
                                                 tunables.segment_budget);
  throw usage_error(std::to_string(ranks) + " ranks need " + format_bytes(need) +
                    " of shared memory for their segments (" + std::to_string(ring) +
                    "-byte rings, ring_size=" + std::to_string(tunables.ring_size) +
                    " segment_budget=" + std::to_string(tunables.segment_budget) + ") but only " +
                    format_bytes(available->bytes) + " is available (" + available->source +
                    "); use fewer ranks or a smaller --set ring_size or segment_budget");
}

}  // namespace shmpi::launcher
