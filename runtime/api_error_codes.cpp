// MPI entry points: error classes, codes and strings the program adds
// (MPI_Add_error_*, MPI-4.1's MPI_Remove_error_*), and MPI_Alloc_mem /
// MPI_Free_mem.
#include <cstdlib>
#include <cstring>
#include <new>

#include "runtime/api.hpp"

using namespace shmpi::runtime;

namespace {

int invalid_code(Context& context, const char* call, int code) {
  return raise_error(context, nullptr, call, MPI_ERR_ARG,
                     "error code " + std::to_string(code) + " was not added by MPI_Add_error_class/code");
}

void update_last_used(Context& context) {
  context.objects().predefined.lastusedcode = context.objects().error_codes.last_used();
}

}  // namespace

extern "C" int PMPI_Add_error_class(int* errorclass) {
  constexpr const char* kCall = "MPI_Add_error_class";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (errorclass == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null errorclass pointer");
  *errorclass = context.objects().error_codes.add_class();
  update_last_used(context);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Add_error_code(int errorclass, int* errorcode) {
  constexpr const char* kCall = "MPI_Add_error_code";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  ErrorCodes& codes = context.objects().error_codes;
  const bool user_class = codes.class_of(errorclass) == errorclass;
  if (!is_error_class(errorclass) && !user_class)
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "invalid error class " + std::to_string(errorclass));
  if (errorcode == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null errorcode pointer");
  *errorcode = codes.add_code(errorclass);
  update_last_used(context);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Add_error_string(int errorcode, const char* string) {
  constexpr const char* kCall = "MPI_Add_error_string";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (string == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null string");
  if (std::strlen(string) >= MPI_MAX_ERROR_STRING)
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "string longer than MPI_MAX_ERROR_STRING - 1");
  if (!context.objects().error_codes.set_text(errorcode, string)) return invalid_code(context, kCall, errorcode);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Remove_error_class(int errorclass) {
  constexpr const char* kCall = "MPI_Remove_error_class";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (!context.objects().error_codes.remove(errorclass, true))
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG,
                       "error class " + std::to_string(errorclass) + " is not a user class without codes");
  return MPI_SUCCESS;
}

extern "C" int PMPI_Remove_error_code(int errorcode) {
  constexpr const char* kCall = "MPI_Remove_error_code";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (!context.objects().error_codes.remove(errorcode, false)) return invalid_code(context, kCall, errorcode);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Remove_error_string(int errorcode) {
  constexpr const char* kCall = "MPI_Remove_error_string";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (!context.objects().error_codes.set_text(errorcode, {})) return invalid_code(context, kCall, errorcode);
  return MPI_SUCCESS;
}

// Ordinary heap memory: single copy reads any address, so memory meant for
// communication needs nothing special on one node. `baseptr` is a void**.
extern "C" int PMPI_Alloc_mem(MPI_Aint size, MPI_Info, void* baseptr) {
  constexpr const char* kCall = "MPI_Alloc_mem";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (size < 0) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "negative size " + std::to_string(size));
  if (baseptr == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null baseptr");
  void* memory = std::malloc(size == 0 ? 1 : static_cast<std::size_t>(size));
  if (memory == nullptr)
    return raise_error(context, nullptr, kCall, MPI_ERR_NO_MEM,
                       "cannot allocate " + std::to_string(size) + " bytes");
  try {
    context.objects().allocated_memory.insert(memory);
  } catch (const std::bad_alloc&) {
    std::free(memory);
    return raise_error(context, nullptr, kCall, MPI_ERR_NO_MEM, "out of memory");
  }
  *static_cast<void**>(baseptr) = memory;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Free_mem(void* base) {
  constexpr const char* kCall = "MPI_Free_mem";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (base == nullptr) return MPI_SUCCESS;
  if (context.objects().allocated_memory.erase(base) == 0)
    return raise_error(context, nullptr, kCall, MPI_ERR_BASE, "address was not returned by MPI_Alloc_mem");
  std::free(base);
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Add_error_class)
SHMPI_PMPI_ALIAS(Add_error_code)
SHMPI_PMPI_ALIAS(Add_error_string)
SHMPI_PMPI_ALIAS(Remove_error_class)
SHMPI_PMPI_ALIAS(Remove_error_code)
SHMPI_PMPI_ALIAS(Remove_error_string)
SHMPI_PMPI_ALIAS(Alloc_mem)
SHMPI_PMPI_ALIAS(Free_mem)
