#include "runtime/persistent.hpp"

#include "runtime/api.hpp"
#include "runtime/p2p.hpp"
#include "runtime/packed_transfer.hpp"

namespace shmpi::runtime {
namespace {

// The operation completed as it started (MPI_PROC_NULL, a buffered or an
// eager send that left at once): what a wait then reports.
void complete_now(MpiRequest& r, pml::RequestKind kind) noexcept {
  r.pml.kind = kind;
  r.pml.status = pml::Status{};
  r.pml.started = false;  // nothing in the pml to cancel (the last round's send may have left)
  r.pml.complete = true;
}

// The round's Transfer, for the calls the nonblocking path shares (a
// non-contiguous type's are given a.layout itself: its handle may be
// freed); nullptr comm if the communicator was freed.
Transfer transfer_of(Context& context, const MpiRequest& r) {
  const PersistentArgs& a = r.persistent;
  Transfer t{context.communicator(r.comm), r.comm, a.bytes, a.peer, a.envelope.tag, 1};
  t.count = a.count;
  return t;
}

// MPI_Bsend_init: each round copies into the attached buffer, as MPI_Bsend
// does, and the request is complete once the copy is made.
int start_buffered(Context& context, MpiRequest& r, const char* call) {
  const PersistentArgs& a = r.persistent;
  const Transfer t = transfer_of(context, r);
  if (t.comm == nullptr)
    return raise_error(context, nullptr, call, MPI_ERR_COMM, "the request's communicator was freed");
  if (int rc = buffered_send(context, call, t, a.buffer, a.layout.get())) return rc;
  r.inactive = false;
  complete_now(r, pml::RequestKind::Send);
  return MPI_SUCCESS;
}

// A round of a non-contiguous type: as MPI_Isend / MPI_Irecv move it (its
// runs, or a packed copy), into the request's own pml::Request.
int start_packed(Context& context, MpiRequest& r, const char* call) {
  const PersistentArgs& a = r.persistent;
  const Transfer t = transfer_of(context, r);
  if (t.comm == nullptr)
    return raise_error(context, nullptr, call, MPI_ERR_COMM, "the request's communicator was freed");
  if (a.op == PersistentArgs::Op::Recv)
    start_packed_recv(context, r, t, a.layout, a.buffer);
  else
    start_packed_send(context, r, t, a.layout, a.world_peer, a.buffer, a.mode);
  return MPI_SUCCESS;
}

}  // namespace

int start_persistent(Context& context, MpiRequest& r, const char* call) {
  const PersistentArgs& a = r.persistent;
  if (a.op == PersistentArgs::Op::Bsend) return start_buffered(context, r, call);
  r.inactive = false;
  if (r.proc_null) {
    complete_now(r, a.op == PersistentArgs::Op::Recv ? pml::RequestKind::Recv : pml::RequestKind::Send);
    return MPI_SUCCESS;
  }
  if (a.layout != nullptr) return start_packed(context, r, call);
  pml::Pml& pml = context.pml();
  if (a.op == PersistentArgs::Op::Recv) {
    pml.start_recv(r.pml, a.envelope, a.buffer, a.bytes);
    return MPI_SUCCESS;
  }
  // A standard send of one eager record leaves now if nothing of ours to
  // the peer is queued (as MPI_Send does): no send queue, no completion later.
  if (a.mode == pml::SendMode::Standard && pml.try_send_eager_now(a.world_peer, a.envelope, a.buffer, a.bytes)) {
    complete_now(r, pml::RequestKind::Send);
    return MPI_SUCCESS;
  }
  pml.start_send(r.pml, a.world_peer, a.envelope, a.buffer, a.bytes, a.mode);
  return MPI_SUCCESS;
}

}  // namespace shmpi::runtime
