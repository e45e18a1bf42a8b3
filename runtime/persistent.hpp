// Persistent point-to-point requests (MPI_Send_init, MPI_Bsend_init,
// MPI_Ssend_init, MPI_Rsend_init, MPI_Recv_init; MPI-3.1 3.9).
//
// Everything a round needs is checked and resolved once, when the request
// is made: the peer's world rank, the communicator's context, our rank in
// it, the byte count. MPI_Start then hands these straight to the pml, into
// the request's own pml::Request: no argument checks, no communicator or
// datatype lookup, no handle allocation (what MPI_Isend pays every time).
#pragma once

#include <cstddef>
#include <cstdint>

#include "datatype/type.hpp"
#include "pml/request.hpp"

namespace shmpi::runtime {

class Context;
struct MpiRequest;

struct PersistentArgs {
  enum class Op : std::uint8_t { Send, Bsend, Recv };
  Op op = Op::Send;
  pml::SendMode mode = pml::SendMode::Standard;  // Send: standard (and ready) or synchronous
  std::uint32_t world_peer = 0;  // Send/Bsend: the destination's world rank
  std::int32_t peer = 0;         // communicator rank, MPI_ANY_SOURCE or MPI_PROC_NULL
  // Send: (context, our rank, tag); Recv: (context, source, tag), which may
  // hold wildcards.
  pml::Envelope envelope;
  void* buffer = nullptr;  // a send's buffer is only read
  std::size_t bytes = 0;   // send: length; receive: capacity
  // A datatype that is not contiguous: `count` elements of this layout
  // (held: the user may free the type's handle), packed or moved as runs
  // each round as the nonblocking calls do; else nullptr.
  datatype::TypeRef layout;
  int count = 0;
};

// Starts the inactive persistent request `r` (the caller checked that it
// is one). MPI_SUCCESS, or the error of an MPI_Bsend_init's copy into the
// attached buffer as the handler returned it (the request then stays inactive).
int start_persistent(Context& context, MpiRequest& r, const char* call);

}  // namespace shmpi::runtime
