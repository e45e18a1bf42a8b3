#include "runtime/intercomm_coll.hpp"

#include <new>
#include <vector>

#include "runtime/api.hpp"
#include "runtime/coll_call.hpp"
#include "runtime/collectives.hpp"
#include "runtime/internal_channel.hpp"
#include "runtime/intercomm.hpp"
#include "runtime/packing.hpp"
#include "runtime/reduce_op.hpp"

namespace shmpi::runtime {
namespace {

Check check_op_for(const DatatypeTable& types, MPI_Op op, MPI_Datatype type) {
  if (op_name(op) == nullptr || op == MPI_REPLACE)
    return ArgError{MPI_ERR_OP, "invalid reduce operation " + std::to_string(op)};
  const DatatypeInfo* info = types.find(type);
  if (info == nullptr || op_applies(op, info->base)) return std::nullopt;
  return ArgError{MPI_ERR_OP, std::string(op_name(op)) + " is not defined for datatype " + std::to_string(type)};
}

// Checks count, datatype and buffer (`use`: whether it is received into).
int check_data(Context& context, const Communicator& comm, const char* call, const void* buf, int count,
               MPI_Datatype type, Use use, Typed& t) {
  return raise_if(context, &comm, call, check_typed(context.datatypes(), buf, count, type, t, use));
}

// The bytes the internal collectives move for `t`'s elements at `buffer`:
// the buffer itself when contiguous, else a packed copy (`pack`: of its
// current contents) that unpack() puts back.
class PackedData {
 public:
  PackedData(const Typed& t, const void* buffer, bool pack) : t_(t), user_(const_cast<void*>(buffer)) {
    if (t.direct()) return;
    bytes_.resize(t.bytes);
    if (pack) pack_elements(*t.layout, t.count, buffer, bytes_.data());
  }
  void* data() noexcept { return t_.direct() ? user_ : bytes_.data(); }
  void unpack() {
    if (!t_.direct()) unpack_elements(*t_.layout, t_.count, bytes_.data(), t_.bytes, user_);
  }

 private:
  const Typed& t_;
  void* user_;
  std::vector<std::byte> bytes_;
};

Reduction reduction_for(const DatatypeTable& types, MPI_Op op, MPI_Datatype type, int count) {
  const DatatypeInfo& info = *types.find(type);
  const auto n = static_cast<std::size_t>(count);
  return Reduction{op, info.base, n * info.base_count, n * info.size, pairs_in(type, info)};
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
  Typed t;
  if (int rc = check_data(context, comm, kCall, buffer, count, type, root == MPI_ROOT ? Use::Send : Use::Receive, t))
    return rc;
  if (int rc = raise_if(context, &comm, kCall, check_inter_root(root, comm))) return rc;
  if (root == MPI_PROC_NULL || t.bytes == 0) return MPI_SUCCESS;
  InternalChannel channel(context, comm.collective_context(), comm.rank, kInterBcastTag, kCall);
  try {
    PackedData data(t, buffer, root == MPI_ROOT);
    if (root == MPI_ROOT) {
      channel.send(comm.world_rank(0), data.data(), t.bytes);
      return MPI_SUCCESS;
    }
    if (comm.rank == 0) channel.recv(root, comm.world_rank(root), data.data(), t.bytes);
    bcast(context, local_side(comm), data.data(), t.bytes, 0, kCall);
    data.unpack();
  } catch (const std::bad_alloc&) {
    return raise_error(context, &comm, kCall, MPI_ERR_NO_MEM, "out of memory");
  }
  return MPI_SUCCESS;
}

int intercomm_reduce(Context& context, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                     int root, const Communicator& comm) {
  constexpr const char* kCall = "MPI_Reduce";
  Typed t;
  const bool at_root = root == MPI_ROOT;
  if (int rc = check_data(context, comm, kCall, at_root ? recvbuf : sendbuf, count, type,
                          at_root ? Use::Receive : Use::Send, t))
    return rc;
  if (int rc = raise_if(context, &comm, kCall,
                        first_error({check_inter_root(root, comm), check_op_for(context.datatypes(), op, type)})))
    return rc;
  if (root == MPI_PROC_NULL || t.bytes == 0) return MPI_SUCCESS;
  InternalChannel channel(context, comm.collective_context(), comm.rank, kInterReduceTag, kCall);
  if (sendbuf == MPI_IN_PLACE && !at_root)
    return raise_error(context, &comm, kCall, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed on an intercommunicator");
  try {
    if (at_root) {
      PackedData result(t, recvbuf, false);
      channel.recv(0, comm.world_rank(0), result.data(), t.bytes);
      result.unpack();
      return MPI_SUCCESS;
    }
    PackedData send(t, sendbuf, true);
    std::vector<std::byte> partial(comm.rank == 0 ? t.bytes : 0);
    reduce(context, local_side(comm), send.data(), partial.data(), reduction_for(context.datatypes(), op, type, count),
           0, kCall);
    if (comm.rank == 0) channel.send(comm.world_rank(root), partial.data(), t.bytes);
  } catch (const std::bad_alloc&) {
    return raise_error(context, &comm, kCall, MPI_ERR_NO_MEM, "out of memory");
  }
  return MPI_SUCCESS;
}

// Each group's result is the reduction of the other group's contributions.
int intercomm_allreduce(Context& context, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                        MPI_Op op, const Communicator& comm) {
  constexpr const char* kCall = "MPI_Allreduce";
  Typed t;
  if (int rc = check_data(context, comm, kCall, recvbuf, count, type, Use::Receive, t)) return rc;
  if (int rc = raise_if(context, &comm, kCall, check_op_for(context.datatypes(), op, type))) return rc;
  if (sendbuf == MPI_IN_PLACE || (sendbuf == nullptr && count > 0))
    return raise_error(context, &comm, kCall, MPI_ERR_BUFFER, "invalid sendbuf (MPI_IN_PLACE is not allowed on an "
                                                              "intercommunicator)");
  if (t.bytes == 0) return MPI_SUCCESS;
  try {
    const Communicator local = local_side(comm);
    PackedData send(t, sendbuf, true);
    PackedData result(t, recvbuf, false);
    std::vector<std::byte> partial(comm.rank == 0 ? t.bytes : 0);
    reduce(context, local, send.data(), partial.data(), reduction_for(context.datatypes(), op, type, count), 0,
           kCall);
    swap_between_leaders(context, comm, partial.data(), result.data(), t.bytes, kInterAllreduceTag, kCall);
    bcast(context, local, result.data(), t.bytes, 0, kCall);
    result.unpack();
  } catch (const std::bad_alloc&) {
    return raise_error(context, &comm, kCall, MPI_ERR_NO_MEM, "out of memory");
  }
  return MPI_SUCCESS;
}

}  // namespace shmpi::runtime
