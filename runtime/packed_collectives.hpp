// The collectives with datatypes that are not contiguous: the data is
// packed into a temporary buffer, the collective runs on its bytes (a
// reduction on its base elements), and the result is unpacked. The
// algorithms (runtime/collectives.hpp) only ever see contiguous bytes.
#pragma once

#include "mpi.h"
#include "runtime/collectives.hpp"
#include "runtime/context.hpp"

namespace shmpi::runtime {

// MPI_Bcast of `count` elements of `type` at `buffer`. Throws std::bad_alloc.
void bcast_packed(Context& context, const Communicator& comm, void* buffer, int count, MPI_Datatype type,
                  std::int32_t root);

// MPI_Reduce / MPI_Allreduce of `count` elements of `type`, whose basic
// elements are all of one predefined type (reduction.type). `send` is
// MPI_IN_PLACE-resolved (it may equal `recv`). Throw std::bad_alloc.
void reduce_packed(Context& context, const Communicator& comm, const void* send, void* recv, int count,
                   MPI_Datatype type, const Reduction& reduction, std::int32_t root);
void allreduce_packed(Context& context, const Communicator& comm, const void* send, void* recv, int count,
                      MPI_Datatype type, const Reduction& reduction);

}  // namespace shmpi::runtime
