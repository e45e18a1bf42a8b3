// Intercommunicator barrier, broadcast, gathers, scatters and alltoalls as
// schedules (the reductions are in intercomm_reductions.cpp).
#include "runtime/intercomm_calls.hpp"

#include "runtime/coll_packing.hpp"
#include "runtime/intercomm_schedules.hpp"

namespace shmpi::runtime {

int inter_ibarrier(Context& context, const Communicator& c, MPI_Comm handle, MPI_Request* request) {
  constexpr const char* kCall = "MPI_Ibarrier";
  if (int rc = raise_if(context, &c, kCall, check_request_pointer(request, true))) return rc;
  return run_collective(context, c, handle, request, kCall, [](Schedule& s) { build_inter_barrier(s); });
}

int inter_ibcast(Context& context, const Communicator& c, MPI_Comm handle, void* buffer, int count,
                 MPI_Datatype type, int root, MPI_Request* request) {
  constexpr const char* kCall = "MPI_Ibcast";
  Typed t;
  const bool takes_part = root != MPI_PROC_NULL;
  if (int rc = raise_if(context, &c, kCall,
                        first_error({check_request_pointer(request, true), check_inter_root(root, c),
                                     check_not_in_place_inter(buffer, nullptr),
                                     takes_part ? check_typed(context.datatypes(), buffer, count, type, t,
                                                              root == MPI_ROOT ? Use::Send : Use::Receive)
                                                : std::nullopt})))
    return rc;
  return run_collective(context, c, handle, request, kCall, [&](Schedule& s) {
    if (!takes_part) return;
    void* bytes = root == MPI_ROOT ? const_cast<void*>(packed_input(s, buffer, t)) : packed_output(s, buffer, t);
    build_inter_bcast(s, bytes, t.bytes, root);
  });
}

int inter_gather(Context& context, const Communicator& c, MPI_Comm handle, const char* call, const DataArgs& send,
                 const DataArgs& recv, int root, MPI_Request* request, bool nonblocking) {
  const bool at_root = root == MPI_ROOT;
  const bool sends = root >= 0;
  Typed t;
  Blocks blocks;
  if (int rc = raise_if(
          context, &c, call,
          first_error({check_request_pointer(request, nonblocking), check_inter_root(root, c),
                       check_not_in_place_inter(send.buffer, recv.buffer),
                       sends ? check_typed(context.datatypes(), send.buffer, send.count, send.type, t) : std::nullopt,
                       at_root ? check_data_blocks(context.datatypes(), recv, c.size, blocks, Use::Receive)
                               : std::nullopt})))
    return rc;
  return run_collective(context, c, handle, request, call, [&](Schedule& s) {
    packed_output(s, blocks);
    build_inter_gather(s, sends ? packed_input(s, send.buffer, t) : nullptr, t.bytes, blocks, root);
  });
}

int inter_scatter(Context& context, const Communicator& c, MPI_Comm handle, const char* call, const DataArgs& send,
                  const DataArgs& recv, int root, MPI_Request* request, bool nonblocking) {
  const bool at_root = root == MPI_ROOT;
  const bool receives = root >= 0;
  Typed t;
  Blocks blocks;
  if (int rc = raise_if(context, &c, call,
                        first_error({check_request_pointer(request, nonblocking), check_inter_root(root, c),
                                     check_not_in_place_inter(send.buffer, recv.buffer),
                                     receives ? check_typed(context.datatypes(), recv.buffer, recv.count, recv.type,
                                                            t, Use::Receive)
                                              : std::nullopt,
                                     at_root ? check_data_blocks(context.datatypes(), send, c.size, blocks, Use::Send)
                                             : std::nullopt})))
    return rc;
  return run_collective(context, c, handle, request, call, [&](Schedule& s) {
    packed_input(s, blocks);
    void* to = receives ? packed_output(s, const_cast<void*>(recv.buffer), t) : nullptr;
    build_inter_scatter(s, blocks, to, t.bytes, root);
  });
}

int inter_allgather(Context& context, const Communicator& c, MPI_Comm handle, const char* call,
                    const DataArgs& send, const DataArgs& recv, MPI_Request* request, bool nonblocking) {
  Typed t;
  Blocks blocks;
  if (int rc = raise_if(context, &c, call,
                        first_error({check_request_pointer(request, nonblocking),
                                     check_not_in_place_inter(send.buffer, recv.buffer),
                                     check_typed(context.datatypes(), send.buffer, send.count, send.type, t),
                                     check_data_blocks(context.datatypes(), recv, c.size, blocks, Use::Receive)})))
    return rc;
  return run_collective(context, c, handle, request, call, [&](Schedule& s) {
    packed_output(s, blocks);
    build_inter_allgather(s, packed_input(s, send.buffer, t), t.bytes, blocks);
  });
}

int inter_alltoall(Context& context, const Communicator& c, MPI_Comm handle, const char* call, const DataArgs& send,
                   const DataArgs& recv, MPI_Request* request, bool nonblocking) {
  Blocks out;
  Blocks in;
  if (int rc = raise_if(context, &c, call,
                        first_error({check_request_pointer(request, nonblocking),
                                     check_not_in_place_inter(send.buffer, recv.buffer),
                                     check_data_blocks(context.datatypes(), send, c.size, out, Use::Send),
                                     check_data_blocks(context.datatypes(), recv, c.size, in, Use::Receive)})))
    return rc;
  return run_collective(context, c, handle, request, call, [&](Schedule& s) {
    packed_input(s, out);
    packed_output(s, in);
    build_inter_alltoall(s, out, in);
  });
}

}  // namespace shmpi::runtime
