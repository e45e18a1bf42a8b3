// Context: everything one MPI process holds between MPI_Init and
// MPI_Finalize. It is the one mutable global the C API needs; everything
// below it (pml, btl) takes its state by reference.
#pragma once

#include <sched.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "btl/transport.hpp"
#include "mpi.h"
#include "net/network.hpp"
#include "pml/pml.hpp"
#include "runtime/bsend_buffer.hpp"
#include "runtime/communicator.hpp"
#include "runtime/communicator_table.hpp"
#include "runtime/config.hpp"
#include "runtime/datatype.hpp"
#include "runtime/entry_lock.hpp"
#include "runtime/idle_threads.hpp"
#include "runtime/kv_store.hpp"
#include "runtime/message_table.hpp"
#include "runtime/object_tables.hpp"
#include "runtime/request_table.hpp"
#include "runtime/schedule.hpp"
#include "runtime/send_target.hpp"
#include "runtime/shm_collectives.hpp"
#include "runtime/status_page.hpp"

namespace shmpi::runtime {

class Context {
 public:
  // Wires this rank up with its peers through `store`, with the tunables of
  // `config` (MPI_Init parses them from the environment; tests build their
  // own). Throws WireUpError (one line for the user) or std::system_error.
  Context(const Config& config, std::unique_ptr<KvStore> store);
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  std::uint32_t rank() const noexcept { return transport_.rank(); }
  std::uint32_t size() const noexcept { return transport_.size(); }
  const Config& config() const noexcept { return config_; }
  pml::Pml& pml() noexcept { return pml_; }
  const btl::Transport& transport() const noexcept { return transport_; }
  bool single_copy_enabled() const noexcept { return single_copy_.enabled(); }
  btl::SingleCopy& single_copy() noexcept { return single_copy_; }
  KvStore& store() noexcept { return *store_; }
  StatusPage& status() noexcept { return status_; }

  // The communicator behind `handle`, or nullptr if it names none.
  Communicator* communicator(MPI_Comm handle) noexcept { return communicators_.find(handle); }
  CommunicatorTable& communicators() noexcept { return communicators_; }
  DatatypeTable& datatypes() noexcept { return datatypes_; }
  RequestTable& requests() noexcept { return requests_; }
  BsendBuffer& bsend_buffer() noexcept { return bsend_; }
  MessageTable& messages() noexcept { return messages_; }
  SendTargetCache& send_targets() noexcept { return send_targets_; }
  ObjectTables& objects() noexcept { return objects_; }
  Schedules& schedules() noexcept { return schedules_; }
  UserOps& user_ops() noexcept { return user_ops_; }
  ShmCollectives& shm_collectives() noexcept { return shm_collectives_; }

  // One round of progress, nonblocking collectives included (the Test calls).
  bool progress() noexcept {
    const bool moved = pml_.progress();
    schedules_.progress(pml_);
    if (moved && shared_ != nullptr) tell_stand_by();  // it may be another thread's
    return moved;
  }
  // Under MPI_THREAD_MULTIPLE, as a call starts and returns; what a call
  // moved may have completed what threads standing by wait for.
  void call_entered() noexcept { idle_threads_.call_entered(); }
  void call_leaving() noexcept {
    idle_threads_.call_left();
    tell_stand_by();
  }
  PartitionedPairing& partitioned_pairing() noexcept { return partitioned_pairing_; }

  // Recycles completed orphaned requests and their Bsend space.
  void reap() noexcept {
    if (requests_.orphans() != 0) requests_.reap([this](std::size_t offset) { bsend_.release(offset); });
  }

  // Runs `request` to completion, telling the status page what we wait for
  // if it does not complete at once.
  void wait(pml::Request& request, const BlockedCall& call) noexcept {
    wait_until([&request] { return request.complete; }, call);
  }

  // Progresses until done() (Pml::wait_until), with the status page saying
  // what we wait for should the wait last. Under MPI_THREAD_MULTIPLE the
  // wait hands the rank's lock on between rounds and sleeps without it.
  template <class Done>
  void wait_until(Done&& finished, const BlockedCall& call) noexcept {
    // Nonblocking collectives move on whenever the rank waits for anything.
    auto done = [&] {
      schedules_.progress(pml_);
      return finished();
    };
    if (shared_ == nullptr) [[likely]] {
      pml_.wait_until(done, LongWaitReport{{}, status_, call, requests_});
      return;
    }
    waiting_.push_back(&call);  // for MPI_Finalize's report of what other threads wait for
    pml_.wait_until(done, SharedWait{LongWaitReport{{}, status_, call, requests_}, *shared_, *this});
    std::erase(waiting_, &call);
  }

  // MPI_THREAD_MULTIPLE: every call holds `lock` (runtime/thread_support.hpp).
  void share_between_threads(EntryLock& lock) noexcept { shared_ = &lock; }
  // Under MPI_THREAD_MULTIPLE: what the threads now in wait_until() wait for.
  const std::vector<const BlockedCall*>& waiting() const noexcept { return waiting_; }

  // Completes outstanding sends, synchronises with every rank, and tells
  // the launcher we are done.
  void finalize();

 private:
  // Writes what a long wait waits for into the status page (the hang report).
  struct LongWaitReport : pml::Unwatched {
    StatusPage& page;
    const BlockedCall& call;
    const RequestTable& requests;
    void long_wait() noexcept { page.blocked(call, requests.active()); }
    void long_wait_over() noexcept { page.unblocked(call); }
  };
  // A wait of one of several threads: one of them progresses, the others
  // stand by (IdleThreads); the lock goes to threads that want it between
  // rounds, and nobody holds it while idle.
  struct SharedWait {
    LongWaitReport report;
    EntryLock& lock;
    Context& context;
    ~SharedWait() { context.idle_threads_.leave(this); }
    void long_wait() noexcept { report.long_wait(); }
    void long_wait_over() noexcept { report.long_wait_over(); }
    template <class Done>
    pml::Turn take_turn(Done& done) noexcept {
      return context.idle_threads_.take_turn(lock, this, done);
    }
    // Each round tells the stand-bys what it (or a done(), as a probe's)
    // moved: a move left untold can leave one asleep for good.
    // A thread that wants the lock but did not take it, or one woken, may
    // be waiting for this core: it gets it, and the progressing with it.
    void between_rounds() noexcept {
      context.tell_stand_by();
      const bool handed_on = lock.hand_on();
      if (!handed_on || context.idle_threads_.others_working()) {
        context.idle_threads_.step_down(this);
        unlocked([] { ::sched_yield(); });
      }
    }
    template <class Idle>
    void unlocked(Idle&& idle) noexcept {
      lock.unlock();
      idle();
      lock.lock();
    }
    template <class Ready, class Sleep>
    void sleep(long /*timeout_ns*/, Ready&& ready, Sleep&& sleep) noexcept {
      context.tell_stand_by();  // a move of this round's done()
      if (!ready()) return;
      lock.unlock();
      sleep();
      lock.lock();
    }
  };

  // Asks the threads standing by whether their waits are over, once per
  // pml move (the wait loop, Context::progress and a returning call may
  // each see the same one).
  void tell_stand_by() noexcept {
    if (pml_.moves() == moves_told_) return;
    moves_told_ = pml_.moves();
    idle_threads_.progressed();
  }

  void wire_up();
  void connect_network(const std::vector<bool>& local);
  void probe_single_copy(const std::vector<bool>& local) noexcept;

  Config config_;
  std::unique_ptr<KvStore> store_;
  btl::Transport transport_;
  btl::SingleCopy single_copy_;
  // Peers on other nodes (nullptr when there are none: no UCX at all).
  // Outlives pml_, which points to it.
  std::unique_ptr<net::Network> network_;
  pml::Pml pml_;
  StatusPage status_;
  CommunicatorTable communicators_;
  DatatypeTable datatypes_;
  RequestTable requests_;
  BsendBuffer bsend_;
  MessageTable messages_;
  SendTargetCache send_targets_;
  ObjectTables objects_;
  Schedules schedules_;
  UserOps user_ops_;
  ShmCollectives shm_collectives_;
  PartitionedPairing partitioned_pairing_;
  EntryLock* shared_ = nullptr;              // MPI_THREAD_MULTIPLE: the rank's lock
  IdleThreads idle_threads_;                 // MPI_THREAD_MULTIPLE: who sleeps where
  std::uint64_t moves_told_ = 0;             // pml_.moves() at the last tell_stand_by()
  std::vector<const BlockedCall*> waiting_;  // under *shared_: calls now waiting
};

// The process's context: nullptr before MPI_Init and after MPI_Finalize.
Context* current_context() noexcept;
void set_current_context(std::unique_ptr<Context> context) noexcept;
std::unique_ptr<Context> take_current_context() noexcept;

// Whether MPI_Init / MPI_Finalize have completed (for MPI_Initialized and
// MPI_Finalized, which may be called at any time).
bool was_initialized() noexcept;
bool was_finalized() noexcept;

}  // namespace shmpi::runtime
