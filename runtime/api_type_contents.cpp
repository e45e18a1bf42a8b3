// MPI entry points: how a datatype was made (MPI_Type_get_envelope,
// MPI_Type_get_contents), which predefined type has a given size
// (MPI_Type_match_size), basic elements received (MPI_Get_elements) and
// what a status says of them (MPI_Status_set_elements, _set_cancelled, for
// generalized requests and tools), and address arithmetic (MPI_Get_address,
// MPI_Aint_add, MPI_Aint_diff).
#include <climits>
#include <cstdint>

#include "runtime/status.hpp"
#include "runtime/type_args.hpp"

using namespace shmpi::runtime;

namespace {

// Basic elements in the bytes a status says arrived; -1 when they end
// inside a basic element (MPI_UNDEFINED).
std::int64_t elements_received(const shmpi::datatype::Type& t, std::uint64_t bytes) {
  const auto b = static_cast<std::int64_t>(bytes);
  const std::int64_t n = t.elements_in(b);
  // A byte that ends a basic element adds one: otherwise the last is cut.
  if (b > 0 && t.size() > 0 && t.elements_in(b - 1) == n) return -1;
  return n;
}

// Packed bytes that hold `count` basic elements of `t` (the bytes a status
// records, so that MPI_Get_elements answers `count`): whole elements, then
// the shortest prefix of one more that holds the rest.
std::uint64_t bytes_of_elements(const shmpi::datatype::Type& t, std::int64_t count) {
  if (t.elements() == 0 || count <= 0) return 0;
  const std::int64_t whole = count / t.elements(), rest = count % t.elements();
  std::int64_t low = 0, high = t.size();
  while (low < high) {  // elements_in grows with the bytes
    const std::int64_t mid = low + (high - low) / 2;
    if (t.elements_in(mid) >= rest) {
      high = mid;
    } else {
      low = mid + 1;
    }
  }
  return static_cast<std::uint64_t>(whole * t.size() + low);
}

int set_elements(const char* call, MPI_Status* status, MPI_Datatype datatype, std::int64_t count) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  if (int rc = raise_if(
          context, nullptr, call,
          first_error({check_known_datatype(context.datatypes(), datatype), check_out_pointer(status, "status")})))
    return rc;
  if (count < 0) return raise_error(context, nullptr, call, MPI_ERR_COUNT, "negative count " + std::to_string(count));
  set_status_bytes(*status, bytes_of_elements(*context.datatypes().layout(datatype), count));
  return MPI_SUCCESS;
}

// Checks (status, type, count) of MPI_Get_elements(_x).
int check_elements_args(Context& context, const char* call, const MPI_Status* status, MPI_Datatype type,
                        const void* count) {
  return raise_if(context, nullptr, call,
                  first_error({check_known_datatype(context.datatypes(), type),
                               check_out_pointer(status, "status"), check_out_pointer(count, "count")}));
}

}  // namespace

extern "C" int PMPI_Type_get_envelope(MPI_Datatype datatype, int* num_integers, int* num_addresses, int* num_datatypes,
                                      int* combiner) {
  constexpr const char* kCall = "MPI_Type_get_envelope";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_known_datatype(context.datatypes(), datatype),
                                     check_out_pointer(num_integers, "num_integers"),
                                     check_out_pointer(num_addresses, "num_addresses"),
                                     check_out_pointer(num_datatypes, "num_datatypes"),
                                     check_out_pointer(combiner, "combiner")})))
    return rc;
  const DerivedRef& d = context.datatypes().derived(datatype);
  const TypeContents none;
  const TypeContents& c = d ? d->contents : none;
  *num_integers = static_cast<int>(c.ints.size());
  *num_addresses = static_cast<int>(c.aints.size());
  *num_datatypes = static_cast<int>(c.derived.size());
  *combiner = c.combiner;
  return MPI_SUCCESS;
}

// The old derived types come back as new committed handles, which the
// caller frees (MPI-4.1 5.1.13); predefined ones as themselves.
extern "C" int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                                      int integers[], MPI_Aint addresses[], MPI_Datatype datatypes[]) {
  constexpr const char* kCall = "MPI_Type_get_contents";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  DatatypeTable& types = context.datatypes();
  if (int rc = raise_if(context, nullptr, kCall, check_known_datatype(types, datatype))) return rc;
  const DerivedRef d = types.derived(datatype);
  if (!d)
    return raise_error(context, nullptr, kCall, MPI_ERR_TYPE,
                       std::string("predefined datatype ") + types.find(datatype)->name + " has no contents");
  const TypeContents& c = d->contents;
  if (static_cast<std::size_t>(max_integers) < c.ints.size() ||
      static_cast<std::size_t>(max_addresses) < c.aints.size() ||
      static_cast<std::size_t>(max_datatypes) < c.derived.size() || max_integers < 0 || max_addresses < 0 ||
      max_datatypes < 0)
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG,
                       "arrays too small: the contents need " + std::to_string(c.ints.size()) + " integers, " +
                           std::to_string(c.aints.size()) + " addresses, " + std::to_string(c.derived.size()) +
                           " datatypes (see MPI_Type_get_envelope)");
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_array(integers, static_cast<int>(c.ints.size()), "array_of_integers"),
                                     check_array(addresses, static_cast<int>(c.aints.size()), "array_of_addresses"),
                                     check_array(datatypes, static_cast<int>(c.derived.size()), "array_of_datatypes")})))
    return rc;
  std::copy(c.ints.begin(), c.ints.end(), integers);
  std::copy(c.aints.begin(), c.aints.end(), addresses);
  for (std::size_t i = 0; i < c.derived.size(); ++i)
    datatypes[i] = c.derived[i] ? types.add(c.derived[i], true) : c.predefined[i];
  return MPI_SUCCESS;
}

extern "C" int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype* datatype) {
  constexpr const char* kCall = "MPI_Type_match_size";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (int rc = raise_if(context, nullptr, kCall, check_out_pointer(datatype, "datatype"))) return rc;
  static constexpr MPI_Datatype kCandidates[][4] = {
      {MPI_INT8_T, MPI_INT16_T, MPI_INT32_T, MPI_INT64_T},
      {MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_DATATYPE_NULL},
      {MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX, MPI_C_LONG_DOUBLE_COMPLEX, MPI_DATATYPE_NULL}};
  if (typeclass < MPI_TYPECLASS_INTEGER || typeclass > MPI_TYPECLASS_COMPLEX)
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "invalid typeclass " + std::to_string(typeclass));
  for (MPI_Datatype candidate : kCandidates[typeclass - MPI_TYPECLASS_INTEGER]) {
    if (candidate != MPI_DATATYPE_NULL && predefined_datatype(candidate)->size == static_cast<std::size_t>(size)) {
      *datatype = candidate;
      return MPI_SUCCESS;
    }
  }
  return raise_error(context, nullptr, kCall, MPI_ERR_ARG,
                     "no predefined type of typeclass " + std::to_string(typeclass) + " has " + std::to_string(size) +
                         " bytes");
}

extern "C" int PMPI_Get_elements_x(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  constexpr const char* kCall = "MPI_Get_elements_x";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (int rc = check_elements_args(context, kCall, status, datatype, count)) return rc;
  const std::int64_t n = elements_received(*context.datatypes().layout(datatype), status_bytes(*status));
  *count = n < 0 ? MPI_UNDEFINED : n;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Get_elements(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  constexpr const char* kCall = "MPI_Get_elements";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (int rc = check_elements_args(context, kCall, status, datatype, count)) return rc;
  const std::int64_t n = elements_received(*context.datatypes().layout(datatype), status_bytes(*status));
  *count = n < 0 || n > INT_MAX ? MPI_UNDEFINED : static_cast<int>(n);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Status_set_elements(MPI_Status* status, MPI_Datatype datatype, int count) {
  return set_elements("MPI_Status_set_elements", status, datatype, count);
}

extern "C" int PMPI_Status_set_elements_x(MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  return set_elements("MPI_Status_set_elements_x", status, datatype, count);
}

extern "C" int PMPI_Status_set_cancelled(MPI_Status* status, int flag) {
  constexpr const char* kCall = "MPI_Status_set_cancelled";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (int rc = raise_if(context, nullptr, kCall, check_out_pointer(status, "status"))) return rc;
  status->shmpi_cancelled = flag != 0 ? 1 : 0;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Get_address(const void* location, MPI_Aint* address) {
  constexpr const char* kCall = "MPI_Get_address";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (int rc = raise_if(context, nullptr, kCall, check_out_pointer(address, "address"))) return rc;
  *address = reinterpret_cast<MPI_Aint>(location);
  return MPI_SUCCESS;
}

// Address arithmetic as the standard defines it, wrapping like the
// machine's addresses (no context needed: they may be called any time).
extern "C" MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp) {
  return static_cast<MPI_Aint>(static_cast<std::uintptr_t>(base) + static_cast<std::uintptr_t>(disp));
}

extern "C" MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) {
  return static_cast<MPI_Aint>(static_cast<std::uintptr_t>(addr1) - static_cast<std::uintptr_t>(addr2));
}

SHMPI_PMPI_ALIAS(Type_get_envelope)
SHMPI_PMPI_ALIAS(Type_get_contents)
SHMPI_PMPI_ALIAS(Type_match_size)
SHMPI_PMPI_ALIAS(Get_elements)
SHMPI_PMPI_ALIAS(Get_elements_x)
SHMPI_PMPI_ALIAS(Get_address)
SHMPI_PMPI_ALIAS(Aint_add)
SHMPI_PMPI_ALIAS(Aint_diff)
SHMPI_PMPI_ALIAS(Status_set_elements)
SHMPI_PMPI_ALIAS(Status_set_elements_x)
SHMPI_PMPI_ALIAS(Status_set_cancelled)
