#include "btl/numa_placement.hpp"

#include <numa.h>
#include <numaif.h>
#include <sched.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <new>

namespace shmpi::btl {
namespace {

// Linux allows at most 1 << NODES_SHIFT (<= 1024) nodes: a fixed mask on the
// stack keeps place_memory() allocation-free (libnuma's bitmasks malloc and
// exit on failure).
constexpr std::size_t kMaxNodes = 1024;
constexpr std::size_t kBitsPerWord = sizeof(unsigned long) * CHAR_BIT;
using NodeMask = std::array<unsigned long, kMaxNodes / kBitsPerWord>;

void set_node(NodeMask& mask, int node) noexcept {
  const auto n = static_cast<std::size_t>(node);
  mask[n / kBitsPerWord] |= 1UL << (n % kBitsPerWord);
}

std::size_t page_size() noexcept { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }

bool apply(void* addr, std::size_t bytes, int mode, const NodeMask& mask) noexcept {
  // mbind's maxnode counts one more than the bits it reads (as libnuma does).
  return ::mbind(addr, bytes, mode, mask.data(), kMaxNodes + 1, 0) == 0;
}

}  // namespace

int current_numa_node() noexcept {
  if (::numa_available() < 0) return 0;
  unsigned cpu = 0;
  unsigned node = 0;
  if (::getcpu(&cpu, &node) != 0) return 0;
  return static_cast<int>(node);
}

bool place_memory(void* addr, std::size_t bytes, NumaPolicy policy, int node) noexcept {
  if (policy == NumaPolicy::None || bytes == 0 || ::numa_available() < 0) return true;
  NodeMask mask{};
  if (policy == NumaPolicy::Local) {
    if (node < 0) node = current_numa_node();
    if (node > ::numa_max_node() || static_cast<std::size_t>(node) >= kMaxNodes) {
      errno = EINVAL;
      return false;
    }
    set_node(mask, node);
    return apply(addr, bytes, MPOL_PREFERRED, mask);
  }
  // Interleave over the nodes this process may allocate from (cpuset aware).
  const int max_node = ::numa_max_node();
  for (int n = 0; n <= max_node && static_cast<std::size_t>(n) < kMaxNodes; ++n) {
    if (::numa_bitmask_isbitset(::numa_all_nodes_ptr, static_cast<unsigned>(n)) != 0) set_node(mask, n);
  }
  return apply(addr, bytes, MPOL_INTERLEAVE, mask);
}

PagePlacement query_placement(void* addr, std::size_t bytes) noexcept {
  PagePlacement placement;
  if (::get_mempolicy(&placement.mode, nullptr, 0, addr, MPOL_F_ADDR) != 0) placement.mode = -1;
  if (bytes == 0) return placement;
  const std::size_t page = page_size();
  const auto first = reinterpret_cast<std::uintptr_t>(addr) / page * page;
  const auto end = reinterpret_cast<std::uintptr_t>(addr) + bytes;
  const std::size_t count = (end - first + page - 1) / page;
  try {
    std::vector<void*> pages(count);
    for (std::size_t i = 0; i < count; ++i) pages[i] = reinterpret_cast<void*>(first + i * page);
    placement.page_nodes.assign(count, -1);
    // nodes == nullptr: only report where each page is, move nothing.
    if (::move_pages(0, count, pages.data(), nullptr, placement.page_nodes.data(), 0) != 0) {
      placement.page_nodes.clear();
    }
  } catch (const std::bad_alloc&) {
    placement.page_nodes.clear();
  }
  return placement;
}

}  // namespace shmpi::btl
