// What the topology constructors share: the new communicator holds the
// first `members` ranks of the parent, in the parent's order (shmpi does
// not reorder), and carries `topology`; the other ranks get MPI_COMM_NULL.
// And the lookups the queries share.
#pragma once

#include "mpi.h"
#include "runtime/communicator.hpp"
#include "runtime/topology.hpp"

namespace shmpi::runtime {

class Context;

// Collective over `parent` (an intracommunicator). MPI_SUCCESS or the
// error as the handler returned it.
int make_topology_comm(Context& context, const char* call, MPI_Comm parent, int members, Topology topology,
                       MPI_Comm* newcomm);

// The topology of kind T that communicator `comm` carries, or nullptr after
// raising MPI_ERR_COMM (invalid handle) or MPI_ERR_TOPOLOGY (none of that
// kind). `rc` receives the raised code.
template <class T>
const T* topology_or_raise(Context& context, const char* call, MPI_Comm comm, int& rc,
                           const Communicator** out = nullptr);

}  // namespace shmpi::runtime
