// Datatypes: the size and name of every datatype handle.
#pragma once

#include <cstddef>
#include <optional>

#include "mpi.h"

namespace shmpi::runtime {

struct DatatypeInfo {
  std::size_t size;   // bytes of one element
  const char* name;   // "MPI_INT"
};

// The predefined datatype `type`, or nullptr if it is not one.
const DatatypeInfo* predefined_datatype(MPI_Datatype type) noexcept;

}  // namespace shmpi::runtime
