// MPI_Comm_split's core, shared with MPI_Comm_split_type and MPI_Cart_sub.
#pragma once

#include <optional>

#include "runtime/communicator.hpp"

namespace shmpi::runtime {

class Context;

// Splits intracommunicator `parent` (collective over it): the ranks with
// our `color` ordered by key, ties by parent rank; nothing for
// MPI_UNDEFINED. Error handler from the parent. Throws std::bad_alloc.
std::optional<Communicator> split(Context& context, const Communicator& parent, int color, int key,
                                  const char* call);

}  // namespace shmpi::runtime
