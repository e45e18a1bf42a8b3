// between_polls(): what a loop that polls shared memory does after a poll
// that found nothing. (When a rank spins, yields or sleeps while it waits
// for its peers is decided in one place, the pml's wait loop:
// pml/wait_loop.hpp. This is only how one empty poll is paced.)
//
// With `pauses` 0, early in a wait, an lfence: the next poll's loads wait
// for this poll's, so the poller has one load in flight on the line its peer
// is about to write (a tight loop floods it with speculative loads, which
// pull the line from the writer and are thrown away by a machine clear once
// it changes) and still polls again within a few cycles. `pause` also stops
// the flood, but on the EPYC machines it stops the core for ~20 ns (43 ticks
// of the 2.1 GHz TSC), a third of the cache-line hand-off when the host
// places the two vCPUs close. Once a wait has lasted kFencedPolls polls no
// answer is close: pause then gives an SMT sibling the core and saves power.
//
// With `pauses` N > 0, N pause instructions after every empty poll. A poll
// is a read of the line the peer answers on; it is worth not reading it too
// often: on the Xeon machines a peer that has just taken our record from a
// shared line holds that line alone, and writes its answer into it after
// the work between its receive and its send (~20 ns through MPI_Recv and
// MPI_Send). A poll of ours in that window pulls the line back, and the
// answer's store then waits for the line a second time, ~50 ns. A two-process
// box ping-pong there: 0.06 us one way replying at once, 0.11 us with ~25
// loop iterations between receive and reply polling with lfence, 0.063 us
// with 3 pauses (~10 ns each) between polls. The tunable poll_gap_ns says how
// long the gap is; pauses_for() turns it into pauses on this CPU.
#pragma once

#include <cstdint>

namespace shmpi::btl {

inline constexpr std::uint32_t kFencedPolls = 1024;

// The CPU's spin-wait hint.
inline void pause_once() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

// How long one pause instruction takes here, in ns: the best of a few timed
// runs of them (a preempted run only looks slower). Takes up to ~50 us.
double measure_pause_ns() noexcept;

// Pauses that make a gap of `gap_ns` when each takes `pause_ns`: the nearest
// whole number, at least one; 0 for no gap.
std::uint32_t pauses_for(std::uint32_t gap_ns, double pause_ns) noexcept;

// `polls`: empty polls so far in this wait; `pauses`: from pauses_for()
// (0: lfence early in a wait, as described above).
inline void between_polls(std::uint32_t polls, std::uint32_t pauses = 0) noexcept {
#if defined(__x86_64__) || defined(__i386__)
  if (pauses != 0) {
    for (std::uint32_t i = 0; i < pauses; ++i) pause_once();
  } else if (polls < kFencedPolls) {
    asm volatile("lfence" ::: "memory");
  } else {
    pause_once();
  }
#elif defined(__aarch64__)
  (void)polls;
  for (std::uint32_t i = 0; i < (pauses == 0 ? 1 : pauses); ++i) pause_once();
#else
  (void)polls;
  (void)pauses;
#endif
}

}  // namespace shmpi::btl
