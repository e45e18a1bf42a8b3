// What the collective entry points share (api_coll*.cpp): argument checks
// that turn (buffer, count, datatype) into bytes, the operation a reduction
// applies, and launching a built schedule as a blocking or nonblocking call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <utility>
#include <vector>

#include "datatype/type.hpp"
#include "mpi.h"
#include "runtime/api.hpp"
#include "runtime/coll_schedules.hpp"

namespace shmpi::runtime {

// A checked (buffer, count, datatype) argument: the bytes a schedule moves
// for it. A datatype that is not contiguous also gives the layout its
// elements have in the user's buffer; the schedule then moves them packed
// (runtime/coll_packing.hpp).
struct Typed {
  std::size_t element = 0;  // packed bytes of one element
  std::size_t bytes = 0;    // count * element
  datatype::TypeRef layout;  // null: contiguous, the bytes are the buffer's
  std::size_t count = 0;     // elements of `layout`

  bool direct() const noexcept { return layout == nullptr; }
};
// Which way an argument's data goes: a receive buffer must not place two
// elements on the same bytes (as for point-to-point).
enum class Use : std::uint8_t { Send, Receive };
Check check_typed(const DatatypeTable& types, const void* buffer, int count, MPI_Datatype type, Typed& out,
                  Use use = Use::Send);
// The same without a buffer to check (reductions check theirs apart).
Check check_typed_elements(const DatatypeTable& types, int count, MPI_Datatype type, Typed& out, Use use);
// Per-rank counts and displacements (in extents of `type`) over `n` ranks.
Check check_typed_blocks(const DatatypeTable& types, const void* buffer, const int* counts, const int* displs,
                         MPI_Datatype type, std::int32_t n, Blocks& out, Use use = Use::Send);
// The same with one datatype per rank and displacements in bytes (Alltoallw).
Check check_typed_blocks_w(const DatatypeTable& types, const void* buffer, const int* counts, const int* displs,
                           const MPI_Datatype* types_of, std::int32_t n, Blocks& out, Use use = Use::Send);
// `n` blocks of `t` one after another (the root of gather and scatter,
// alltoall): block i starts i * count extents into the buffer.
Blocks uniform_blocks(const void* buffer, const Typed& t, std::int32_t n);
// A data argument as an entry point got it: one count (`counts` null),
// per-rank counts and displacements in extents of `type` (v), or a datatype
// per rank and displacements in bytes (`types` not null: w).
struct DataArgs {
  const void* buffer;
  int count;
  const int* counts;
  const int* displs;
  MPI_Datatype type;
  const MPI_Datatype* types;
};
// Its blocks over `n` ranks (one count: n blocks one after another).
Check check_data_blocks(const DatatypeTable& types, const DataArgs& args, std::int32_t n, Blocks& out, Use use);

// How a 2-rank allgather or alltoall of equal blocks lays out its send
// buffer: one block for both ranks (allgather), or block i for rank i.
enum class SendBlocks : std::uint8_t { One, PerRank };
// A 2-rank blocking allgather or alltoall of equal blocks whose datatypes
// are contiguous on both sides, up to kPairExchangeMax a block: checked as
// two Typed (no Blocks), the peer's block exchanged straight into block
// `1 - rank` of the receive buffer, then ours copied into block `rank`.
// Empty when the call needs the general path (which checks again, the same
// way, and sends the same exchange); else MPI_SUCCESS or the error raised.
std::optional<int> contiguous_pair_exchange(Context& context, const Communicator& c, const DataArgs& send_side,
                                            const DataArgs& recv_side, SendBlocks send_blocks, const char* call);
Check check_root(int root, const Communicator& comm);
// On an intercommunicator: MPI_ROOT, MPI_PROC_NULL or a rank of the remote group.
Check check_inter_root(int root, const Communicator& comm);
// MPI_IN_PLACE is not allowed on an intercommunicator (MPI-4.1 section 6.2.2).
Check check_not_in_place_inter(const void* sendbuf, const void* recvbuf);
// `op` is a predefined op that applies to `type`'s elements, or a user op
// (any datatype); fills `out` for `type`.
Check check_operation(Context& context, MPI_Op op, MPI_Datatype type, Operation& out);
// How a predefined op finds a padded pair (MPI_DOUBLE_INT) among `type`'s
// base elements (`info` is type's): the predefined pair itself as its C
// struct, any type derived from it packed.
inline PairLayout pairs_in(MPI_Datatype type, const DatatypeInfo& info) noexcept {
  return type == info.base ? PairLayout::CStruct : PairLayout::Packed;
}
// Reductions: MPI_IN_PLACE is allowed for sendbuf only; recvbuf is a real
// buffer distinct from sendbuf.
Check check_reduce_buffers(const void* sendbuf, const void* recvbuf, int count);
// A reduction's count, datatype, op and request pointer; fills `op_out` and
// `t` (`use`: whether this rank receives a result).
Check check_reduction(Context& context, int count, MPI_Datatype datatype, MPI_Op op, const MPI_Request* request,
                      bool nonblocking, Operation& op_out, Typed& t, Use use);
// A schedule's operation for `t`: a user op on a datatype that is not
// contiguous gets its unpacked operands, for up to `count` elements.
// Throws std::bad_alloc.
void set_operation(Schedule& s, Operation operation, const Typed& t, std::size_t count);

// A schedule for the next collective call on `comm` (one tag per call).
std::unique_ptr<Schedule> new_schedule(Context& context, const Communicator& comm);

// Runs `schedule` to completion (request == nullptr: a blocking call) or
// starts it behind a new request in `*request`. MPI_SUCCESS, or the error
// raised through the communicator's handler.
int launch(Context& context, const Communicator& comm, MPI_Comm handle, std::unique_ptr<Schedule> schedule,
           MPI_Request* request, const char* call);

// MPI_ERR_NO_MEM for a temporary buffer that could not be had.
int out_of_memory(Context& context, const Communicator& comm, const char* call);

// The request pointer of a nonblocking call must be valid.
Check check_request_pointer(const MPI_Request* request, bool nonblocking);
// `buffer` is not MPI_IN_PLACE (`which`: "sendbuf" or "recvbuf").
Check check_not_in_place(const void* buffer, const char* which);

// Builds a schedule with build(Schedule&) and launches it; out of memory
// is raised as MPI_ERR_NO_MEM.
template <class Build>
int run_collective(Context& context, const Communicator& comm, MPI_Comm handle, MPI_Request* request,
                   const char* call, Build&& build) {
  std::unique_ptr<Schedule> schedule;
  try {
    schedule = new_schedule(context, comm);
    build(*schedule);
  } catch (const std::bad_alloc&) {
    return out_of_memory(context, comm, call);
  }
  return launch(context, comm, handle, std::move(schedule), request, call);
}

}  // namespace shmpi::runtime
