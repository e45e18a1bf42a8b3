// Datatypes: the size and name of every datatype handle, and the derived
// (contiguous) datatypes a process creates. Every datatype shmpi knows is
// contiguous: `base_count` elements of the predefined type `base`, so it
// moves as `size` bytes and reduces as base_count elements of `base`.
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

// The derived datatype made of `count` consecutive elements of `old`
// (uncommitted), or nothing if its size would overflow std::size_t.
std::optional<DatatypeInfo> contiguous_datatype(const DatatypeInfo& old, std::size_t count) noexcept;

namespace detail {
extern const DatatypeInfo* const predefined_table;  // indexed by handle
}  // namespace detail

// The predefined datatype `type`, or nullptr if it is not one. Inline: every
// send and receive looks its datatype up.
inline const DatatypeInfo* predefined_datatype(MPI_Datatype type) noexcept {
  if (type <= MPI_DATATYPE_NULL || type >= SHMPI_PREDEFINED_TYPES) return nullptr;
  return &detail::predefined_table[type];
}

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

  // Whether `type` is a derived datatype of this table.
  bool is_derived(MPI_Datatype type) const noexcept {
    return type >= SHMPI_PREDEFINED_TYPES && find(type) != nullptr;
  }

  // Adds an uncommitted derived datatype and returns its handle (reusing
  // freed ones).
  MPI_Datatype add(const DatatypeInfo& info);
  // Commits derived `type`; false if it is not one.
  bool commit(MPI_Datatype type) noexcept;
  // Frees derived `type`; false for predefined or unknown handles.
  bool free(MPI_Datatype type) noexcept;

 private:
  std::vector<std::optional<DatatypeInfo>> derived_;
};

}  // namespace shmpi::runtime
