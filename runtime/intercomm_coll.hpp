// Blocking collectives on intercommunicators (MPI-4.1 section 6.2.2):
// MPI_Barrier, MPI_Bcast, and MPI_Reduce / MPI_Allreduce with a predefined
// op. Every other intercommunicator collective runs as a schedule
// (runtime/intercomm_calls.hpp). Rooted calls take MPI_ROOT at the root,
// MPI_PROC_NULL at the rest of its group, and the root's rank in the remote
// group at the other group.
//
// Each works through the groups' leaders (local rank 0): a group first
// combines within itself on its own intracommunicator (local_side()),
// then the leaders exchange over the intercommunicator's collective context.
//
// The entry points in api_coll.cpp call these once they know `comm` is an
// intercommunicator; each checks its own arguments and returns MPI_SUCCESS
// or the error as the handler returned it.
#pragma once

#include "mpi.h"
#include "runtime/communicator.hpp"

namespace shmpi::runtime {

class Context;

int intercomm_barrier(Context& context, const Communicator& comm);
int intercomm_bcast(Context& context, void* buffer, int count, MPI_Datatype type, int root,
                    const Communicator& comm);
int intercomm_reduce(Context& context, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                     int root, const Communicator& comm);
int intercomm_allreduce(Context& context, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                        MPI_Op op, const Communicator& comm);

}  // namespace shmpi::runtime
