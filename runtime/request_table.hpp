// RequestTable: the MPI_Request handles of this process.
//
// A handle names a slot whose pml::Request stays at a fixed address until
// the request completes (the pml uses that address as its cookie). A
// request the user frees while it is still active (MPI_Request_free, or the
// internal send of an MPI_Bsend) becomes an orphan, recycled by reap() once
// it completes.
//
// Persistent and partitioned requests (MPI_Send_init, MPI_Psend_init, ...)
// outlive their operations: completing one (retire()) leaves it inactive,
// with its handle, until MPI_Start starts it again or MPI_Request_free
// frees it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "mpi.h"
#include "pml/request.hpp"
#include "runtime/partitioned.hpp"
#include "runtime/persistent.hpp"
#include "runtime/packed_buffer.hpp"

namespace shmpi::runtime {

// How long a request lives: a one-shot request (MPI_Isend, MPI_Irecv, ...)
// is freed once the user sees it complete; the others become inactive.
enum class RequestLife : std::uint8_t { Once, Persistent, Partitioned };

struct MpiRequest {
  // The operation in flight. A partitioned request's operation is made of
  // several pml requests (its PartitionedOp's): this one then only holds
  // its completion, its status and what the hang report shows, and never
  // reaches the pml.
  pml::Request pml;
  MPI_Comm comm = MPI_COMM_NULL;  // for error handlers and messages
  bool proc_null = false;         // to or from MPI_PROC_NULL: complete at once
  bool in_use = false;
  bool orphan = false;            // freed by the user while active
  bool buffered = false;          // the internal send of an MPI_Bsend
  bool collective = false;        // a nonblocking collective's (runtime/schedule.hpp)
  RequestLife life = RequestLife::Once;
  // Persistent or partitioned, and not started since it was made or last
  // completed. pml.complete is then true, so a wait over it ends at once.
  bool inactive = false;
  std::size_t buffer_offset = 0;  // buffered: where its copy lives in the attached buffer
  PackedBuffer packed;            // a non-contiguous datatype's bytes (runtime/packed_transfer.hpp)
  MpiRequest* next_free = nullptr;
  MPI_Request handle = MPI_REQUEST_NULL;       // fixed for the slot's lifetime
  PersistentArgs persistent;                   // life == Persistent: what MPI_Start starts
  std::unique_ptr<PartitionedOp> partitioned;  // life == Partitioned
};

class RequestTable {
 public:
  // A fresh slot and its handle.
  MpiRequest& allocate(MPI_Request& handle);
  // The request behind `handle` (active, or persistent and inactive), or nullptr.
  MpiRequest* find(MPI_Request handle) noexcept {
    if (handle <= MPI_REQUEST_NULL || static_cast<std::size_t>(handle) > slots_.size()) return nullptr;
    MpiRequest* r = slots_[static_cast<std::size_t>(handle) - 1];
    return r->in_use && !r->orphan ? r : nullptr;
  }
  void release(MPI_Request handle) noexcept { release(*slots_[static_cast<std::size_t>(handle) - 1]); }
  void release(MpiRequest& r) noexcept {
    if (r.life == RequestLife::Partitioned) r.partitioned.reset();
    r.in_use = false;
    r.orphan = false;
    r.next_free = free_;
    free_ = &r;
    --active_;
  }
  // The user no longer holds `handle`; the slot is recycled once complete.
  void orphan(MPI_Request handle) noexcept;
  // The user has seen `r` complete (MPI_Wait, MPI_Test, ...): a one-shot
  // request is freed and `handle` nulled; any other becomes inactive.
  void retire(MpiRequest& r, MPI_Request& handle) noexcept {
    if (r.life == RequestLife::Once) {
      release(r);
      handle = MPI_REQUEST_NULL;
    } else {
      r.inactive = true;
    }
  }

  // Recycles completed orphans; calls on_buffered(offset) for each
  // completed internal Bsend so its buffer space can be reused.
  template <class OnBuffered>
  void reap(OnBuffered&& on_buffered) noexcept {
    std::erase_if(orphans_, [&](MpiRequest* r) {
      if (!r->pml.complete) return false;
      if (r->buffered) on_buffered(r->buffer_offset);
      release(*r);
      return true;
    });
  }

  std::size_t orphans() const noexcept { return orphans_.size(); }
  // Orphaned sends (freed by the user, or buffered) still in flight.
  bool orphan_sends_pending() const noexcept {
    for (const MpiRequest* r : orphans_)
      if (r->pml.kind == pml::RequestKind::Send && !r->pml.complete) return true;
    return false;
  }
  std::uint32_t active() const noexcept { return active_; }
  // Calls f(handle, request) for each request the user holds whose
  // operation has not completed (MPI_Finalize's report of what is pending).
  template <class F>
  void for_each_pending(F&& f) const {
    for (const MpiRequest* r : slots_)
      if (r->in_use && !r->orphan && !r->inactive && !r->pml.complete) f(r->handle, *r);
  }

 private:
  // Requests live in chunks that never move (the pml holds their
  // addresses); handle h names slots_[h - 1], one load away.
  static constexpr std::size_t kChunk = 64;
  std::vector<std::unique_ptr<MpiRequest[]>> chunks_;
  std::vector<MpiRequest*> slots_;
  MpiRequest* free_ = nullptr;
  std::vector<MpiRequest*> orphans_;
  std::uint32_t active_ = 0;
};

}  // namespace shmpi::runtime
