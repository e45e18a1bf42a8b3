// MPI entry points: reductions (reduce, allreduce, reduce-scatter, scan,
// exscan, reduce_local), blocking and nonblocking. Blocking reduce and
// allreduce with a predefined op take the collective slots where they serve
// the call (runtime/shm_collectives.hpp), else the tuned internal collectives
// (runtime/collectives.cpp); both on packed copies for a datatype that is not
// contiguous, so the path never depends on it. Everything else runs a schedule
// (runtime/coll_reduce.cpp, coll_scan.cpp), whose order also suits
// non-commutative user operations.
//
// A datatype that is not contiguous is reduced packed (runtime/
// coll_packing.hpp): a predefined op then applies to the packed base
// elements; a user op is called on operands unpacked into the datatype's
// layout (Operation::unpack_operands), since it reads that layout.
#include <cstring>
#include <string>
#include <vector>

#include "runtime/coll_call.hpp"
#include "runtime/coll_packing.hpp"
#include "runtime/collectives.hpp"
#include "runtime/intercomm_calls.hpp"
#include "runtime/intercomm_coll.hpp"
#include "runtime/packing.hpp"
#include "runtime/shm_collectives.hpp"

using namespace shmpi::runtime;

namespace {

// The blocking intercommunicator reduce and allreduce go through the
// groups' leaders with a predefined op, as schedules with a user op.
bool is_user_op(Context& context, MPI_Op op) { return context.user_ops().find(op) != nullptr; }

// The tuned blocking reduce and allreduce (predefined ops): through the
// collective slots where they serve the call, else along the trees.
void tuned_reduce(Context& context, const Communicator& c, const void* send, void* recv, const Reduction& reduction,
                  std::int32_t root) {
  ShmCollectives& shm = context.shm_collectives();
  if (shm.serves(c, reduction.bytes))
    shm.reduce(context, c, send, recv, reduction, root);
  else
    shmpi::runtime::reduce(context, c, send, recv, reduction, root);
}

void tuned_allreduce(Context& context, const Communicator& c, const void* send, void* recv,
                     const Reduction& reduction) {
  ShmCollectives& shm = context.shm_collectives();
  if (shm.serves(c, reduction.bytes)) {
    shm.allreduce(context, c, send, recv, reduction);
    return;
  }
  if (c.size == 2 && reduction.bytes >= kPairHalvesFrom && reduction.count >= 2) {
    allreduce_pair_halves(context, c, send, recv, reduction);
    return;
  }
  if (send != recv) std::memcpy(recv, send, reduction.bytes);
  shmpi::runtime::allreduce(context, c, recv, reduction);
}

// The same on packed copies
// of a datatype that is not contiguous. Throw std::bad_alloc.
void reduce_packed(Context& context, const Communicator& c, const void* send, void* recv, const Typed& t,
                   const Reduction& reduction, std::int32_t root) {
  std::vector<std::byte> in(t.bytes);
  std::vector<std::byte> out(recv != nullptr ? t.bytes : 0);
  pack_elements(*t.layout, t.count, send, in.data());
  tuned_reduce(context, c, in.data(), recv != nullptr ? out.data() : nullptr, reduction, root);
  if (recv != nullptr) unpack_elements(*t.layout, t.count, out.data(), t.bytes, recv);
}

void allreduce_packed(Context& context, const Communicator& c, const void* send, void* recv, const Typed& t,
                      const Reduction& reduction) {
  std::vector<std::byte> both(t.bytes);
  pack_elements(*t.layout, t.count, send, both.data());
  tuned_allreduce(context, c, both.data(), both.data(), reduction);
  unpack_elements(*t.layout, t.count, both.data(), t.bytes, recv);
}

int reduce(const char* call, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
           int root, MPI_Comm comm, MPI_Request* request, bool nonblocking) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, call, comm);
  if (c->inter) {
    if (nonblocking || is_user_op(context, op))
      return inter_reduce(context, *c, comm, call, sendbuf, recvbuf, count, datatype, op, root, request, nonblocking);
    return intercomm_reduce(context, sendbuf, recvbuf, count, datatype, op, root, *c);
  }
  Operation operation;
  Typed t;
  const bool at_root = c->rank == root;
  if (int rc = raise_if(context, c, call,
                        first_error({check_reduction(context, count, datatype, op, request, nonblocking, operation, t,
                                                     at_root ? Use::Receive : Use::Send),
                                     check_root(root, *c)})))
    return rc;
  if (int rc = raise_if(context, c, call,
                        at_root ? check_reduce_buffers(sendbuf, recvbuf, count)
                                : first_error({check_not_in_place(sendbuf, "sendbuf"), check_buffer(sendbuf, count)})))
    return rc;
  const void* send = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  const auto n = static_cast<std::size_t>(count);
  if (!nonblocking && operation.user == nullptr) {
    if (n == 0) return MPI_SUCCESS;
    const Reduction reduction{op, operation.type, n * operation.per_element, n * operation.element_bytes,
                              operation.pairs};
    try {
      if (t.direct())
        tuned_reduce(context, *c, send, at_root ? recvbuf : nullptr, reduction, root);
      else
        reduce_packed(context, *c, send, at_root ? recvbuf : nullptr, t, reduction, root);
    } catch (const std::bad_alloc&) {
      return out_of_memory(context, *c, call);
    }
    return MPI_SUCCESS;
  }
  return run_collective(context, *c, comm, request, call, [&](Schedule& s) {
    set_operation(s, operation, t, n);
    if (sendbuf == MPI_IN_PLACE) {
      void* both = packed_inout(s, recvbuf, t);
      build_reduce(s, both, both, n, root);
    } else {
      build_reduce(s, packed_input(s, send, t), at_root ? packed_output(s, recvbuf, t) : nullptr, n, root);
    }
  });
}

int allreduce(const char* call, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, MPI_Request* request, bool nonblocking) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, call, comm);
  if (c->inter) {
    if (nonblocking || is_user_op(context, op))
      return inter_allreduce(context, *c, comm, call, sendbuf, recvbuf, count, datatype, op, request, nonblocking);
    return intercomm_allreduce(context, sendbuf, recvbuf, count, datatype, op, *c);
  }
  Operation operation;
  Typed t;
  if (int rc = raise_if(context, c, call,
                        first_error({check_reduction(context, count, datatype, op, request, nonblocking, operation, t,
                                                     Use::Receive),
                                     check_reduce_buffers(sendbuf, recvbuf, count)})))
    return rc;
  const void* send = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  const auto n = static_cast<std::size_t>(count);
  // Large vectors take the schedule's Rabenseifner (the same choice on
  // every rank: it depends on count, op and communicator size only).
  if (!nonblocking && operation.user == nullptr && !allreduce_halves(operation, c->size, n)) {
    if (n == 0) return MPI_SUCCESS;
    const Reduction reduction{op, operation.type, n * operation.per_element, n * operation.element_bytes,
                              operation.pairs};
    try {
      if (t.direct()) {
        tuned_allreduce(context, *c, send, recvbuf, reduction);
      } else {
        allreduce_packed(context, *c, send, recvbuf, t, reduction);
      }
    } catch (const std::bad_alloc&) {
      return out_of_memory(context, *c, call);
    }
    return MPI_SUCCESS;
  }
  return run_collective(context, *c, comm, request, call, [&](Schedule& s) {
    set_operation(s, operation, t, n);
    if (sendbuf == MPI_IN_PLACE) {
      void* both = packed_inout(s, recvbuf, t);
      build_allreduce(s, both, both, n);
    } else {
      build_allreduce(s, packed_input(s, send, t), packed_output(s, recvbuf, t), n);
    }
  });
}

// `recvcounts` == nullptr: `recvcount` for every rank (the _block variant).
int reduce_scatter(const char* call, const void* sendbuf, void* recvbuf, int recvcount, const int* recvcounts,
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request, bool nonblocking) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, call, comm);
  if (c->inter)
    return inter_reduce_scatter(context, *c, comm, call, sendbuf, recvbuf, recvcount, recvcounts, datatype, op,
                                request, nonblocking);
  std::vector<std::size_t> counts(static_cast<std::size_t>(c->size));
  std::size_t total = 0;
  Check bad_count;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const int k = recvcounts != nullptr ? recvcounts[i] : recvcount;
    if (!bad_count) bad_count = check_count(k);
    counts[i] = k < 0 ? 0 : static_cast<std::size_t>(k);
    total += counts[i];
  }
  const int mine = static_cast<int>(counts[static_cast<std::size_t>(c->rank)]);
  Operation operation;
  Typed t;
  if (int rc = raise_if(context, c, call,
                        first_error({bad_count, check_reduction(context, mine, datatype, op, request, nonblocking,
                                                                operation, t, Use::Receive),
                                     check_reduce_buffers(sendbuf, recvbuf, mine),
                                     sendbuf == MPI_IN_PLACE ? check_buffer(recvbuf, total != 0 ? 1 : 0)
                                                             : check_buffer(sendbuf, total != 0 ? 1 : 0)})))
    return rc;
  const void* send = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  return run_collective(context, *c, comm, request, call, [&](Schedule& s) {
    // The input is `total` elements (all of recvbuf's, in place), the output `mine`.
    const Typed input{t.element, total * t.element, t.layout, t.direct() ? 0 : total};
    set_operation(s, operation, t, total);
    build_reduce_scatter(s, packed_input(s, send, input), packed_output(s, recvbuf, t), counts);
  });
}

int scan(const char* call, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
         MPI_Comm comm, MPI_Request* request, bool nonblocking, bool exclusive) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, call, comm);
  if (c->inter)
    return raise_error(context, c, call, MPI_ERR_COMM, "not defined on an intercommunicator (" + c->name + ")");
  Operation operation;
  Typed t;
  if (int rc = raise_if(context, c, call,
                        first_error({check_reduction(context, count, datatype, op, request, nonblocking, operation, t,
                                                     Use::Receive),
                                     check_reduce_buffers(sendbuf, recvbuf, count)})))
    return rc;
  const auto n = static_cast<std::size_t>(count);
  return run_collective(context, *c, comm, request, call, [&](Schedule& s) {
    set_operation(s, operation, t, n);
    if (sendbuf == MPI_IN_PLACE) {
      void* both = packed_inout(s, recvbuf, t);
      build_scan(s, both, both, n, exclusive);
      return;
    }
    // Exscan leaves rank 0's recvbuf alone: nothing to unpack there.
    void* out = exclusive && s.rank() == 0 && !t.direct() ? s.scratch(t.bytes) : packed_output(s, recvbuf, t);
    build_scan(s, packed_input(s, sendbuf, t), out, n, exclusive);
  });
}

}  // namespace

extern "C" int PMPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                           MPI_Comm comm) {
  return reduce("MPI_Reduce", sendbuf, recvbuf, count, datatype, op, root, comm, nullptr, false);
}

extern "C" int PMPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                            int root, MPI_Comm comm, MPI_Request* request) {
  return reduce("MPI_Ireduce", sendbuf, recvbuf, count, datatype, op, root, comm, request, true);
}

extern "C" int PMPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm) {
  return allreduce("MPI_Allreduce", sendbuf, recvbuf, count, datatype, op, comm, nullptr, false);
}

extern "C" int PMPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                               MPI_Comm comm, MPI_Request* request) {
  return allreduce("MPI_Iallreduce", sendbuf, recvbuf, count, datatype, op, comm, request, true);
}

extern "C" int PMPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm) {
  if (recvcounts == nullptr) {
    const Entry entry = enter("MPI_Reduce_scatter");
    Context& context = entry.context();
    return raise_error(context, context.communicator(comm), "MPI_Reduce_scatter", MPI_ERR_ARG, "null recvcounts");
  }
  return reduce_scatter("MPI_Reduce_scatter", sendbuf, recvbuf, 0, recvcounts, datatype, op, comm, nullptr, false);
}

extern "C" int PMPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  if (recvcounts == nullptr) {
    const Entry entry = enter("MPI_Ireduce_scatter");
    Context& context = entry.context();
    return raise_error(context, context.communicator(comm), "MPI_Ireduce_scatter", MPI_ERR_ARG, "null recvcounts");
  }
  return reduce_scatter("MPI_Ireduce_scatter", sendbuf, recvbuf, 0, recvcounts, datatype, op, comm, request, true);
}

extern "C" int PMPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                         MPI_Op op, MPI_Comm comm) {
  return reduce_scatter("MPI_Reduce_scatter_block", sendbuf, recvbuf, recvcount, nullptr, datatype, op, comm,
                        nullptr, false);
}

extern "C" int PMPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                          MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  return reduce_scatter("MPI_Ireduce_scatter_block", sendbuf, recvbuf, recvcount, nullptr, datatype, op, comm,
                        request, true);
}

extern "C" int PMPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm) {
  return scan("MPI_Scan", sendbuf, recvbuf, count, datatype, op, comm, nullptr, false, false);
}

extern "C" int PMPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm, MPI_Request* request) {
  return scan("MPI_Iscan", sendbuf, recvbuf, count, datatype, op, comm, request, true, false);
}

extern "C" int PMPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                           MPI_Comm comm) {
  return scan("MPI_Exscan", sendbuf, recvbuf, count, datatype, op, comm, nullptr, false, true);
}

extern "C" int PMPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm, MPI_Request* request) {
  return scan("MPI_Iexscan", sendbuf, recvbuf, count, datatype, op, comm, request, true, true);
}

SHMPI_PMPI_ALIAS(Reduce)
SHMPI_PMPI_ALIAS(Ireduce)
SHMPI_PMPI_ALIAS(Allreduce)
SHMPI_PMPI_ALIAS(Iallreduce)
SHMPI_PMPI_ALIAS(Reduce_scatter)
SHMPI_PMPI_ALIAS(Ireduce_scatter)
SHMPI_PMPI_ALIAS(Reduce_scatter_block)
SHMPI_PMPI_ALIAS(Ireduce_scatter_block)
SHMPI_PMPI_ALIAS(Scan)
SHMPI_PMPI_ALIAS(Iscan)
SHMPI_PMPI_ALIAS(Exscan)
SHMPI_PMPI_ALIAS(Iexscan)
