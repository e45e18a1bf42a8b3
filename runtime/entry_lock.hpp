// EntryLock: the lock every MPI call of a rank holds while it runs, when
// the rank granted MPI_THREAD_MULTIPLE (runtime/thread_support.hpp).
//
// A futex mutex that lets a running thread take it before a sleeping one
// (not a ticket lock: when threads outnumber cores, a ticket lock hands
// every turn to a thread that may not be running, and the rank then moves
// at the pace of the scheduler: thread_stress 100000 4 took 40-76 s beside
// two busy loops on 2 cores instead of 2 s). A thread that wants it spins a
// little, then sleeps. A thread waiting in the pml hands it on between
// rounds of progress (hand_on()) to a thread spinning for it, so threads
// that wait at the same time take turns; a sleeping one gets it when the
// holder idles or leaves. A thread that lost the lock after sleeping for it
// kStarvingAfter times is starving: the next unlock hands the lock straight
// to it (it stays held), so a thread calling MPI in a tight loop (MPI_Test
// polling) cannot keep taking it back first (thread_fair: 20000 ping-pongs
// beside such a poller took 31 s in one of three runs instead of 2.5 s).
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "btl/between_polls.hpp"

namespace shmpi::runtime {

class EntryLock {
 public:
  void lock() noexcept {
    std::uint32_t expected = kFree;
    if (state_.compare_exchange_strong(expected, kHeld, std::memory_order_acquire, std::memory_order_relaxed))
      [[likely]]
      return;
    // kContended tells the holder that someone sleeps: its unlock wakes one.
    // A thread woken spins again (the holder hands on to spinners), and
    // takes the lock as kContended: others may still sleep.
    for (std::uint32_t taken_as = kHeld, sleeps = 0;; taken_as = kContended, ++sleeps) {
      if (spin_for_it(taken_as)) return;
      if (state_.exchange(kContended, std::memory_order_seq_cst) == kFree) return;
      if (sleeps == kStarvingAfter) return wait_for_hand_off();
      futex(state_, FUTEX_WAIT_PRIVATE, kContended);
    }
  }

  void unlock() noexcept {
    if (starving_.load(std::memory_order_seq_cst) != 0) {  // hand it on: it stays held
      hand_off_.fetch_add(kHandedOff | kGeneration, std::memory_order_release);
      futex(hand_off_, FUTEX_WAKE_PRIVATE, 1);
      return;
    }
    if (state_.exchange(kFree, std::memory_order_seq_cst) == kContended) futex(state_, FUTEX_WAKE_PRIVATE, 1);
    // One may have turned starving after the first look and seen the lock
    // still held: it must look again (hand_off_ changes, so its wait ends).
    if (starving_.load(std::memory_order_seq_cst) != 0) {
      hand_off_.fetch_add(kGeneration, std::memory_order_release);
      futex(hand_off_, FUTEX_WAKE_PRIVATE, 1);
    }
  }

  // Lets a thread that wants the lock have it (one sleeping for it is
  // woken), and takes it back after. The caller must hold it. A thread that
  // does not take it soon (it has no core yet) is not waited for: false
  // then, and the caller may yield its core to it.
  bool hand_on() noexcept {
    if (spinners_.load(std::memory_order_relaxed) == 0 && state_.load(std::memory_order_relaxed) != kContended)
      return true;
    unlock();
    bool taken = false;
    for (std::uint32_t i = 0; i < kHandOnPolls && !taken; ++i) {
      taken = state_.load(std::memory_order_relaxed) != kFree;
      if (!taken) btl::pause_once();
    }
    lock();
    return taken;
  }

 private:
  static constexpr std::uint32_t kFree = 0, kHeld = 1, kContended = 2;
  // hand_off_: bit 0 set while the lock waits for a starving thread to
  // claim it; the other bits count events starving threads must look at.
  static constexpr std::uint32_t kHandedOff = 1, kGeneration = 2;
  static constexpr std::uint32_t kStarvingAfter = 2;  // futex sleeps lost before a thread starves

  // Takes the lock as a starving thread: handed on by an unlock, or free.
  void wait_for_hand_off() noexcept {
    starving_.fetch_add(1, std::memory_order_seq_cst);
    for (;;) {
      std::uint32_t seen = hand_off_.load(std::memory_order_acquire);
      if ((seen & kHandedOff) != 0) {
        if (hand_off_.compare_exchange_strong(seen, seen & ~kHandedOff, std::memory_order_acquire)) break;
        continue;
      }
      std::uint32_t expected = kFree;
      if (state_.compare_exchange_strong(expected, kContended, std::memory_order_seq_cst)) break;
      futex(hand_off_, FUTEX_WAIT_PRIVATE, seen);
    }
    starving_.fetch_sub(1, std::memory_order_relaxed);
  }
  // Polls a thread spins for the lock before it sleeps; polls a holder
  // handing on waits for a spinner to take it. Both a few microseconds:
  // longer than the holder's round of progress, far shorter than a sleep.
  static constexpr std::uint32_t kSpinPolls = 256;
  static constexpr std::uint32_t kHandOnPolls = 128;

  bool spin_for_it(std::uint32_t taken_as) noexcept {
    spinners_.fetch_add(1, std::memory_order_relaxed);
    bool taken = false;
    for (std::uint32_t i = 0; i < kSpinPolls && !taken; ++i) {
      std::uint32_t expected = kFree;
      taken = state_.load(std::memory_order_relaxed) == kFree &&
              state_.compare_exchange_weak(expected, taken_as, std::memory_order_acquire, std::memory_order_relaxed);
      if (!taken) btl::pause_once();
    }
    spinners_.fetch_sub(1, std::memory_order_relaxed);
    return taken;
  }

  static void futex(std::atomic<std::uint32_t>& word, int op, std::uint32_t value) noexcept {
    ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), op, value, nullptr, nullptr, 0);
  }

  static constexpr std::size_t kCacheLine = 64;
  alignas(kCacheLine) std::atomic<std::uint32_t> state_{kFree};
  alignas(kCacheLine) std::atomic<std::uint32_t> spinners_{0};
  std::atomic<std::uint32_t> starving_{0};   // threads in wait_for_hand_off()
  std::atomic<std::uint32_t> hand_off_{0};   // futex word of starving threads
};

}  // namespace shmpi::runtime
