// Thread support: the level MPI_Init_thread granted, the thread that
// called it, and, under MPI_THREAD_MULTIPLE, the rank's EntryLock.
//
// Granularity: one lock per rank, held by a call from its entry to its
// return (Entry, taken by enter() in runtime/api.hpp), and handed on by a
// waiting call between rounds of progress (Context::wait_until). The pml
// is one state machine (matching queues, per-peer send queues, rings,
// rendezvous state) that any call may advance for every request, so finer
// locks would have to cover nearly all of it at once anyway; MPICH's
// default build makes the same choice (one global critical section rather
// than per-VCI ones). Below MPI_THREAD_MULTIPLE nothing is locked: a call
// pays one predictable branch on `shared`.
//
// Process-wide and outliving the Context: a thread racing with
// MPI_Finalize takes the lock, then finds the context gone (or finalizing)
// and fails with one line naming its call, instead of using a freed one.
#pragma once

#include <pthread.h>

#include <atomic>

#include "mpi.h"
#include "runtime/entry_lock.hpp"

namespace shmpi::runtime {

class Context;

struct ThreadSupport {
  // MPI_THREAD_MULTIPLE granted: every call takes `lock`. Written once by
  // MPI_Init_thread before the context exists (relaxed: no other thread
  // may call MPI before MPI_Init_thread returns).
  std::atomic<bool> shared{false};
  int provided = MPI_THREAD_SINGLE;  // written with `shared`
  pthread_t main_thread{};           // written with `shared`
  EntryLock lock;
  // Under `lock`: MPI_Finalize has begun; calls of other threads are refused.
  bool finalizing = false;
};

// The one instance (runtime/thread_support.cpp).
extern ThreadSupport g_thread_support;

inline bool threads_share_rank() noexcept { return g_thread_support.shared.load(std::memory_order_relaxed); }

// What an MPI call holds while it runs: the context, and under
// MPI_THREAD_MULTIPLE the rank's lock, released when the call returns.
class Entry {
 public:
  Entry(Context& context, EntryLock* held) noexcept : context_(context), held_(held) {}
  Entry(const Entry&) = delete;
  Entry& operator=(const Entry&) = delete;
  ~Entry() {
    if (held_ != nullptr) leave(*held_);  // (the context may be gone: MPI_Finalize)
  }
  Context& context() const noexcept { return context_; }

 private:
  static void leave(EntryLock& lock) noexcept;
  Context& context_;
  EntryLock* held_;
};

// enter() under MPI_THREAD_MULTIPLE: takes the lock unless this thread
// already holds it (a call made from a callback of a call: an error
// handler, an attribute's delete function, a user reduction); fails like
// context_for() if MPI is not (or no longer) initialised.
Entry enter_shared(const char* call);

// MPI_Finalize under MPI_THREAD_MULTIPLE, holding the lock: refuses (one
// line per operation, then the error as raised) while other threads have
// calls blocked or requests pending, else marks the rank finalizing.
int begin_shared_finalize(Context& context);

}  // namespace shmpi::runtime
