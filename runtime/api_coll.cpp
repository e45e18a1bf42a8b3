// MPI entry points: barrier and broadcast, blocking (the collective slots
// of runtime/shm_collectives.hpp where they serve the call, else
// runtime/collectives.cpp; a datatype that is not contiguous goes packed
// through the same bcast) and
// nonblocking (schedules in runtime/coll_basic.cpp). The reductions are
// in api_coll_reduce.cpp, gathers in api_coll_gather.cpp, alltoall in
// api_coll_alltoall.cpp.
#include "runtime/coll_call.hpp"
#include "runtime/coll_packing.hpp"
#include "runtime/collectives.hpp"
#include "runtime/intercomm_calls.hpp"
#include "runtime/intercomm_coll.hpp"
#include "runtime/packing.hpp"
#include "runtime/shm_collectives.hpp"

using namespace shmpi::runtime;

namespace {

// A broadcast's checked buffer, or the raised error.
int check_bcast(Context& context, const Communicator& c, const char* call, void* buffer, int count,
                MPI_Datatype datatype, int root, const MPI_Request* request, bool nonblocking, Typed& t) {
  return raise_if(context, &c, call,
                  first_error({check_request_pointer(request, nonblocking),
                               check_typed(context.datatypes(), buffer, count, datatype, t,
                                           c.rank == root ? Use::Send : Use::Receive),
                               check_root(root, c)}));
}

// The root's elements are sent packed; the others' received packed.
void build_typed_bcast(Schedule& s, void* buffer, const Typed& t, std::int32_t root) {
  void* bytes = s.rank() == root ? const_cast<void*>(packed_input(s, buffer, t)) : packed_output(s, buffer, t);
  build_bcast(s, bytes, t.bytes, root);
}

// The tuned blocking bcast: through the collective slots where they serve
// the call, else along the tree.
void tuned_bcast(Context& context, const Communicator& c, void* buffer, std::size_t bytes, std::int32_t root) {
  ShmCollectives& shm = context.shm_collectives();
  if (shm.serves(c, bytes))
    shm.bcast(context, c, buffer, bytes, root);
  else if (shm.serves_direct_bcast(c, bytes))
    shm.bcast_direct(context, c, buffer, bytes, root);
  else
    bcast(context, c, buffer, bytes, root);
}

}  // namespace

extern "C" int PMPI_Barrier(MPI_Comm comm) {
  constexpr const char* kCall = "MPI_Barrier";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (c->inter) return intercomm_barrier(context, *c);
  ShmCollectives& shm = context.shm_collectives();
  if (shm.serves(*c, 0))
    shm.barrier(context, *c);
  else
    barrier(context, *c);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  constexpr const char* kCall = "MPI_Ibarrier";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (c->inter) return inter_ibarrier(context, *c, comm, request);
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
  Typed t;
  if (int rc = check_bcast(context, *c, kCall, buffer, count, datatype, root, nullptr, false, t)) return rc;
  if (t.bytes == 0) return MPI_SUCCESS;
  if (t.direct()) {
    tuned_bcast(context, *c, buffer, t.bytes, root);
    return MPI_SUCCESS;
  }
  // Packed through the same tuned bcast: another rank's type may be
  // contiguous (only the type signatures match).
  try {
    std::vector<std::byte> packed(t.bytes);
    if (c->rank == root) pack_elements(*t.layout, t.count, buffer, packed.data());
    tuned_bcast(context, *c, packed.data(), t.bytes, root);
    if (c->rank != root) unpack_elements(*t.layout, t.count, packed.data(), t.bytes, buffer);
  } catch (const std::bad_alloc&) {
    return out_of_memory(context, *c, kCall);
  }
  return MPI_SUCCESS;
}

extern "C" int PMPI_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                           MPI_Request* request) {
  constexpr const char* kCall = "MPI_Ibcast";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (c->inter) return inter_ibcast(context, *c, comm, buffer, count, datatype, root, request);
  Typed t;
  if (int rc = check_bcast(context, *c, kCall, buffer, count, datatype, root, request, true, t)) return rc;
  return run_collective(context, *c, comm, request, kCall,
                        [&](Schedule& s) { build_typed_bcast(s, buffer, t, root); });
}

SHMPI_PMPI_ALIAS(Barrier)
SHMPI_PMPI_ALIAS(Ibarrier)
SHMPI_PMPI_ALIAS(Bcast)
SHMPI_PMPI_ALIAS(Ibcast)
