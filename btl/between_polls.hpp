// between_polls(): what a loop that polls shared memory does after a poll
// that found nothing.
//
// Early in a wait, an lfence: the next poll's loads wait for this poll's,
// so the poller has one load in flight on the line its peer is about to
// write (a tight loop floods it with speculative loads, which pull the line
// from the writer and are thrown away by a machine clear once it changes)
// and still polls again within a few cycles. `pause` also stops the flood,
// but on these machines it stops the core for ~20 ns (AMD EPYC: 43 ticks
// of the 2.1 GHz TSC), a third of the cache-line hand-off when the host
// places the two vCPUs close. Once a wait has lasted kFencedPolls polls no
// answer is close: pause then gives an SMT sibling the core and saves power.
#pragma once

#include <cstdint>

namespace shmpi::btl {

inline constexpr std::uint32_t kFencedPolls = 1024;

// `polls`: empty polls so far in this wait.
inline void between_polls(std::uint32_t polls) noexcept {
#if defined(__x86_64__) || defined(__i386__)
  if (polls < kFencedPolls) {
    asm volatile("lfence" ::: "memory");
  } else {
    __builtin_ia32_pause();
  }
#elif defined(__aarch64__)
  (void)polls;
  asm volatile("yield" ::: "memory");
#else
  (void)polls;
#endif
}

}  // namespace shmpi::btl
