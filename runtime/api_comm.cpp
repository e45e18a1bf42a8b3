// MPI entry points: communicators.
#include "runtime/api.hpp"

using namespace shmpi::runtime;

extern "C" int PMPI_Comm_rank(MPI_Comm comm, int* rank) {
  Context& context = context_for("MPI_Comm_rank");
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, "MPI_Comm_rank", comm);
  if (rank == nullptr) return raise_error(context, c, "MPI_Comm_rank", MPI_ERR_ARG, "null rank pointer");
  *rank = c->rank;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_size(MPI_Comm comm, int* size) {
  Context& context = context_for("MPI_Comm_size");
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, "MPI_Comm_size", comm);
  if (size == nullptr) return raise_error(context, c, "MPI_Comm_size", MPI_ERR_ARG, "null size pointer");
  *size = c->size;
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Comm_rank)
SHMPI_PMPI_ALIAS(Comm_size)
