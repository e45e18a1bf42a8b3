// Datatypes: the size and name of every datatype handle, the derived
// datatypes a process creates, and their layouts in the datatype engine
// (datatype/). A send or receive looks only at DatatypeInfo: a `direct`
// type (every predefined one, and committed derived types without gaps)
// moves as count * size bytes straight from the buffer and never touches
// the engine; any other committed type is packed (runtime/packed_transfer).
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "datatype/type.hpp"
#include "mpi.h"
#include "runtime/stable_slots.hpp"

namespace shmpi::runtime {

struct DatatypeInfo {
  std::size_t size;   // packed bytes of one element
  const char* name;   // "MPI_INT", or "derived datatype"
  MPI_Datatype base = MPI_DATATYPE_NULL;  // predefined type all its elements are (itself if predefined), or NULL
  std::size_t base_count = 1;             // elements of `base` in one element of this type
  bool committed = true;                  // derived types must be committed before use
  bool direct = true;                     // committed and contiguous from the buffer's start
};

struct DerivedType;
using DerivedRef = std::shared_ptr<const DerivedType>;

// What MPI_Type_get_envelope / MPI_Type_get_contents return: the
// constructor and its arguments. Old derived types are kept alive here, so
// they can be handed out again after the user freed them.
struct TypeContents {
  int combiner = MPI_COMBINER_NAMED;
  std::vector<int> ints;
  std::vector<MPI_Aint> aints;
  std::vector<MPI_Datatype> predefined;  // per old type: its handle if predefined, else MPI_DATATYPE_NULL
  std::vector<DerivedRef> derived;       // per old type: the derived type, else nullptr
};

// A derived type, immutable and shared by every handle that names it.
struct DerivedType {
  DatatypeInfo info;  // `committed` and `direct` are per handle (DatatypeTable)
  datatype::TypeRef layout;
  TypeContents contents;
  bool overlaps = false;  // one element's runs overlap: it cannot be received into
};

class DatatypeTable;
// The derived type described by `layout`, made as `contents` says
// (`types` gives the predefined layouts it is built of).
DerivedRef make_derived(const DatatypeTable& types, datatype::TypeRef layout, TypeContents contents);

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
  DatatypeTable();

  // The datatype behind `type` (committed or not), or nullptr.
  const DatatypeInfo* find(MPI_Datatype type) const noexcept {
    if (type < SHMPI_PREDEFINED_TYPES) return predefined_datatype(type);
    const std::size_t i = static_cast<std::size_t>(type - SHMPI_PREDEFINED_TYPES);
    return i < derived_.size() && derived_[i].type ? &derived_[i].info : nullptr;
  }

  // Whether `type` is a derived datatype of this table.
  bool is_derived(MPI_Datatype type) const noexcept {
    return type >= SHMPI_PREDEFINED_TYPES && find(type) != nullptr;
  }
  // Whether `type` named a derived datatype that MPI_Type_free freed.
  bool was_freed(MPI_Datatype type) const noexcept;

  // The engine's layout of a known type (find(type) != nullptr).
  const datatype::TypeRef& layout(MPI_Datatype type) const noexcept;
  // The derived type behind `type`, or nullptr (predefined or unknown).
  const DerivedRef& derived(MPI_Datatype type) const noexcept;

  // Adds a handle for derived `type` and returns it (reusing freed ones).
  MPI_Datatype add(DerivedRef type, bool committed = false);
  // Commits derived `type`; false if it is not one.
  bool commit(MPI_Datatype type) noexcept;
  // Frees derived `type`; false for predefined or unknown handles.
  bool free(MPI_Datatype type) noexcept;

 private:
  struct Slot {
    DerivedRef type;  // nullptr: free
    DatatypeInfo info{};
    bool freed = false;  // freed by MPI_Type_free and not reused since
  };
  std::array<datatype::TypeRef, SHMPI_PREDEFINED_TYPES> predefined_;
  StableSlots<Slot> derived_;  // never moves (runtime/stable_slots.hpp): a waiting call holds its type
};

}  // namespace shmpi::runtime
