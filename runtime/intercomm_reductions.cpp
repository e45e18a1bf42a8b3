// Intercommunicator reductions as schedules: MPI_Ireduce, MPI_Iallreduce,
// the blocking ones with a user op (the leaders' path takes predefined ops
// only), and reduce-scatter (_block), blocking and nonblocking. Each group
// combines the other group's vectors, in its rank order.
#include <string>
#include <vector>

#include "runtime/coll_packing.hpp"
#include "runtime/intercomm_calls.hpp"
#include "runtime/intercomm_schedules.hpp"

namespace shmpi::runtime {

int inter_reduce(Context& context, const Communicator& c, MPI_Comm handle, const char* call, const void* sendbuf,
                 void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Request* request,
                 bool nonblocking) {
  const bool at_root = root == MPI_ROOT;
  const bool sends = root >= 0;
  Operation operation;
  Typed t;
  if (int rc = raise_if(context, &c, call,
                        first_error({check_request_pointer(request, nonblocking), check_inter_root(root, c),
                                     check_not_in_place_inter(sendbuf, recvbuf)})))
    return rc;
  if (at_root || sends)
    if (int rc = raise_if(context, &c, call,
                          first_error({check_reduction(context, count, type, op, request, nonblocking, operation, t,
                                                       at_root ? Use::Receive : Use::Send),
                                       check_buffer(at_root ? recvbuf : sendbuf, count)})))
      return rc;
  const auto n = static_cast<std::size_t>(count);
  return run_collective(context, c, handle, request, call, [&](Schedule& s) {
    if (root == MPI_PROC_NULL) return;
    set_operation(s, operation, t, n);
    build_inter_reduce(s, sends ? packed_input(s, sendbuf, t) : nullptr,
                       at_root ? packed_output(s, recvbuf, t) : nullptr, n, root);
  });
}

int inter_allreduce(Context& context, const Communicator& c, MPI_Comm handle, const char* call, const void* sendbuf,
                    void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Request* request, bool nonblocking) {
  Operation operation;
  Typed t;
  if (int rc = raise_if(context, &c, call,
                        first_error({check_not_in_place_inter(sendbuf, recvbuf),
                                     check_reduction(context, count, type, op, request, nonblocking, operation, t,
                                                     Use::Receive),
                                     check_reduce_buffers(sendbuf, recvbuf, count)})))
    return rc;
  const auto n = static_cast<std::size_t>(count);
  return run_collective(context, c, handle, request, call, [&](Schedule& s) {
    set_operation(s, operation, t, n);
    build_inter_allreduce(s, packed_input(s, sendbuf, t), packed_output(s, recvbuf, t), n);
  });
}

int inter_reduce_scatter(Context& context, const Communicator& c, MPI_Comm handle, const char* call,
                         const void* sendbuf, void* recvbuf, int recvcount, const int* recvcounts, MPI_Datatype type,
                         MPI_Op op, MPI_Request* request, bool nonblocking) {
  // Our vector has as many elements as our group receives in all (the same
  // number in both groups).
  std::size_t total = 0;
  std::size_t first = 0;  // our block's first element
  Check bad_count;
  for (std::int32_t i = 0; i < c.group_size(); ++i) {
    const int k = recvcounts != nullptr ? recvcounts[i] : recvcount;
    if (!bad_count) bad_count = check_count(k);
    if (i == c.rank) first = total;
    total += k < 0 ? 0 : static_cast<std::size_t>(k);
  }
  const int mine = recvcounts != nullptr ? recvcounts[c.rank] : recvcount;
  const auto remote = static_cast<std::size_t>(c.size);
  if (!bad_count && recvcounts == nullptr && total % remote != 0)
    bad_count = ArgError{MPI_ERR_COUNT, "recvcount " + std::to_string(recvcount) + " times the local group's size " +
                                            "is not a multiple of the remote group's size " + std::to_string(c.size)};
  Operation operation;
  Typed t;
  if (int rc = raise_if(context, &c, call,
                        first_error({check_not_in_place_inter(sendbuf, recvbuf), bad_count,
                                     check_reduction(context, mine, type, op, request, nonblocking, operation, t,
                                                     Use::Receive),
                                     check_reduce_buffers(sendbuf, recvbuf, mine),
                                     check_buffer(sendbuf, total != 0 ? 1 : 0)})))
    return rc;
  return run_collective(context, c, handle, request, call, [&](Schedule& s) {
    const Typed input{t.element, total * t.element, t.layout, t.direct() ? 0 : total};
    set_operation(s, operation, t, total);
    const void* send = packed_input(s, sendbuf, input);
    void* recv = packed_output(s, recvbuf, t);
    const auto n = static_cast<std::size_t>(mine);
    if (recvcounts != nullptr)
      build_inter_reduce_scatter(s, send, total, recv, first, n);
    else
      build_inter_reduce_scatter_block(s, send, total / remote, recv, n);
  });
}

}  // namespace shmpi::runtime
