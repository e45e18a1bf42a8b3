// What the point-to-point entry points share: argument checks that turn
// (buffer, count, datatype, peer, tag, communicator) into a checked
// Transfer, starting requests, and turning completed requests into
// MPI_Status values and error codes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "mpi.h"
#include "pml/request.hpp"
#include "runtime/context.hpp"
#include "runtime/request_table.hpp"

namespace shmpi::runtime {

struct Transfer {
  const Communicator* comm = nullptr;
  MPI_Comm handle = MPI_COMM_NULL;
  std::size_t bytes = 0;     // count * datatype size
  std::int32_t peer = 0;     // communicator rank, MPI_ANY_SOURCE or MPI_PROC_NULL
  std::int32_t tag = 0;
  std::size_t element = 0;   // bytes per datatype element
  // A committed datatype that is not contiguous: its elements are packed
  // through a temporary buffer (runtime/packed_transfer.hpp); else NULL.
  MPI_Datatype packed_type = MPI_DATATYPE_NULL;
  int count = 0;             // elements (set with packed_type)
  bool proc_null() const noexcept { return peer == MPI_PROC_NULL; }
  bool packed() const noexcept { return packed_type != MPI_DATATYPE_NULL; }
  // World rank of a concrete peer, -1 for MPI_ANY_SOURCE (for the status page).
  std::int32_t world_peer() const noexcept {
    return peer >= 0 ? static_cast<std::int32_t>(comm->world_rank(peer)) : -1;
  }
};

// Check a send's / receive's arguments. MPI_SUCCESS with `out` filled, or
// the error as the communicator's handler returned it.
int prepare_send(Context& context, const char* call, const void* buf, int count, MPI_Datatype type, int dest,
                 int tag, MPI_Comm comm, Transfer& out);
int prepare_recv(Context& context, const char* call, const void* buf, int count, MPI_Datatype type, int source,
                 int tag, MPI_Comm comm, Transfer& out);

// Starts a nonblocking send or receive behind a new handle.
void start_send(Context& context, const Transfer& t, const void* buf, pml::SendMode mode, MPI_Request* handle);
void start_recv(Context& context, const Transfer& t, void* buf, MPI_Request* handle);
// MPI_Bsend / MPI_Ibsend: copies into the attached buffer and sends from
// there. MPI_SUCCESS, or MPI_ERR_BUFFER as the handler returned it. The
// elements are packed with `layout` if given (a persistent request's own),
// else with t.packed_type's if `t` is packed.
int buffered_send(Context& context, const char* call, const Transfer& t, const void* buf,
                  const datatype::Type* layout = nullptr);

// A request that is complete from the start (MPI_PROC_NULL peers, Ibsend).
MPI_Request completed_request(Context& context, MPI_Comm comm, bool proc_null_recv);

// Error class a completed request carries (MPI_SUCCESS or MPI_ERR_TRUNCATE).
inline int completion_error(const MpiRequest& r) noexcept {
  return r.pml.status.result == pml::Completion::Truncated ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}
// Fills `status` from a completed request, all but MPI_ERROR (status.hpp).
void fill_request_status_of(const MpiRequest& r, MPI_Status& status) noexcept;
// The same, nothing for MPI_STATUS_IGNORE (inline: the common case costs a test).
inline void fill_request_status(const MpiRequest& r, MPI_Status* status) noexcept {
  if (status != MPI_STATUS_IGNORE) fill_request_status_of(r, *status);
}
// "message from rank 0, tag 7 on MPI_COMM_WORLD truncated: 10488 bytes sent, buffer holds 10484"
std::string truncation_reason(const Communicator& comm, const pml::Status& s, std::size_t capacity);
// Raises the completion error of a finished request through its communicator's handler.
int raise_completion_error(Context& context, const MpiRequest& r, const char* call, int error);
// Completes the finished request `*handle`: fills `status`, raises its error
// through the handler, and retires it (RequestTable::retire: a one-shot
// request is freed and the handle set to MPI_REQUEST_NULL).
int retire_raising(Context& context, const char* call, MPI_Request* handle, MPI_Status* status);

}  // namespace shmpi::runtime
