// What the datatype entry points share: checks of their arguments, the
// record of how a type was made (for MPI_Type_get_contents), and turning a
// new layout into a handle.
#pragma once

#include <span>
#include <vector>

#include "runtime/api.hpp"
#include "runtime/datatype.hpp"

namespace shmpi::runtime {

// Any datatype handle, committed or not (queries and constructors accept
// uncommitted types); a freed one is named as such.
Check check_known_datatype(const DatatypeTable& types, MPI_Datatype type);
Check check_out_pointer(const void* pointer, const char* what);
// A non-negative block length (`what` names the argument).
Check check_blocklength(int length, const char* what = "blocklength");
// An array argument that is read `count` elements far.
Check check_array(const void* array, int count, const char* what);

// The record of a constructor call: its combiner, arguments and old types.
TypeContents contents_of(const DatatypeTable& types, int combiner, std::vector<int> ints, std::vector<MPI_Aint> aints,
                         std::span<const MPI_Datatype> olds);

// Stores a handle for the new derived type `layout` (nullptr: its size or
// bounds overflow, an error naming `call`) in *newtype.
int register_type(Context& context, const char* call, datatype::TypeRef layout, TypeContents contents,
                  MPI_Datatype* newtype);

// a * b in bytes, or nothing on overflow.
std::optional<MPI_Aint> checked_product(MPI_Aint a, MPI_Aint b) noexcept;

}  // namespace shmpi::runtime
