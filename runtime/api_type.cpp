// MPI entry points: datatypes. shmpi supports contiguous datatypes (of
// predefined or contiguous types); anything with holes is refused with
// MPI_ERR_TYPE rather than sent wrongly.
#include <climits>

#include "runtime/api.hpp"
#include "runtime/attribute_hooks.hpp"
#include "runtime/datatype.hpp"

using namespace shmpi::runtime;

namespace {

// Any datatype handle, committed or not (MPI_Type_size and constructors
// accept uncommitted types).
Check check_known_datatype(const DatatypeTable& types, MPI_Datatype type) {
  if (types.find(type) == nullptr) return ArgError{MPI_ERR_TYPE, "invalid datatype " + std::to_string(type)};
  return std::nullopt;
}

Check check_out_pointer(const void* pointer, const char* what) {
  if (pointer == nullptr) return ArgError{MPI_ERR_ARG, std::string("null ") + what + " pointer"};
  return std::nullopt;
}

// Creates the contiguous type of `count` elements of `old` in *newtype.
int make_contiguous(Context& context, const char* call, std::size_t count, MPI_Datatype old,
                    MPI_Datatype* newtype) {
  const auto info = contiguous_datatype(*context.datatypes().find(old), count);
  if (!info)
    return raise_error(context, nullptr, call, MPI_ERR_ARG,
                       "datatype of " + std::to_string(count) + " elements of datatype " + std::to_string(old) +
                           " is too large");
  *newtype = context.datatypes().add(*info);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Type_size(MPI_Datatype datatype, int* size) {
  constexpr const char* kCall = "MPI_Type_size";
  Context& context = context_for(kCall);
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_known_datatype(context.datatypes(), datatype),
                                     check_out_pointer(size, "size")})))
    return rc;
  const std::size_t bytes = context.datatypes().find(datatype)->size;
  *size = bytes > static_cast<std::size_t>(INT_MAX) ? MPI_UNDEFINED : static_cast<int>(bytes);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  constexpr const char* kCall = "MPI_Type_contiguous";
  Context& context = context_for(kCall);
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_count(count), check_known_datatype(context.datatypes(), oldtype),
                                     check_out_pointer(newtype, "newtype")})))
    return rc;
  return make_contiguous(context, kCall, static_cast<std::size_t>(count), oldtype, newtype);
}

// A vector whose blocks touch (stride == blocklength) or that has a single
// block is contiguous and is accepted as such.
extern "C" int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                                MPI_Datatype* newtype) {
  constexpr const char* kCall = "MPI_Type_vector";
  Context& context = context_for(kCall);
  Check blocks = blocklength < 0 ? Check{ArgError{MPI_ERR_ARG, "negative blocklength " + std::to_string(blocklength)}}
                                 : std::nullopt;
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_count(count), blocks, check_known_datatype(context.datatypes(), oldtype),
                                     check_out_pointer(newtype, "newtype")})))
    return rc;
  if (count > 1 && stride != blocklength)
    return raise_error(context, nullptr, kCall, MPI_ERR_TYPE,
                       "non-contiguous derived datatypes are not supported by shmpi");
  const std::size_t elements = static_cast<std::size_t>(count) * static_cast<std::size_t>(blocklength);
  return make_contiguous(context, kCall, elements, oldtype, newtype);
}

extern "C" int PMPI_Type_commit(MPI_Datatype* datatype) {
  constexpr const char* kCall = "MPI_Type_commit";
  Context& context = context_for(kCall);
  if (int rc = raise_if(context, nullptr, kCall, check_out_pointer(datatype, "datatype"))) return rc;
  if (int rc = raise_if(context, nullptr, kCall, check_known_datatype(context.datatypes(), *datatype))) return rc;
  context.datatypes().commit(*datatype);  // committing a predefined type is a no-op
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_free(MPI_Datatype* datatype) {
  constexpr const char* kCall = "MPI_Type_free";
  Context& context = context_for(kCall);
  if (int rc = raise_if(context, nullptr, kCall, check_out_pointer(datatype, "datatype"))) return rc;
  if (int rc = raise_if(context, nullptr, kCall, check_known_datatype(context.datatypes(), *datatype))) return rc;
  if (int rc = context.datatypes().is_derived(*datatype) ? erase_type_attributes(context, *datatype) : MPI_SUCCESS)
    return raise_error(context, nullptr, kCall, rc, "attribute delete callback returned " + std::to_string(rc));
  if (!context.datatypes().free(*datatype))
    return raise_error(context, nullptr, kCall, MPI_ERR_TYPE,
                       std::string("predefined datatype ") + context.datatypes().find(*datatype)->name +
                           " cannot be freed");
  context.send_targets().forget();  // the handle may name another datatype
  *datatype = MPI_DATATYPE_NULL;
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Type_size)
SHMPI_PMPI_ALIAS(Type_contiguous)
SHMPI_PMPI_ALIAS(Type_vector)
SHMPI_PMPI_ALIAS(Type_commit)
SHMPI_PMPI_ALIAS(Type_free)
