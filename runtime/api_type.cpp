// MPI entry points: committing and freeing datatypes, and their size and
// bounds (MPI_Type_size, MPI_Type_get_extent, MPI_Type_get_true_extent and
// their MPI_Count forms).
#include <climits>

#include "runtime/api.hpp"
#include "runtime/attribute_hooks.hpp"
#include "runtime/datatype.hpp"
#include "runtime/type_args.hpp"

using namespace shmpi::runtime;

namespace {

// Checks (type, out pointers) of a query; the engine layout on success.
const shmpi::datatype::Type* query(Context& context, const char* call, MPI_Datatype type, const void* out1,
                                   const void* out2, int& rc) {
  rc = raise_if(context, nullptr, call,
                first_error({check_known_datatype(context.datatypes(), type), check_out_pointer(out1, "output"),
                             check_out_pointer(out2, "output")}));
  return rc == MPI_SUCCESS ? context.datatypes().layout(type).get() : nullptr;
}

}  // namespace

extern "C" int PMPI_Type_size(MPI_Datatype datatype, int* size) {
  constexpr const char* kCall = "MPI_Type_size";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const auto* t = query(context, kCall, datatype, size, size, rc);
  if (t == nullptr) return rc;
  *size = t->size() > INT_MAX ? MPI_UNDEFINED : static_cast<int>(t->size());
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count* size) {
  constexpr const char* kCall = "MPI_Type_size_x";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const auto* t = query(context, kCall, datatype, size, size, rc);
  if (t == nullptr) return rc;
  *size = t->size();
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent) {
  constexpr const char* kCall = "MPI_Type_get_extent";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const auto* t = query(context, kCall, datatype, lb, extent, rc);
  if (t == nullptr) return rc;
  *lb = t->lb();
  *extent = t->extent();
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  constexpr const char* kCall = "MPI_Type_get_extent_x";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const auto* t = query(context, kCall, datatype, lb, extent, rc);
  if (t == nullptr) return rc;
  *lb = t->lb();
  *extent = t->extent();
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint* true_lb, MPI_Aint* true_extent) {
  constexpr const char* kCall = "MPI_Type_get_true_extent";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const auto* t = query(context, kCall, datatype, true_lb, true_extent, rc);
  if (t == nullptr) return rc;
  *true_lb = t->true_lb();
  *true_extent = t->true_extent();
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent) {
  constexpr const char* kCall = "MPI_Type_get_true_extent_x";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const auto* t = query(context, kCall, datatype, true_lb, true_extent, rc);
  if (t == nullptr) return rc;
  *true_lb = t->true_lb();
  *true_extent = t->true_extent();
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_commit(MPI_Datatype* datatype) {
  constexpr const char* kCall = "MPI_Type_commit";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (int rc = raise_if(context, nullptr, kCall, check_out_pointer(datatype, "datatype"))) return rc;
  if (int rc = raise_if(context, nullptr, kCall, check_known_datatype(context.datatypes(), *datatype))) return rc;
  context.datatypes().commit(*datatype);  // committing a predefined type is a no-op
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_free(MPI_Datatype* datatype) {
  constexpr const char* kCall = "MPI_Type_free";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (int rc = raise_if(context, nullptr, kCall, check_out_pointer(datatype, "datatype"))) return rc;
  if (int rc = raise_if(context, nullptr, kCall, check_known_datatype(context.datatypes(), *datatype))) return rc;
  if (int rc = context.datatypes().is_derived(*datatype) ? erase_type_attributes(context, *datatype) : MPI_SUCCESS)
    return raise_error(context, nullptr, kCall, rc, "attribute delete callback returned " + std::to_string(rc));
  if (!context.datatypes().free(*datatype))
    return raise_error(context, nullptr, kCall, MPI_ERR_TYPE,
                       std::string("predefined datatype ") + context.datatypes().find(*datatype)->name +
                           " cannot be freed");
  context.send_targets().forget();  // the handle may name another datatype
  context.objects().type_names.erase(*datatype);
  *datatype = MPI_DATATYPE_NULL;
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Type_size)
SHMPI_PMPI_ALIAS(Type_size_x)
SHMPI_PMPI_ALIAS(Type_get_extent)
SHMPI_PMPI_ALIAS(Type_get_extent_x)
SHMPI_PMPI_ALIAS(Type_get_true_extent)
SHMPI_PMPI_ALIAS(Type_get_true_extent_x)
SHMPI_PMPI_ALIAS(Type_commit)
SHMPI_PMPI_ALIAS(Type_free)
