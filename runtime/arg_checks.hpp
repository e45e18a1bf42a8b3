// Argument checks shared by the MPI entry points. Each returns the error
// class and a one-line reason, or nothing when the argument is valid.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "mpi.h"
#include "runtime/communicator.hpp"
#include "runtime/datatype.hpp"

namespace shmpi::runtime {

struct ArgError {
  int error_class;
  std::string reason;
};
using Check = std::optional<ArgError>;

Check check_count(int count);
Check check_buffer(const void* buffer, int count);
// The same for `count` elements of `type`: a derived type may hold absolute
// addresses (a buffer of MPI_BOTTOM, which is null), so only a predefined
// type makes a null buffer wrong, as in MPICH.
Check check_buffer(const DatatypeTable& types, const void* buffer, int count, MPI_Datatype type);
// A usable (predefined or committed) datatype; also returns its element
// size through `size`.
Check check_datatype(const DatatypeTable& types, MPI_Datatype type, std::size_t& size);
Check check_send_tag(int tag);
Check check_recv_tag(int tag);  // allows MPI_ANY_TAG
Check check_dest(int rank, const Communicator& comm);    // allows MPI_PROC_NULL
Check check_source(int rank, const Communicator& comm);  // also MPI_ANY_SOURCE

// The first failing check of a list, evaluated in order.
inline Check first_error(std::initializer_list<Check> checks) {
  for (const Check& c : checks)
    if (c) return c;
  return std::nullopt;
}

}  // namespace shmpi::runtime
