// prefetch_for_write(): asks, without waiting, for a cache line in a state
// this core may write (x86 PREFETCHW, Arm PRFM PSTL1KEEP).
//
// A rank that reads a record from a line it will write next (the fast box:
// the reply goes over the record it answers) asks for the line while it is
// still busy with the record, so its store does not wait for the peer's copy
// to be invalidated. The hint changes no value and orders nothing.
#pragma once

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace shmpi::btl {

#if defined(__x86_64__) || defined(__i386__)
namespace prefetch_detail {
// PREFETCHW is the 3DNowPrefetch feature (CPUID 0x80000001, ECX bit 8); every
// AMD CPU and Intel ones since Broadwell have it.
inline bool has_prefetchw() noexcept {
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid(0x80000001u, &a, &b, &c, &d) != 0 && (c & bit_PRFCHW) != 0;
}
inline const bool kHasPrefetchw = has_prefetchw();
}  // namespace prefetch_detail
#endif

inline void prefetch_for_write(const void* line) noexcept {
#if defined(__x86_64__) || defined(__i386__)
  if (prefetch_detail::kHasPrefetchw) asm volatile("prefetchw %0" ::"m"(*static_cast<const char*>(line)));
#else
  __builtin_prefetch(line, 1, 3);
#endif
}

}  // namespace shmpi::btl
