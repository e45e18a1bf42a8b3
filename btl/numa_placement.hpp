// NUMA placement of shared segments.
//
// A rank's receive segment (the rings its peers write into, the memory it
// polls) belongs on the rank's own NUMA node. The policy is set on the
// memfd mapping with mbind() BEFORE the first touch; for a memfd (shmem) the
// kernel keeps the policy with the file, so it holds for every mapping of
// the segment (a peer's first touch through its own mapping still lands on
// the owner's node) and get_mempolicy(MPOL_F_ADDR) reports it through any of
// them. Pages touched before the policy was set stay where they are.
//
// Policies and the kernel mode each one sets:
//   Local      -> MPOL_PREFERRED on `node`: pages go to `node` while it has
//                 free memory and elsewhere after that. MPOL_BIND would
//                 instead OOM-kill (or SIGBUS) the job when the node fills
//                 up, which is the wrong trade for a transport.
//   Interleave -> MPOL_INTERLEAVE over every node this process may use
//                 (`node` is ignored): for memory many ranks share evenly.
//   None       -> nothing is set: the mapping keeps MPOL_DEFAULT (first
//                 touch decides).
//
// mbind() is called directly (libnuma's wrapper of the system call) rather
// than through numa_tonode_memory()/numa_interleave_memory(): those return
// void and print to stderr, and the caller needs errno to word its warning.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace shmpi::btl {

enum class NumaPolicy : std::uint8_t { Local, Interleave, None };

// The NUMA node of the CPU this thread runs on (getcpu; 0 when libnuma
// reports NUMA unavailable). It can change if the thread is not bound.
int current_numa_node() noexcept;

// Applies `policy` to the pages of [addr, addr + bytes) before they are
// first touched. `addr` must be page-aligned (mmap results are); `bytes` is
// rounded up to whole pages. For Local, `node` < 0 means current_numa_node().
// Returns false with errno on failure (EINVAL: bad node or alignment;
// EPERM/ENOSYS: mbind refused, e.g. by a container's seccomp policy).
// A no-op returning true for None, for bytes == 0, or when numa_available()
// < 0. Allocation-free.
bool place_memory(void* addr, std::size_t bytes, NumaPolicy policy, int node) noexcept;

// What the kernel says about [addr, addr + bytes), for tests and shmpi_info.
struct PagePlacement {
  // get_mempolicy(MPOL_F_ADDR) on `addr`: MPOL_DEFAULT, MPOL_PREFERRED,
  // MPOL_BIND, MPOL_INTERLEAVE, ...; -1 when the call failed.
  int mode = -1;
  // move_pages(nodes = nullptr) per page: the node of a touched page, or a
  // negative errno (-ENOENT: not touched yet, so not placed at all).
  // Querying touches nothing. Empty when the query failed.
  std::vector<int> page_nodes;
};
PagePlacement query_placement(void* addr, std::size_t bytes) noexcept;

}  // namespace shmpi::btl
