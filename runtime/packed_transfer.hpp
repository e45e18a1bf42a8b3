// Point-to-point with datatypes that are not contiguous, at the runtime
// layer: a send packs the elements into a temporary buffer (the request's
// PackedBuffer) and sends its bytes; a receive receives bytes into one and
// unpacks them when the request completes (finish_packed, called where
// Wait/Test retire a request). The pml only ever sees contiguous bytes.
//
// This is the simple path. The pml is to replace it: pack small messages
// straight into ring records and pipelined ones fragment by fragment with a
// datatype::Cursor, and move rendezvous data with process_vm_readv/writev
// over datatype::next_iovecs batches, so nothing is packed twice.
#pragma once

#include "runtime/arg_checks.hpp"
#include "runtime/p2p.hpp"

namespace shmpi::runtime {

// Whether `count` elements of committed `type` may be received into: its
// runs must not overlap one another (MPI-4.1 3.2.2) and, for more than one
// element, its extent must not be negative.
Check check_receivable(const DatatypeTable& types, MPI_Datatype type, int count);

// Packs the elements of packed send `t` into request `r`'s buffer and
// returns the bytes to send.
const void* pack_for_send(Context& context, MpiRequest& r, const Transfer& t, const void* buf);

// Gives request `r` the buffer packed receive `t` receives into (unpacked
// into `buf` by finish_packed) and returns it.
void* receive_buffer(Context& context, MpiRequest& r, const Transfer& t, void* buf);

// At completion: unpacks what a packed receive got and frees the buffer.
void finish_packed_buffer(MpiRequest& r);
inline void finish_packed(MpiRequest& r) {
  if (r.packed.active()) finish_packed_buffer(r);
}

// Blocking forms: the whole send or receive of packed transfer `t`.
int send_packed(Context& context, const char* call, const Transfer& t, const void* buf, pml::SendMode mode);
int recv_packed(Context& context, const char* call, const Transfer& t, void* buf, MPI_Status* status);

}  // namespace shmpi::runtime
