// MPI entry points: datatype names (MPI_Type_set_name, MPI_Type_get_name).
// A predefined type is called by its MPI name until renamed; a derived
// type has the empty name until named. MPI_Type_free forgets the name
// (runtime/api_type.cpp); duplicates do not inherit it.
#include <cstring>
#include <new>

#include "runtime/api.hpp"
#include "runtime/type_args.hpp"

using namespace shmpi::runtime;

extern "C" int PMPI_Type_set_name(MPI_Datatype datatype, const char* type_name) {
  constexpr const char* kCall = "MPI_Type_set_name";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (int rc = raise_if(context, nullptr, kCall, check_known_datatype(context.datatypes(), datatype))) return rc;
  if (type_name == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null name");
  try {
    // Longer names are cut to MPI_MAX_OBJECT_NAME - 1 characters, as for communicators.
    context.objects().type_names[datatype].assign(type_name, strnlen(type_name, MPI_MAX_OBJECT_NAME - 1));
  } catch (const std::bad_alloc&) {
    return raise_error(context, nullptr, kCall, MPI_ERR_NO_MEM, "out of memory");
  }
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_get_name(MPI_Datatype datatype, char* type_name, int* resultlen) {
  constexpr const char* kCall = "MPI_Type_get_name";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (int rc = raise_if(context, nullptr, kCall, check_known_datatype(context.datatypes(), datatype))) return rc;
  if (type_name == nullptr || resultlen == nullptr)
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null type_name or resultlen pointer");
  const auto& names = context.objects().type_names;
  const auto it = names.find(datatype);
  const char* name = it != names.end()                          ? it->second.c_str()
                     : context.datatypes().is_derived(datatype) ? ""
                                                                : context.datatypes().find(datatype)->name;
  const std::size_t n = std::strlen(name);
  std::memcpy(type_name, name, n + 1);
  *resultlen = static_cast<int>(n);
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Type_set_name)
SHMPI_PMPI_ALIAS(Type_get_name)
