// What the communicator and datatype calls do with attributes: a
// duplicate gets the copy callbacks' results, a freed object runs the
// delete callbacks. Each returns MPI_SUCCESS or the code a callback
// returned (the caller raises it as MPI_ERR_OTHER-like failure of its call).
#pragma once

#include "mpi.h"
#include "runtime/communicator.hpp"

namespace shmpi::runtime {

class Context;

// Fills `to.attributes` from the communicator behind `from`.
int copy_comm_attributes(Context& context, MPI_Comm from, Communicator& to);
// Runs the delete callbacks of the communicator behind `comm` (newest
// first) and empties its list; on a failing callback the rest stay.
int erase_comm_attributes(Context& context, MPI_Comm comm);

// The same for datatypes: MPI_Type_free calls erase_type_attributes(), a
// call that duplicates a datatype (MPI_Type_dup) copy_type_attributes().
int copy_type_attributes(Context& context, MPI_Datatype from, MPI_Datatype to);
int erase_type_attributes(Context& context, MPI_Datatype type);

}  // namespace shmpi::runtime
