// MPI entry points: collectives (algorithms in runtime/collectives.cpp).
#include <cstring>
#include <new>

#include "runtime/api.hpp"
#include "runtime/collectives.hpp"
#include "runtime/packed_collectives.hpp"
#include "runtime/reduce_op.hpp"

using namespace shmpi::runtime;

namespace {

Check check_root(int root, const Communicator& comm) {
  if (root >= 0 && root < comm.size) return std::nullopt;
  return ArgError{MPI_ERR_ROOT, "invalid root " + std::to_string(root) + " (" + comm.name + " has " +
                                    std::to_string(comm.size) + " ranks)"};
}

// `op` applies to the elements of `type` (a derived type's base elements).
Check check_op(const DatatypeTable& types, MPI_Op op, MPI_Datatype type) {
  const char* name = op_name(op);
  if (name == nullptr) return ArgError{MPI_ERR_OP, "invalid reduce operation " + std::to_string(op)};
  if (op == MPI_REPLACE)
    return ArgError{MPI_ERR_OP, "MPI_REPLACE is valid only in one-sided accumulate operations"};
  const DatatypeInfo* info = types.find(type);
  if (info == nullptr || op_applies(op, info->base)) return std::nullopt;  // a bad type is reported elsewhere
  const DatatypeInfo* base = types.find(info->base);
  std::string reason = std::string(name) + " is not defined for " + (base != nullptr ? base->name : "this datatype");
  if (type != info->base) reason += " (the element type of datatype " + std::to_string(type) + ")";
  return ArgError{MPI_ERR_OP, reason};
}

Check check_send_buffer(const void* sendbuf, int count, bool in_place_allowed) {
  if (sendbuf == MPI_IN_PLACE) {
    if (in_place_allowed) return std::nullopt;
    return ArgError{MPI_ERR_BUFFER, "sendbuf is MPI_IN_PLACE, which only the root may pass"};
  }
  return check_buffer(sendbuf, count);
}

Check check_recv_buffer(const void* sendbuf, const void* recvbuf, int count) {
  if (recvbuf == MPI_IN_PLACE) return ArgError{MPI_ERR_BUFFER, "recvbuf cannot be MPI_IN_PLACE"};
  if (count > 0 && sendbuf == recvbuf)
    return ArgError{MPI_ERR_BUFFER, "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)"};
  return check_buffer(recvbuf, count);
}

Reduction reduction_of(const DatatypeTable& types, MPI_Op op, MPI_Datatype type, int count) {
  const DatatypeInfo& info = *types.find(type);
  const auto n = static_cast<std::size_t>(count);
  return Reduction{op, info.base, n * info.base_count, n * info.size};
}

int out_of_memory(Context& context, const Communicator& comm, const char* call, std::size_t bytes) {
  return raise_error(context, &comm, call, MPI_ERR_NO_MEM,
                     "out of memory for a temporary buffer of " + std::to_string(bytes) + " bytes");
}

}  // namespace

extern "C" int PMPI_Barrier(MPI_Comm comm) {
  constexpr const char* kCall = "MPI_Barrier";
  Context& context = context_for(kCall);
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  barrier(context, *c);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  constexpr const char* kCall = "MPI_Bcast";
  Context& context = context_for(kCall);
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  std::size_t element = 0;
  if (int rc = raise_if(context, c, kCall,
                        first_error({check_count(count), check_datatype(context.datatypes(), datatype, element),
                                     check_buffer(buffer, count), check_root(root, *c)})))
    return rc;
  const std::size_t bytes = element * static_cast<std::size_t>(count);
  try {
    if (!context.datatypes().find(datatype)->direct) {
      bcast_packed(context, *c, buffer, count, datatype, root);
    } else if (bytes > 0) {
      bcast(context, *c, buffer, bytes, root);
    }
  } catch (const std::bad_alloc&) {
    return out_of_memory(context, *c, kCall, bytes);
  }
  return MPI_SUCCESS;
}

extern "C" int PMPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                           int root, MPI_Comm comm) {
  constexpr const char* kCall = "MPI_Reduce";
  Context& context = context_for(kCall);
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  std::size_t element = 0;
  if (int rc = raise_if(context, c, kCall,
                        first_error({check_count(count), check_datatype(context.datatypes(), datatype, element),
                                     check_op(context.datatypes(), op, datatype), check_root(root, *c)})))
    return rc;
  const bool at_root = c->rank == root;
  if (int rc = raise_if(context, c, kCall,
                        first_error({check_send_buffer(sendbuf, count, at_root),
                                     at_root ? check_recv_buffer(sendbuf, recvbuf, count) : std::nullopt})))
    return rc;
  const Reduction reduction = reduction_of(context.datatypes(), op, datatype, count);
  if (reduction.bytes == 0) return MPI_SUCCESS;
  const void* send = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  try {
    if (!context.datatypes().find(datatype)->direct) {
      reduce_packed(context, *c, send, recvbuf, count, datatype, reduction, root);
    } else {
      reduce(context, *c, send, at_root ? recvbuf : nullptr, reduction, root);
    }
  } catch (const std::bad_alloc&) {
    return out_of_memory(context, *c, kCall, reduction.bytes);
  }
  return MPI_SUCCESS;
}

extern "C" int PMPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm) {
  constexpr const char* kCall = "MPI_Allreduce";
  Context& context = context_for(kCall);
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  std::size_t element = 0;
  if (int rc = raise_if(context, c, kCall,
                        first_error({check_count(count), check_datatype(context.datatypes(), datatype, element),
                                     check_op(context.datatypes(), op, datatype),
                                     check_send_buffer(sendbuf, count, true),
                                     check_recv_buffer(sendbuf, recvbuf, count)})))
    return rc;
  const Reduction reduction = reduction_of(context.datatypes(), op, datatype, count);
  if (reduction.bytes == 0) return MPI_SUCCESS;
  try {
    if (!context.datatypes().find(datatype)->direct) {
      allreduce_packed(context, *c, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf, count, datatype, reduction);
      return MPI_SUCCESS;
    }
    if (sendbuf != MPI_IN_PLACE) std::memcpy(recvbuf, sendbuf, reduction.bytes);
    allreduce(context, *c, recvbuf, reduction);
  } catch (const std::bad_alloc&) {
    return out_of_memory(context, *c, kCall, reduction.bytes);
  }
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Barrier)
SHMPI_PMPI_ALIAS(Bcast)
SHMPI_PMPI_ALIAS(Reduce)
SHMPI_PMPI_ALIAS(Allreduce)
