// IdleThreads: how the threads of an MPI_THREAD_MULTIPLE rank sleep when
// their waits have nothing to do.
//
// A rank has one doorbell (btl::Transport::wait_for_records), built for one
// sleeper. So one thread at a time sleeps on it; the others sleep on a word
// of their own process (a private futex) until a thread's progress moves
// something (which may have completed what they wait for: the thread that
// moves a record need not be the one waiting for it) or the doorbell sleeper
// wakes. Without this, a thread whose request another thread completed slept
// out its whole timeout, once per message.
//
// Every member is used with the rank's EntryLock held, except the sleeping
// itself, which releases it; generation_ is atomic because a sleeper reads
// it in the kernel without the lock.
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdint>
#include <ctime>

#include "runtime/entry_lock.hpp"

namespace shmpi::runtime {

class IdleThreads {
 public:
  // Sleeps the caller, which holds `lock`, for at most timeout_ns: on the
  // doorbell (`ready` with the lock, then `sleep` without) if no other
  // thread is on it, else on our own word.
  template <class Ready, class Sleep>
  void sleep(EntryLock& lock, long timeout_ns, Ready&& ready, Sleep&& sleep) noexcept {
    if (!doorbell_taken_) {
      if (!ready()) return;  // something came in: no sleep
      doorbell_taken_ = true;
      lock.unlock();
      sleep();
      lock.lock();
      doorbell_taken_ = false;
      wake_all();  // one of them takes the doorbell over, and all look again
      return;
    }
    const std::uint32_t seen = generation_.load(std::memory_order_relaxed);
    ++sleepers_;
    lock.unlock();
    timespec timeout{timeout_ns / 1'000'000'000, timeout_ns % 1'000'000'000};
    ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&generation_), FUTEX_WAIT_PRIVATE, seen, &timeout,
              nullptr, 0);
    lock.lock();
    --sleepers_;
  }

  // A thread's progress moved something: the threads asleep on our word
  // look again. Costs nothing while none sleeps.
  void progressed() noexcept {
    if (sleepers_ != 0) wake_all();
  }

 private:
  void wake_all() noexcept {
    if (sleepers_ == 0) return;
    generation_.fetch_add(1, std::memory_order_relaxed);
    ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&generation_), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr,
              nullptr, 0);
  }

  std::atomic<std::uint32_t> generation_{0};
  std::uint32_t sleepers_ = 0;   // threads asleep on generation_
  bool doorbell_taken_ = false;  // a thread sleeps on the rank's doorbell
};

}  // namespace shmpi::runtime
