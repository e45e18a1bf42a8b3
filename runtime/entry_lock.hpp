// EntryLock: the lock every MPI call of a rank holds while it runs, when
// the rank granted MPI_THREAD_MULTIPLE (runtime/thread_support.hpp).
//
// A ticket lock: threads get it in the order they asked for it. A thread
// waiting in the pml hands it on after each round of progress while others
// want it (hand_on()), so threads waiting at the same time take turns, one
// round each, instead of the last holder winning the race to re-take it.
// A thread that must wait for its turn spins a little, then sleeps on
// serving_ (std::atomic::wait: a futex), so a turn costs no core while the
// holder runs.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace shmpi::runtime {

class EntryLock {
 public:
  void lock() noexcept {
    // next_: the ticket of the next thread to ask; taken by every locker
    // (relaxed: the acquire below orders what the holder wrote).
    const std::uint32_t ticket = next_.fetch_add(1, std::memory_order_relaxed);
    // serving_: the ticket that may run; written only by the holder
    // (release in unlock()), read by every waiter (acquire).
    for (std::uint32_t now = serving_.load(std::memory_order_acquire); now != ticket;
         now = serving_.load(std::memory_order_acquire))
      serving_.wait(now, std::memory_order_acquire);
  }

  void unlock() noexcept {
    serving_.fetch_add(1, std::memory_order_release);
    serving_.notify_all();  // every waiter checks whether its ticket came up
  }

  // Some other thread holds a ticket: it waits for the lock.
  bool contended() const noexcept {
    return next_.load(std::memory_order_relaxed) - serving_.load(std::memory_order_relaxed) > 1;
  }

  // Lets the threads waiting for the lock have it, in turn, and takes it
  // back after them. The caller must hold it.
  void hand_on() noexcept {
    if (!contended()) return;
    unlock();
    lock();
  }

 private:
  static constexpr std::size_t kCacheLine = 64;
  alignas(kCacheLine) std::atomic<std::uint32_t> next_{0};
  alignas(kCacheLine) std::atomic<std::uint32_t> serving_{0};
};

}  // namespace shmpi::runtime
