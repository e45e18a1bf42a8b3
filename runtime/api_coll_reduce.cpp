// MPI entry points: reductions (reduce, allreduce, reduce-scatter, scan,
// exscan, reduce_local), blocking and nonblocking. Blocking reduce and
// allreduce with a predefined op take the tuned internal collectives
// (runtime/collectives.cpp); everything else runs a schedule
// (runtime/coll_reduce.cpp, coll_scan.cpp), whose order also suits
// non-commutative user operations.
#include <cstring>

#include "runtime/coll_call.hpp"
#include "runtime/collectives.hpp"
#include "runtime/intercomm_coll.hpp"

using namespace shmpi::runtime;

namespace {

// Checks a reduction's count, datatype, op and request pointer; fills `op_out`.
Check check_reduction(Context& context, int count, MPI_Datatype datatype, MPI_Op op, const MPI_Request* request,
                      bool nonblocking, Operation& op_out) {
  std::size_t element = 0;
  return first_error({check_request_pointer(request, nonblocking), check_count(count),
                      check_collective_datatype(context.datatypes(), datatype, element),
                      check_operation(context, op, datatype, op_out)});
}

int reduce(const char* call, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
           int root, MPI_Comm comm, MPI_Request* request, bool nonblocking) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, call, comm);
  if (c->inter) {
    if (nonblocking) return unsupported_on_intercomm(context, *c, call);
    return intercomm_reduce(context, sendbuf, recvbuf, count, datatype, op, root, *c);
  }
  Operation operation;
  if (int rc = raise_if(context, c, call,
                        first_error({check_reduction(context, count, datatype, op, request, nonblocking, operation),
                                     check_root(root, *c)})))
    return rc;
  const bool at_root = c->rank == root;
  if (int rc = raise_if(context, c, call,
                        at_root ? check_reduce_buffers(sendbuf, recvbuf, count)
                                : first_error({check_not_in_place(sendbuf, "sendbuf"), check_buffer(sendbuf, count)})))
    return rc;
  const void* send = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  const auto n = static_cast<std::size_t>(count);
  if (!nonblocking && operation.user == nullptr) {
    if (n == 0) return MPI_SUCCESS;
    try {
      shmpi::runtime::reduce(context, *c, send, at_root ? recvbuf : nullptr,
                             Reduction{op, operation.type, n * operation.per_element, n * operation.element_bytes},
                             root);
    } catch (const std::bad_alloc&) {
      return out_of_memory(context, *c, call);
    }
    return MPI_SUCCESS;
  }
  return run_collective(context, *c, comm, request, call, [&](Schedule& s) {
    s.set_operation(operation);
    build_reduce(s, send, at_root ? recvbuf : nullptr, n, root);
  });
}

int allreduce(const char* call, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, MPI_Request* request, bool nonblocking) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, call, comm);
  if (c->inter) {
    if (nonblocking) return unsupported_on_intercomm(context, *c, call);
    return intercomm_allreduce(context, sendbuf, recvbuf, count, datatype, op, *c);
  }
  Operation operation;
  if (int rc = raise_if(context, c, call,
                        first_error({check_reduction(context, count, datatype, op, request, nonblocking, operation),
                                     check_reduce_buffers(sendbuf, recvbuf, count)})))
    return rc;
  const void* send = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  const auto n = static_cast<std::size_t>(count);
  if (!nonblocking && operation.user == nullptr) {
    if (n == 0) return MPI_SUCCESS;
    if (send != recvbuf) std::memcpy(recvbuf, send, n * operation.element_bytes);
    try {
      shmpi::runtime::allreduce(context, *c, recvbuf,
                                Reduction{op, operation.type, n * operation.per_element, n * operation.element_bytes});
    } catch (const std::bad_alloc&) {
      return out_of_memory(context, *c, call);
    }
    return MPI_SUCCESS;
  }
  return run_collective(context, *c, comm, request, call, [&](Schedule& s) {
    s.set_operation(operation);
    build_allreduce(s, send, recvbuf, n);
  });
}

// `recvcounts` == nullptr: `recvcount` for every rank (the _block variant).
int reduce_scatter(const char* call, const void* sendbuf, void* recvbuf, int recvcount, const int* recvcounts,
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request, bool nonblocking) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, call, comm);
  if (c->inter) return unsupported_on_intercomm(context, *c, call);
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
  if (int rc = raise_if(context, c, call,
                        first_error({bad_count, check_reduction(context, mine, datatype, op, request, nonblocking,
                                                                operation),
                                     check_reduce_buffers(sendbuf, recvbuf, mine),
                                     sendbuf == MPI_IN_PLACE ? check_buffer(recvbuf, total != 0 ? 1 : 0)
                                                             : check_buffer(sendbuf, total != 0 ? 1 : 0)})))
    return rc;
  const void* send = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  return run_collective(context, *c, comm, request, call, [&](Schedule& s) {
    s.set_operation(operation);
    build_reduce_scatter(s, send, recvbuf, counts);
  });
}

int scan(const char* call, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
         MPI_Comm comm, MPI_Request* request, bool nonblocking, bool exclusive) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, call, comm);
  if (c->inter) return unsupported_on_intercomm(context, *c, call);
  Operation operation;
  if (int rc = raise_if(context, c, call,
                        first_error({check_reduction(context, count, datatype, op, request, nonblocking, operation),
                                     check_reduce_buffers(sendbuf, recvbuf, count)})))
    return rc;
  const void* send = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  return run_collective(context, *c, comm, request, call, [&](Schedule& s) {
    s.set_operation(operation);
    build_scan(s, send, recvbuf, static_cast<std::size_t>(count), exclusive);
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
