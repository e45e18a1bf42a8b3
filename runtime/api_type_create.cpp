// MPI entry points: the datatype constructors of MPI-4.1 5.1.2 (contiguous,
// vector, indexed, struct and their byte-displacement and block variants),
// MPI_Type_create_resized and MPI_Type_dup. Each builds the engine's layout
// (datatype/type.hpp) and records its arguments for MPI_Type_get_contents.
#include <vector>

#include "datatype/type.hpp"
#include "runtime/attribute_hooks.hpp"
#include "runtime/type_args.hpp"

using namespace shmpi::runtime;
using shmpi::datatype::TypeRef;

namespace {

// Checks (count, old type, newtype) shared by every constructor.
Check check_common(const DatatypeTable& types, int count, MPI_Datatype old, const MPI_Datatype* newtype) {
  return first_error({check_count(count), check_known_datatype(types, old), check_out_pointer(newtype, "newtype")});
}

// Element displacements (units of the old extent) in bytes; nothing on overflow.
std::optional<std::vector<MPI_Aint>> scaled(std::span<const int> displacements, MPI_Aint extent) {
  std::vector<MPI_Aint> out;
  out.reserve(displacements.size());
  for (int d : displacements) {
    const auto bytes = checked_product(d, extent);
    if (!bytes) return std::nullopt;
    out.push_back(*bytes);
  }
  return out;
}

Check check_blocklengths(std::span<const int> lengths) {
  for (std::size_t i = 0; i < lengths.size(); ++i)
    if (lengths[i] < 0)
      return ArgError{MPI_ERR_ARG, "negative blocklength " + std::to_string(lengths[i]) + " at index " + std::to_string(i)};
  return std::nullopt;
}

std::vector<std::int64_t> widened(std::span<const int> values) { return {values.begin(), values.end()}; }

std::vector<int> joined(std::initializer_list<std::span<const int>> parts) {
  std::vector<int> out;
  for (std::span<const int> p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// MPI_Type_indexed and MPI_Type_create_hindexed (and their _block forms)
// after their checks: blocks of `lengths` at byte displacements `disps`.
int make_indexed(Context& context, const char* call, std::span<const int> lengths, std::optional<std::vector<MPI_Aint>> disps,
                 MPI_Datatype old, TypeContents contents, MPI_Datatype* newtype) {
  TypeRef layout;
  if (disps) {
    const std::vector<std::int64_t> lens = widened(lengths);
    layout = shmpi::datatype::make_hindexed(lens, *disps, context.datatypes().layout(old));
  }
  return register_type(context, call, std::move(layout), std::move(contents), newtype);
}

}  // namespace

extern "C" int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  constexpr const char* kCall = "MPI_Type_contiguous";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const DatatypeTable& types = context.datatypes();
  if (int rc = raise_if(context, nullptr, kCall, check_common(types, count, oldtype, newtype))) return rc;
  return register_type(context, kCall, shmpi::datatype::make_contiguous(count, types.layout(oldtype)),
                       contents_of(types, MPI_COMBINER_CONTIGUOUS, {count}, {}, {&oldtype, 1}), newtype);
}

extern "C" int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  constexpr const char* kCall = "MPI_Type_vector";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const DatatypeTable& types = context.datatypes();
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_common(types, count, oldtype, newtype), check_blocklength(blocklength)})))
    return rc;
  const TypeRef& old = types.layout(oldtype);
  const auto bytes = checked_product(stride, old->extent());
  return register_type(context, kCall, bytes ? shmpi::datatype::make_hvector(count, blocklength, *bytes, old) : nullptr,
                       contents_of(types, MPI_COMBINER_VECTOR, {count, blocklength, stride}, {}, {&oldtype, 1}),
                       newtype);
}

extern "C" int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                        MPI_Datatype* newtype) {
  constexpr const char* kCall = "MPI_Type_create_hvector";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const DatatypeTable& types = context.datatypes();
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_common(types, count, oldtype, newtype), check_blocklength(blocklength)})))
    return rc;
  return register_type(context, kCall,
                       shmpi::datatype::make_hvector(count, blocklength, stride, types.layout(oldtype)),
                       contents_of(types, MPI_COMBINER_HVECTOR, {count, blocklength}, {stride}, {&oldtype, 1}),
                       newtype);
}

extern "C" int PMPI_Type_indexed(int count, const int blocklengths[], const int displacements[], MPI_Datatype oldtype,
                                 MPI_Datatype* newtype) {
  constexpr const char* kCall = "MPI_Type_indexed";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const DatatypeTable& types = context.datatypes();
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_common(types, count, oldtype, newtype),
                                     check_array(blocklengths, count, "array_of_blocklengths"),
                                     check_array(displacements, count, "array_of_displacements")})))
    return rc;
  const std::span<const int> lens(blocklengths, static_cast<std::size_t>(count));
  const std::span<const int> disps(displacements, static_cast<std::size_t>(count));
  if (int rc = raise_if(context, nullptr, kCall, check_blocklengths(lens))) return rc;
  return make_indexed(context, kCall, lens, scaled(disps, types.layout(oldtype)->extent()), oldtype,
                      contents_of(types, MPI_COMBINER_INDEXED, joined({{&count, 1}, lens, disps}), {}, {&oldtype, 1}),
                      newtype);
}

extern "C" int PMPI_Type_create_hindexed(int count, const int blocklengths[], const MPI_Aint displacements[],
                                         MPI_Datatype oldtype, MPI_Datatype* newtype) {
  constexpr const char* kCall = "MPI_Type_create_hindexed";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const DatatypeTable& types = context.datatypes();
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_common(types, count, oldtype, newtype),
                                     check_array(blocklengths, count, "array_of_blocklengths"),
                                     check_array(displacements, count, "array_of_displacements")})))
    return rc;
  const std::span<const int> lens(blocklengths, static_cast<std::size_t>(count));
  if (int rc = raise_if(context, nullptr, kCall, check_blocklengths(lens))) return rc;
  std::vector<MPI_Aint> disps(displacements, displacements + count);
  return make_indexed(context, kCall, lens, disps, oldtype,
                      contents_of(types, MPI_COMBINER_HINDEXED, joined({{&count, 1}, lens}), disps, {&oldtype, 1}),
                      newtype);
}

extern "C" int PMPI_Type_create_indexed_block(int count, int blocklength, const int displacements[],
                                              MPI_Datatype oldtype, MPI_Datatype* newtype) {
  constexpr const char* kCall = "MPI_Type_create_indexed_block";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const DatatypeTable& types = context.datatypes();
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_common(types, count, oldtype, newtype), check_blocklength(blocklength),
                                     check_array(displacements, count, "array_of_displacements")})))
    return rc;
  const std::vector<int> lens(static_cast<std::size_t>(count), blocklength);
  const std::span<const int> disps(displacements, static_cast<std::size_t>(count));
  return make_indexed(context, kCall, lens, scaled(disps, types.layout(oldtype)->extent()), oldtype,
                      contents_of(types, MPI_COMBINER_INDEXED_BLOCK, joined({{&count, 1}, {&blocklength, 1}, disps}),
                                  {}, {&oldtype, 1}),
                      newtype);
}

extern "C" int PMPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint displacements[],
                                               MPI_Datatype oldtype, MPI_Datatype* newtype) {
  constexpr const char* kCall = "MPI_Type_create_hindexed_block";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const DatatypeTable& types = context.datatypes();
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_common(types, count, oldtype, newtype), check_blocklength(blocklength),
                                     check_array(displacements, count, "array_of_displacements")})))
    return rc;
  const std::vector<int> lens(static_cast<std::size_t>(count), blocklength);
  std::vector<MPI_Aint> disps(displacements, displacements + count);
  return make_indexed(context, kCall, lens, disps, oldtype,
                      contents_of(types, MPI_COMBINER_HINDEXED_BLOCK, {count, blocklength}, disps, {&oldtype, 1}),
                      newtype);
}

extern "C" int PMPI_Type_create_struct(int count, const int blocklengths[], const MPI_Aint displacements[],
                                       const MPI_Datatype types_in[], MPI_Datatype* newtype) {
  constexpr const char* kCall = "MPI_Type_create_struct";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const DatatypeTable& types = context.datatypes();
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_count(count), check_out_pointer(newtype, "newtype"),
                                     check_array(blocklengths, count, "array_of_blocklengths"),
                                     check_array(displacements, count, "array_of_displacements"),
                                     check_array(types_in, count, "array_of_types")})))
    return rc;
  const std::span<const int> lens(blocklengths, static_cast<std::size_t>(count));
  const std::span<const MPI_Datatype> olds(types_in, static_cast<std::size_t>(count));
  if (int rc = raise_if(context, nullptr, kCall, check_blocklengths(lens))) return rc;
  std::vector<TypeRef> layouts;
  for (MPI_Datatype old : olds) {
    if (int rc = raise_if(context, nullptr, kCall, check_known_datatype(types, old))) return rc;
    layouts.push_back(types.layout(old));
  }
  const std::vector<MPI_Aint> disps(displacements, displacements + count);
  const std::vector<std::int64_t> widths = widened(lens);
  return register_type(context, kCall, shmpi::datatype::make_struct(widths, disps, layouts),
                       contents_of(types, MPI_COMBINER_STRUCT, joined({{&count, 1}, lens}), disps, olds), newtype);
}

extern "C" int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype* newtype) {
  constexpr const char* kCall = "MPI_Type_create_resized";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const DatatypeTable& types = context.datatypes();
  if (int rc = raise_if(context, nullptr, kCall, check_common(types, 0, oldtype, newtype))) return rc;
  return register_type(context, kCall, shmpi::datatype::Type::resized(types.layout(oldtype), lb, extent),
                       contents_of(types, MPI_COMBINER_RESIZED, {}, {lb, extent}, {&oldtype, 1}), newtype);
}

// A duplicate of a committed type is committed (MPI-4.1 5.1.10).
extern "C" int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype* newtype) {
  constexpr const char* kCall = "MPI_Type_dup";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  DatatypeTable& types = context.datatypes();
  if (int rc = raise_if(context, nullptr, kCall, check_common(types, 0, oldtype, newtype))) return rc;
  const bool committed = types.find(oldtype)->committed;
  const MPI_Datatype dup =
      types.add(make_derived(types, types.layout(oldtype), contents_of(types, MPI_COMBINER_DUP, {}, {}, {&oldtype, 1})),
                committed);
  // The copy callbacks of oldtype's attributes decide what the duplicate
  // gets; one that fails undoes the duplicate (its copies deleted as by
  // MPI_Type_free) and its code is the call's error.
  if (int rc = copy_type_attributes(context, oldtype, dup); rc != MPI_SUCCESS) {
    erase_type_attributes(context, dup);
    types.free(dup);
    *newtype = MPI_DATATYPE_NULL;
    return raise_error(context, nullptr, kCall, rc, "an attribute copy callback returned error " + std::to_string(rc));
  }
  *newtype = dup;
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Type_contiguous)
SHMPI_PMPI_ALIAS(Type_vector)
SHMPI_PMPI_ALIAS(Type_create_hvector)
SHMPI_PMPI_ALIAS(Type_indexed)
SHMPI_PMPI_ALIAS(Type_create_hindexed)
SHMPI_PMPI_ALIAS(Type_create_indexed_block)
SHMPI_PMPI_ALIAS(Type_create_hindexed_block)
SHMPI_PMPI_ALIAS(Type_create_struct)
SHMPI_PMPI_ALIAS(Type_create_resized)
SHMPI_PMPI_ALIAS(Type_dup)
