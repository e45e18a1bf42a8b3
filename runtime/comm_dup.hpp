// Duplicating a communicator (MPI_Comm_dup, MPI_Comm_idup,
// MPI_Comm_dup_with_info): the same group(s), topology and error handler,
// a new context agreed over every member, attributes as the copy callbacks
// hand them out, and the hints of `hints` when given (else the parent's).
#pragma once

#include "mpi.h"
#include "runtime/info.hpp"

namespace shmpi::runtime {

class Context;

// `comm` must be valid. MPI_SUCCESS, or the error as the handler returned it.
int duplicate(Context& context, const char* call, MPI_Comm comm, const InfoStore* hints, MPI_Comm* newcomm);

}  // namespace shmpi::runtime
