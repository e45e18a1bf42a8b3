// Intercommunicator collectives that run as schedules (runtime/
// intercomm_schedules.hpp): every collective but the blocking MPI_Barrier,
// MPI_Bcast, and MPI_Reduce / MPI_Allreduce with a predefined op, which go
// through the groups' leaders (runtime/intercomm_coll.hpp).
//
// The entry points in api_coll*.cpp call these once they know `c` is an
// intercommunicator. Each checks its own arguments (MPI_ROOT /
// MPI_PROC_NULL / a remote rank as root, counts and blocks over the remote
// group, no MPI_IN_PLACE) and runs the call: blocking when `request` is
// null, else behind a new request. MPI_SUCCESS, or the error as the
// communicator's handler returned it.
#pragma once

#include "mpi.h"
#include "runtime/coll_call.hpp"

namespace shmpi::runtime {

int inter_ibarrier(Context& context, const Communicator& c, MPI_Comm handle, MPI_Request* request);
int inter_ibcast(Context& context, const Communicator& c, MPI_Comm handle, void* buffer, int count,
                 MPI_Datatype type, int root, MPI_Request* request);
// Gather(v) and scatter(v): `recv` (gather) or `send` (scatter) is the
// root's, with a block per remote rank.
int inter_gather(Context& context, const Communicator& c, MPI_Comm handle, const char* call, const DataArgs& send,
                 const DataArgs& recv, int root, MPI_Request* request, bool nonblocking);
int inter_scatter(Context& context, const Communicator& c, MPI_Comm handle, const char* call, const DataArgs& send,
                  const DataArgs& recv, int root, MPI_Request* request, bool nonblocking);
// Allgather(v): `send` is one block; `recv` has one per remote rank.
int inter_allgather(Context& context, const Communicator& c, MPI_Comm handle, const char* call,
                    const DataArgs& send, const DataArgs& recv, MPI_Request* request, bool nonblocking);
int inter_alltoall(Context& context, const Communicator& c, MPI_Comm handle, const char* call, const DataArgs& send,
                   const DataArgs& recv, MPI_Request* request, bool nonblocking);

int inter_reduce(Context& context, const Communicator& c, MPI_Comm handle, const char* call, const void* sendbuf,
                 void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Request* request,
                 bool nonblocking);
int inter_allreduce(Context& context, const Communicator& c, MPI_Comm handle, const char* call, const void* sendbuf,
                    void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Request* request, bool nonblocking);
// `recvcounts` (one per rank of our own group) null: `recvcount` each, the
// _block variant.
int inter_reduce_scatter(Context& context, const Communicator& c, MPI_Comm handle, const char* call,
                         const void* sendbuf, void* recvbuf, int recvcount, const int* recvcounts, MPI_Datatype type,
                         MPI_Op op, MPI_Request* request, bool nonblocking);

}  // namespace shmpi::runtime
