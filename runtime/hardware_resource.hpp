// Which hardware resource this process is confined to, for
// MPI_Comm_split_type's MPI_COMM_TYPE_HW_GUIDED / HW_UNGUIDED: read from
// the CPUs it may run on (sched_getaffinity) and Linux's sysfs topology.
#pragma once

#include <optional>
#include <string_view>

namespace shmpi::runtime {

// Resource levels, from the largest; names as hwloc and MPI-4 spell them.
enum class HardwareLevel { Package, NUMANode, Core };
inline constexpr HardwareLevel kHardwareLevels[] = {HardwareLevel::Package, HardwareLevel::NUMANode,
                                                     HardwareLevel::Core};

// "Package" -> Package ... ; nothing for a name shmpi does not know.
std::optional<HardwareLevel> hardware_level(std::string_view name);
const char* hardware_level_name(HardwareLevel level);

// The id of the one resource of `level` holding every CPU this process may
// run on, or nothing if its CPUs span several (or sysfs cannot tell).
std::optional<int> confining_resource(HardwareLevel level);

}  // namespace shmpi::runtime
