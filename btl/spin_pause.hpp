// spin_pause(): one pause in a loop that polls shared memory.
//
// On x86 it is the `pause` instruction: the polling thread stops issuing
// loads for a few dozen cycles, so it neither floods the line a peer is
// about to write nor, when the peer runs on the other hardware thread of
// the same core, takes that thread's issue slots.
#pragma once

namespace shmpi::btl {

inline void spin_pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

}  // namespace shmpi::btl
