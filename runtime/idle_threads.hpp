// IdleThreads: how the threads of an MPI_THREAD_MULTIPLE rank share the
// waiting.
//
// One waiting thread progresses the rank at a time (the first to wait);
// the others stand by, each asleep on a word of its own (a private futex).
// After every round of progress that moved something, the progressing
// thread asks each one's done() on its behalf (holding the lock, which
// done() needs) and wakes only those whose wait is over; when its own wait
// ends it wakes one stand-by to take over. So a message costs one wake-up,
// of the thread it was for. (With every waiter contending for the lock
// after every round, or all of them woken at each move, threads that
// outnumber cores took turns at the scheduler's pace.)
//
// The progressing thread sleeps on the rank's doorbell when nothing moves
// (btl::Transport, built for one sleeper).
//
// When threads outnumber cores, a thread it woke, or one waiting for the
// lock, may need the very core it spins on: it then steps down and yields
// (Context::SharedWait::between_rounds), and the thread that runs next
// progresses in its own wait. osu_latency_mt -t 4 on 2 cores, 16-64 KiB:
// 3-170 us from run to run (the woken thread waited out a ~100 us spin)
// against 4-9 us.
//
// Every member is used with the rank's EntryLock held, except the sleeping
// itself, which releases it.
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <ctime>

#include "pml/wait_loop.hpp"
#include "runtime/entry_lock.hpp"

namespace shmpi::runtime {

class IdleThreads {
 public:
  // `waiter`'s turn in its wait: Progress if it progresses the rank (no
  // other thread does); else it sleeps until it is woken, and then Done if
  // the progressing thread found done() true for it (done() must not be
  // asked again: it may have taken a message), LookAgain otherwise.
  template <class Done>
  pml::Turn take_turn(EntryLock& lock, const void* waiter, Done& done) noexcept {
    if (progressor_ == nullptr) progressor_ = waiter;
    if (progressor_ == waiter) return pml::Turn::Progress;
    StandBy me{[](void* d) { return static_cast<bool>((*static_cast<Done*>(d))()); }, &done};
    link(me);
    ++standing_;
    lock.unlock();
    timespec timeout{0, kStandByNs};
    while (me.word.load(std::memory_order_acquire) == 0) {
      if (::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&me.word), FUTEX_WAIT_PRIVATE, 0,
                    safety_timeout_ ? &timeout : nullptr, nullptr, 0) != 0 &&
          errno == ETIMEDOUT)
        break;
    }
    lock.lock();
    unlink(me);
    if (me.word.load(std::memory_order_relaxed) == 0) --standing_;  // timed out: nobody woke it
    return me.finished ? pml::Turn::Done : pml::Turn::LookAgain;
  }

  // Test hook (test_stand_by_timeout=off): no safety timeout, so a stand-by
  // that nobody wakes hangs instead of waiting 10 ms.
  void without_safety_timeout() noexcept { safety_timeout_ = false; }

  // Calls of the rank's threads now running (entered, not returned).
  void call_entered() noexcept { ++calls_; }
  void call_left() noexcept { --calls_; }
  // Some other thread of the rank is in a call and not standing by: it has
  // work to do, and may need the core the progressing thread spins on.
  bool others_working() const noexcept { return calls_ > 1 + standing_; }

  // Threads standing by now, not yet woken: a woken one counts as working
  // from the wake-up on, before it runs.
  std::uint32_t standing() const noexcept { return standing_; }

  // Something moved: wakes the stand-by threads whose wait it ended; true
  // if it woke one.
  bool progressed() noexcept {
    if (asking_) return false;  // a done() progressed: its caller asks the rest
    asking_ = true;
    bool woke = false;
    for (StandBy* s = first_; s != nullptr; s = s->next)
      if (!s->finished && s->done_fn(s->done)) {
        s->finished = true;
        wake(*s);
        woke = true;
      }
    asking_ = false;
    return woke;
  }

  // `waiter`, progressing, yields its core to a thread of the rank that
  // needs it: it stops progressing, so that thread progresses when it waits
  // in turn, and `waiter` stands by then instead of taking the core back.
  void step_down(const void* waiter) noexcept {
    if (progressor_ == waiter) progressor_ = nullptr;
  }

  // `waiter`'s wait is over: if it was progressing, or nobody is (it
  // stepped down), a stand-by takes over.
  void leave(const void* waiter) noexcept {
    if (progressor_ != waiter && progressor_ != nullptr) return;
    progressor_ = nullptr;
    for (StandBy* s = first_; s != nullptr; s = s->next)
      if (!s->finished) {
        wake(*s);
        return;
      }
  }

 private:
  // A safety net only: a stand-by is woken by progressed() or leave().
  static constexpr long kStandByNs = 10'000'000;

  struct StandBy {
    bool (*done_fn)(void*);
    void* done;
    std::atomic<std::uint32_t> word{0};  // 1: woken
    bool finished = false;               // done() was true (asked by the progressing thread)
    StandBy* next = nullptr;
    StandBy* prev = nullptr;
  };

  void link(StandBy& s) noexcept {
    s.next = first_;
    if (first_ != nullptr) first_->prev = &s;
    first_ = &s;
  }
  void unlink(StandBy& s) noexcept {
    (s.prev != nullptr ? s.prev->next : first_) = s.next;
    if (s.next != nullptr) s.next->prev = s.prev;
  }
  void wake(StandBy& s) noexcept {
    if (s.word.load(std::memory_order_relaxed) != 0) return;  // woken already, not yet back
    --standing_;
    s.word.store(1, std::memory_order_release);
    ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&s.word), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
  }

  StandBy* first_ = nullptr;          // threads standing by, newest first
  const void* progressor_ = nullptr;  // the waiting thread that progresses
  bool asking_ = false;               // in progressed()
  bool safety_timeout_ = true;        // see without_safety_timeout()
  std::uint32_t calls_ = 0;           // see call_entered()
  std::uint32_t standing_ = 0;        // threads in take_turn()'s sleep, not yet woken
};

}  // namespace shmpi::runtime
