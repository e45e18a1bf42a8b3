// Point-to-point with datatypes that are not contiguous, at the runtime
// layer. Nothing is packed into a temporary buffer where the pml can move
// the user's runs itself (pml/run_layout.hpp: always, unless the job has
// peers on other nodes): a receive hands it the layout (payloads unpacked
// straight from ring records, or a rendezvous one read into the runs with
// process_vm_readv), and so does a send (packed straight into ring
// records, or its runs read by the receiver). Otherwise a send packs the
// elements into a temporary buffer (the request's PackedBuffer) and sends
// its bytes; a receive receives bytes into one and unpacks them when the
// request completes (finish_packed, called where Wait/Test retire a
// request).
#pragma once

#include "runtime/arg_checks.hpp"
#include "runtime/p2p.hpp"

namespace shmpi::runtime {

// Receivable at a glance: no element overlaps itself and (for more than
// one) the elements follow one another without interleaving. False means
// check_receivable() must look closer, not that the receive is refused.
inline bool plainly_receivable(const DerivedType& derived, int count) noexcept {
  if (derived.overlaps) return false;
  const datatype::Type& t = *derived.layout;
  return count <= 1 || (t.extent() >= 0 && t.extent() >= t.true_extent());
}

// Whether `count` elements of committed `type` may be received into: its
// runs must not overlap one another (MPI-4.1 3.2.2) and, for more than one
// element, its extent must not be negative.
Check check_receivable(const DatatypeTable& types, MPI_Datatype type, int count);

// The runs of transfer `t`'s elements at `buf`, laid out by `type`, for
// the pml to move (where pml.moves_runs()).
inline pml::RunLayout runs_of(const datatype::Type& type, const Transfer& t, const void* buf) noexcept {
  return pml::describe_runs(type.program(), static_cast<std::uint64_t>(t.count), type.extent(), buf);
}

// Starts packed send `t` of the elements at `buf` (laid out by `layout`,
// t.packed_type's) to world rank `dest` on request `r`: from the runs where
// the pml can, else from a packed copy.
void start_packed_send(Context& context, MpiRequest& r, const Transfer& t, const datatype::TypeRef& layout,
                       std::uint32_t dest, const void* buf, pml::SendMode mode);
// Starts packed receive `t` into the elements at `buf` on request `r`:
// straight into the runs where the pml can, else through a buffer.
void start_packed_recv(Context& context, MpiRequest& r, const Transfer& t, const datatype::TypeRef& layout,
                       void* buf);

// MPI_Mrecv / MPI_Imrecv of matched `message` into packed receive `t`'s
// elements at `buf`, as start_packed_recv() receives.
void start_packed_mrecv(Context& context, MpiRequest& r, const Transfer& t, const datatype::TypeRef& layout,
                        pml::Unexpected& message, void* buf);

// Gives request `r` the buffer packed receive `t` receives into (unpacked
// into `buf` by finish_packed) and returns it.
void* receive_buffer(MpiRequest& r, const Transfer& t, const datatype::TypeRef& layout, void* buf);

// At completion: unpacks what a packed receive got and frees the buffer.
void finish_packed_buffer(MpiRequest& r);
inline void finish_packed(MpiRequest& r) {
  if (r.packed.active()) finish_packed_buffer(r);
}

// Sends standard-mode packed transfer `t` in one eager record now, packed
// straight from the runs at `buf`, if the pml can (no request, as a small
// contiguous send); false: send_packed() it.
bool send_packed_now(Context& context, const Transfer& t, const void* buf);

// Blocking forms: the whole send or receive of packed transfer `t`.
int send_packed(Context& context, const char* call, const Transfer& t, const void* buf, pml::SendMode mode);
int recv_packed(Context& context, const char* call, const Transfer& t, void* buf, MPI_Status* status);

}  // namespace shmpi::runtime
