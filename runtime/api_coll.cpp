// MPI entry points: barrier and broadcast, blocking (runtime/collectives.cpp)
// and nonblocking (schedules in runtime/coll_basic.cpp). The reductions are
// in api_coll_reduce.cpp, gathers in api_coll_gather.cpp, alltoall in
// api_coll_alltoall.cpp.
#include "runtime/coll_call.hpp"
#include "runtime/collectives.hpp"
#include "runtime/intercomm_coll.hpp"

using namespace shmpi::runtime;

namespace {

// A broadcast's checked size in bytes, or the raised error.
int check_bcast(Context& context, const Communicator& c, const char* call, void* buffer, int count,
                MPI_Datatype datatype, int root, const MPI_Request* request, bool nonblocking, std::size_t& bytes) {
  Typed t;
  if (int rc = raise_if(context, &c, call,
                        first_error({check_request_pointer(request, nonblocking),
                                     check_typed(context.datatypes(), buffer, count, datatype, t),
                                     check_root(root, c)})))
    return rc;
  bytes = t.bytes;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Barrier(MPI_Comm comm) {
  constexpr const char* kCall = "MPI_Barrier";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (c->inter) return intercomm_barrier(context, *c);
  barrier(context, *c);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  constexpr const char* kCall = "MPI_Ibarrier";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (c->inter) return unsupported_on_intercomm(context, *c, kCall);
  if (int rc = raise_if(context, c, kCall, check_request_pointer(request, true))) return rc;
  return run_collective(context, *c, comm, request, kCall, [](Schedule& s) { build_barrier(s); });
}

extern "C" int PMPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  constexpr const char* kCall = "MPI_Bcast";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (c->inter) return intercomm_bcast(context, buffer, count, datatype, root, *c);
  std::size_t bytes = 0;
  if (int rc = check_bcast(context, *c, kCall, buffer, count, datatype, root, nullptr, false, bytes)) return rc;
  if (bytes > 0) bcast(context, *c, buffer, bytes, root);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                           MPI_Request* request) {
  constexpr const char* kCall = "MPI_Ibcast";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (c->inter) return unsupported_on_intercomm(context, *c, kCall);
  std::size_t bytes = 0;
  if (int rc = check_bcast(context, *c, kCall, buffer, count, datatype, root, request, true, bytes)) return rc;
  return run_collective(context, *c, comm, request, kCall,
                        [&](Schedule& s) { build_bcast(s, buffer, bytes, root); });
}

SHMPI_PMPI_ALIAS(Barrier)
SHMPI_PMPI_ALIAS(Ibarrier)
SHMPI_PMPI_ALIAS(Bcast)
SHMPI_PMPI_ALIAS(Ibcast)
