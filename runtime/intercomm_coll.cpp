#include "runtime/intercomm_coll.hpp"

#include <new>
#include <vector>

#include "runtime/api.hpp"
#include "runtime/collectives.hpp"
#include "runtime/internal_channel.hpp"
#include "runtime/intercomm.hpp"
#include "runtime/reduce_op.hpp"

namespace shmpi::runtime {
namespace {

Check check_inter_root(int root, const Communicator& comm) {
  if (root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < comm.size)) return std::nullopt;
  return ArgError{MPI_ERR_ROOT, "invalid root " + std::to_string(root) + " (MPI_ROOT, MPI_PROC_NULL or a rank of " +
                                    "the remote group of " + std::to_string(comm.size) + ")"};
}

Check check_op_for(const DatatypeTable& types, MPI_Op op, MPI_Datatype type) {
  if (op_name(op) == nullptr || op == MPI_REPLACE)
    return ArgError{MPI_ERR_OP, "invalid reduce operation " + std::to_string(op)};
  const DatatypeInfo* info = types.find(type);
  if (info == nullptr || op_applies(op, info->base)) return std::nullopt;
  return ArgError{MPI_ERR_OP, std::string(op_name(op)) + " is not defined for datatype " + std::to_string(type)};
}

// Checks count, datatype and buffer; the message size through `bytes`.
int check_data(Context& context, const Communicator& comm, const char* call, const void* buf, int count,
               MPI_Datatype type, std::size_t& bytes) {
  std::size_t element = 0;
  if (int rc = raise_if(context, &comm, call,
                        first_error({check_count(count), check_datatype(context.datatypes(), type, element),
                                     check_buffer(buf, count)})))
    return rc;
  bytes = element * static_cast<std::size_t>(count);
  return MPI_SUCCESS;
}

Reduction reduction_for(const DatatypeTable& types, MPI_Op op, MPI_Datatype type, int count) {
  const DatatypeInfo& info = *types.find(type);
  const auto n = static_cast<std::size_t>(count);
  return Reduction{op, info.base, n * info.base_count, n * info.size};
}

}  // namespace

int intercomm_barrier(Context& context, const Communicator& comm) {
  constexpr const char* kCall = "MPI_Barrier";
  const Communicator local = local_side(comm);
  barrier(context, local, kCall);
  swap_between_leaders(context, comm, nullptr, nullptr, 0, kInterBarrierTag, kCall);
  barrier(context, local, kCall);
  return MPI_SUCCESS;
}

int intercomm_bcast(Context& context, void* buffer, int count, MPI_Datatype type, int root,
                    const Communicator& comm) {
  constexpr const char* kCall = "MPI_Bcast";
  std::size_t bytes = 0;
  if (int rc = check_data(context, comm, kCall, buffer, count, type, bytes)) return rc;
  if (int rc = raise_if(context, &comm, kCall, check_inter_root(root, comm))) return rc;
  if (root == MPI_PROC_NULL || bytes == 0) return MPI_SUCCESS;
  InternalChannel channel(context, comm.collective_context(), comm.rank, kInterBcastTag, kCall);
  if (root == MPI_ROOT) {
    channel.send(comm.world_rank(0), buffer, bytes);
    return MPI_SUCCESS;
  }
  if (comm.rank == 0) channel.recv(root, comm.world_rank(root), buffer, bytes);
  bcast(context, local_side(comm), buffer, bytes, 0, kCall);
  return MPI_SUCCESS;
}

int intercomm_reduce(Context& context, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                     int root, const Communicator& comm) {
  constexpr const char* kCall = "MPI_Reduce";
  std::size_t bytes = 0;
  const bool at_root = root == MPI_ROOT;
  if (int rc = check_data(context, comm, kCall, at_root ? recvbuf : sendbuf, count, type, bytes)) return rc;
  if (int rc = raise_if(context, &comm, kCall,
                        first_error({check_inter_root(root, comm), check_op_for(context.datatypes(), op, type)})))
    return rc;
  if (root == MPI_PROC_NULL || bytes == 0) return MPI_SUCCESS;
  InternalChannel channel(context, comm.collective_context(), comm.rank, kInterReduceTag, kCall);
  if (at_root) {
    channel.recv(0, comm.world_rank(0), recvbuf, bytes);
    return MPI_SUCCESS;
  }
  if (sendbuf == MPI_IN_PLACE)
    return raise_error(context, &comm, kCall, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed on an intercommunicator");
  try {
    std::vector<std::byte> partial(comm.rank == 0 ? bytes : 0);
    reduce(context, local_side(comm), sendbuf, partial.data(), reduction_for(context.datatypes(), op, type, count), 0,
           kCall);
    if (comm.rank == 0) channel.send(comm.world_rank(root), partial.data(), bytes);
  } catch (const std::bad_alloc&) {
    return raise_error(context, &comm, kCall, MPI_ERR_NO_MEM, "out of memory");
  }
  return MPI_SUCCESS;
}

// Each group's result is the reduction of the other group's contributions.
int intercomm_allreduce(Context& context, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                        MPI_Op op, const Communicator& comm) {
  constexpr const char* kCall = "MPI_Allreduce";
  std::size_t bytes = 0;
  if (int rc = check_data(context, comm, kCall, recvbuf, count, type, bytes)) return rc;
  if (int rc = raise_if(context, &comm, kCall, check_op_for(context.datatypes(), op, type))) return rc;
  if (sendbuf == MPI_IN_PLACE || (sendbuf == nullptr && count > 0))
    return raise_error(context, &comm, kCall, MPI_ERR_BUFFER, "invalid sendbuf (MPI_IN_PLACE is not allowed on an "
                                                              "intercommunicator)");
  if (bytes == 0) return MPI_SUCCESS;
  try {
    const Communicator local = local_side(comm);
    std::vector<std::byte> partial(comm.rank == 0 ? bytes : 0);
    reduce(context, local, sendbuf, partial.data(), reduction_for(context.datatypes(), op, type, count), 0, kCall);
    swap_between_leaders(context, comm, partial.data(), recvbuf, bytes, kInterAllreduceTag, kCall);
    bcast(context, local, recvbuf, bytes, 0, kCall);
  } catch (const std::bad_alloc&) {
    return raise_error(context, &comm, kCall, MPI_ERR_NO_MEM, "out of memory");
  }
  return MPI_SUCCESS;
}

}  // namespace shmpi::runtime
