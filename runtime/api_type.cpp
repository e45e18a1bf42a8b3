// MPI entry points: datatypes.
#include "runtime/api.hpp"

using namespace shmpi::runtime;

extern "C" int PMPI_Type_size(MPI_Datatype datatype, int* size) {
  Context& context = context_for("MPI_Type_size");
  std::size_t bytes = 0;
  if (int rc = raise_if(context, nullptr, "MPI_Type_size", check_datatype(context.datatypes(), datatype, bytes))) return rc;
  if (size != nullptr) *size = static_cast<int>(bytes);
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Type_size)
