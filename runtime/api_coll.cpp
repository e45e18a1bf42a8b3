// MPI entry points: collectives.
#include "runtime/api.hpp"
#include "runtime/collectives.hpp"

using namespace shmpi::runtime;

extern "C" int PMPI_Barrier(MPI_Comm comm) {
  constexpr const char* kCall = "MPI_Barrier";
  Context& context = context_for(kCall);
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  barrier(context, *c);
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Barrier)
