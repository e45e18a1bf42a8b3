#include "runtime/hardware_resource.hpp"

#include <sched.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace shmpi::runtime {
namespace {

// The id of `cpu`'s resource at `level`, or -1.
int resource_of(int cpu, HardwareLevel level) {
  const std::string base = "/sys/devices/system/cpu/cpu" + std::to_string(cpu);
  if (level == HardwareLevel::NUMANode) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(base, ec)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("node", 0) != 0 || name.size() == 4) continue;
      char* end = nullptr;
      const long id = std::strtol(name.c_str() + 4, &end, 10);
      if (*end == '\0') return static_cast<int>(id);
    }
    return 0;  // no NUMA information: one node
  }
  const char* file = level == HardwareLevel::Package ? "/topology/physical_package_id" : "/topology/core_id";
  std::ifstream in(base + file);
  int id = -1;
  if (!(in >> id)) return -1;
  // Core ids repeat across packages: make them unique.
  if (level == HardwareLevel::Core) id += 65536 * resource_of(cpu, HardwareLevel::Package);
  return id;
}

}  // namespace

std::optional<HardwareLevel> hardware_level(std::string_view name) {
  for (HardwareLevel level : kHardwareLevels)
    if (name == hardware_level_name(level)) return level;
  return std::nullopt;
}

const char* hardware_level_name(HardwareLevel level) {
  switch (level) {
    case HardwareLevel::Package: return "Package";
    case HardwareLevel::NUMANode: return "NUMANode";
    default: return "Core";
  }
}

std::optional<int> confining_resource(HardwareLevel level) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return std::nullopt;
  std::optional<int> found;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &set)) continue;
    const int id = resource_of(cpu, level);
    if (id < 0 || (found && *found != id)) return std::nullopt;
    found = id;
  }
  return found;
}

}  // namespace shmpi::runtime
