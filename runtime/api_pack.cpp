// MPI entry points: packing into and out of user buffers (MPI_Pack,
// MPI_Unpack, MPI_Pack_size) and the portable "external32" forms. shmpi's
// MPI_Pack format is the packed byte stream itself, with no header.
#include <climits>
#include <cstring>

#include "datatype/external32.hpp"
#include "runtime/packing.hpp"
#include "runtime/type_args.hpp"

using namespace shmpi::runtime;

namespace {

// A committed type (any known one for the size queries) and a
// non-negative count; the stream's size in bytes (`external`: in
// external32) through `bytes`.
Check check_packing(const DatatypeTable& types, int count, MPI_Datatype type, bool external, MPI_Aint& bytes,
                    bool size_only = false) {
  std::size_t size = 0;
  if (Check c = first_error({check_count(count), size_only ? check_known_datatype(types, type)
                                                           : check_datatype(types, type, size)}))
    return c;
  const auto per = external ? types.layout(type)->external_size() : types.layout(type)->size();
  const auto total = checked_product(per, count);
  if (!total) return ArgError{MPI_ERR_COUNT, "count " + std::to_string(count) + " overflows the packed size"};
  bytes = *total;
  return std::nullopt;
}

// The data representation of MPI_Pack_external: only "external32".
Check check_datarep(const char* datarep) {
  if (datarep != nullptr && std::strcmp(datarep, "external32") == 0) return std::nullopt;
  return ArgError{MPI_ERR_ARG, std::string("unknown data representation \"") + (datarep ? datarep : "(null)") +
                                   "\" (only \"external32\")"};
}

// Room for `bytes` more at *position in a buffer of `size` bytes.
Check check_room(MPI_Aint size, const MPI_Aint position, MPI_Aint bytes, const char* what) {
  if (position < 0 || position > size)
    return ArgError{MPI_ERR_ARG, "position " + std::to_string(position) + " is outside the " + what + " of " +
                                     std::to_string(size) + " bytes"};
  if (size - position < bytes)
    return ArgError{MPI_ERR_TRUNCATE, std::string(what) + " of " + std::to_string(size) + " bytes has " +
                                          std::to_string(size - position) + " left at position " +
                                          std::to_string(position) + ", " + std::to_string(bytes) + " needed"};
  return std::nullopt;
}

int checked_comm(Context& context, const char* call, MPI_Comm comm) {
  return context.communicator(comm) == nullptr ? invalid_communicator(context, call, comm) : MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Pack(const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf, int outsize,
                         int* position, MPI_Comm comm) {
  constexpr const char* kCall = "MPI_Pack";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (int rc = checked_comm(context, kCall, comm)) return rc;
  MPI_Aint bytes = 0;
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_packing(context.datatypes(), incount, datatype, false, bytes),
                                     check_buffer(context.datatypes(), inbuf, incount, datatype),
                                     check_out_pointer(position, "position")})))
    return rc;
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_room(outsize, *position, bytes, "outbuf"), check_buffer(outbuf, bytes > 0)})))
    return rc;
  pack_elements(*context.datatypes().layout(datatype), static_cast<std::uint64_t>(incount), inbuf,
                static_cast<char*>(outbuf) + *position);
  *position += static_cast<int>(bytes);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount,
                           MPI_Datatype datatype, MPI_Comm comm) {
  constexpr const char* kCall = "MPI_Unpack";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (int rc = checked_comm(context, kCall, comm)) return rc;
  MPI_Aint bytes = 0;
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_packing(context.datatypes(), outcount, datatype, false, bytes),
                                     check_buffer(context.datatypes(), outbuf, outcount, datatype),
                                     check_out_pointer(position, "position")})))
    return rc;
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_room(insize, *position, bytes, "inbuf"), check_buffer(inbuf, bytes > 0)})))
    return rc;
  unpack_elements(*context.datatypes().layout(datatype), static_cast<std::uint64_t>(outcount),
                  static_cast<const char*>(inbuf) + *position, static_cast<std::uint64_t>(bytes), outbuf);
  *position += static_cast<int>(bytes);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int* size) {
  constexpr const char* kCall = "MPI_Pack_size";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (int rc = checked_comm(context, kCall, comm)) return rc;
  MPI_Aint bytes = 0;
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_packing(context.datatypes(), incount, datatype, false, bytes, true),
                                     check_out_pointer(size, "size")})))
    return rc;
  if (bytes > INT_MAX)
    return raise_error(context, nullptr, kCall, MPI_ERR_COUNT,
                       std::to_string(bytes) + " packed bytes do not fit the int result");
  *size = static_cast<int>(bytes);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Pack_external(const char datarep[], const void* inbuf, int incount, MPI_Datatype datatype,
                                  void* outbuf, MPI_Aint outsize, MPI_Aint* position) {
  constexpr const char* kCall = "MPI_Pack_external";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  MPI_Aint bytes = 0;
  if (int rc = raise_if(
          context, nullptr, kCall,
          first_error({check_datarep(datarep), check_packing(context.datatypes(), incount, datatype, true, bytes),
                       check_buffer(context.datatypes(), inbuf, incount, datatype),
                       check_out_pointer(position, "position")})))
    return rc;
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_room(outsize, *position, bytes, "outbuf"), check_buffer(outbuf, bytes > 0)})))
    return rc;
  shmpi::datatype::pack_external(*context.datatypes().layout(datatype), static_cast<std::uint64_t>(incount), inbuf,
                                 static_cast<char*>(outbuf) + *position);
  *position += bytes;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Unpack_external(const char datarep[], const void* inbuf, MPI_Aint insize, MPI_Aint* position,
                                    void* outbuf, int outcount, MPI_Datatype datatype) {
  constexpr const char* kCall = "MPI_Unpack_external";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  MPI_Aint bytes = 0;
  if (int rc = raise_if(
          context, nullptr, kCall,
          first_error({check_datarep(datarep), check_packing(context.datatypes(), outcount, datatype, true, bytes),
                       check_buffer(context.datatypes(), outbuf, outcount, datatype),
                       check_out_pointer(position, "position")})))
    return rc;
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_room(insize, *position, bytes, "inbuf"), check_buffer(inbuf, bytes > 0)})))
    return rc;
  shmpi::datatype::unpack_external(*context.datatypes().layout(datatype), static_cast<std::uint64_t>(outcount),
                                   static_cast<const char*>(inbuf) + *position, outbuf);
  *position += bytes;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint* size) {
  constexpr const char* kCall = "MPI_Pack_external_size";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  MPI_Aint bytes = 0;
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_datarep(datarep),
                                     check_packing(context.datatypes(), incount, datatype, true, bytes, true),
                                     check_out_pointer(size, "size")})))
    return rc;
  *size = bytes;
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Pack)
SHMPI_PMPI_ALIAS(Unpack)
SHMPI_PMPI_ALIAS(Pack_size)
SHMPI_PMPI_ALIAS(Pack_external)
SHMPI_PMPI_ALIAS(Unpack_external)
SHMPI_PMPI_ALIAS(Pack_external_size)
