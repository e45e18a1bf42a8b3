// Duplicating a communicator (MPI_Comm_dup, MPI_Comm_idup,
// MPI_Comm_dup_with_info, MPI_Comm_idup_with_info): the same group(s),
// topology and error handler, a new context agreed over every member,
// attributes as the copy callbacks hand them out, and the hints of `hints`
// when given (else the parent's).
//
// The nonblocking duplicates run the callbacks and take their handle at
// once; the context agreement then runs in the background as a chain of
// schedules (runtime/schedule.hpp) on the parent's collective context with
// the tag of the parent's next collective call, moving on whenever the
// rank waits for anything. Until the request completes the new
// communicator holds a placeholder context (using it then is erroneous).
#pragma once

#include "mpi.h"
#include "runtime/info.hpp"

namespace shmpi::runtime {

class Context;

// `comm` must be valid. MPI_SUCCESS, or the error as the handler returned it.
int duplicate(Context& context, const char* call, MPI_Comm comm, const InfoStore* hints, MPI_Comm* newcomm);

// The same in the background: `*newcomm` is set at once, and `*request`
// completes once the new communicator is usable.
int start_duplicate(Context& context, const char* call, MPI_Comm comm, const InfoStore* hints, MPI_Comm* newcomm,
                    MPI_Request* request);

}  // namespace shmpi::runtime
