// Datatypes: the size and name of every datatype handle.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "mpi.h"

namespace shmpi::runtime {

struct DatatypeInfo {
  std::size_t size;   // bytes of one element
  const char* name;   // "MPI_INT", or "derived datatype"
  MPI_Datatype base = MPI_DATATYPE_NULL;  // predefined type it is made of (itself if predefined)
  std::size_t base_count = 1;             // elements of `base` in one element of this type
  bool committed = true;                  // derived types must be committed before use
};

// The predefined datatype `type`, or nullptr if it is not one.
const DatatypeInfo* predefined_datatype(MPI_Datatype type) noexcept;

// Predefined and derived datatypes of this process. Derived handles start
// at SHMPI_PREDEFINED_TYPES.
class DatatypeTable {
 public:
  // The datatype behind `type` (committed or not), or nullptr.
  const DatatypeInfo* find(MPI_Datatype type) const noexcept {
    if (type < SHMPI_PREDEFINED_TYPES) return predefined_datatype(type);
    const std::size_t i = static_cast<std::size_t>(type - SHMPI_PREDEFINED_TYPES);
    return i < derived_.size() && derived_[i] ? &*derived_[i] : nullptr;
  }

 private:
  std::vector<std::optional<DatatypeInfo>> derived_;
};

}  // namespace shmpi::runtime
