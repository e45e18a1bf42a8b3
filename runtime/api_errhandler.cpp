// MPI entry points: error handlers, error strings and classes.
//
// Predefined handlers: MPI_ERRORS_ARE_FATAL (the default), MPI_ERRORS_ABORT
// (the same on one node: the whole job stops) and MPI_ERRORS_RETURN; user
// handlers come from MPI_Comm_create_errhandler (runtime/error_codes.hpp).
// A communicator's handler is copied into the communicators made from it.
#include <cstdio>
#include <cstring>
#include <optional>

#include "runtime/api.hpp"

using namespace shmpi::runtime;

namespace {

bool is_valid_errhandler(MPI_Errhandler handler) noexcept {
  Context* context = current_context();
  if (context == nullptr) return handler >= MPI_ERRORS_ARE_FATAL && handler <= MPI_ERRORS_ABORT;
  return context->objects().errhandlers.valid(handler);
}

// The string of a predefined class or of a user code (nullptr: neither).
// Under the lock when the context exists.
const char* any_error_string(int code) noexcept {
  if (const char* text = error_string(code)) return text;
  Context* context = current_context();
  if (context == nullptr) return nullptr;
  const std::string* text = context->objects().error_codes.text(code);
  return text != nullptr ? text->c_str() : nullptr;
}

int copy_error_string(const char* text, char* string, int* resultlen) noexcept {
  std::snprintf(string, MPI_MAX_ERROR_STRING, "%s", text);
  *resultlen = static_cast<int>(std::strlen(string));
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  constexpr const char* kCall = "MPI_Comm_set_errhandler";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (!is_valid_errhandler(errhandler))
    return raise_error(context, c, kCall, MPI_ERR_ARG, "invalid error handler " + std::to_string(errhandler));
  c->errhandler = errhandler;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler) {
  constexpr const char* kCall = "MPI_Comm_get_errhandler";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (errhandler == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null errhandler pointer");
  *errhandler = c->errhandler;
  return MPI_SUCCESS;
}

// Freeing a handle only drops the caller's reference: the predefined
// handlers stay in use by the communicators that have them.
extern "C" int PMPI_Errhandler_free(MPI_Errhandler* errhandler) {
  constexpr const char* kCall = "MPI_Errhandler_free";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (errhandler == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null errhandler pointer");
  if (!is_valid_errhandler(*errhandler))
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "invalid error handler " + std::to_string(*errhandler));
  *errhandler = MPI_ERRHANDLER_NULL;
  return MPI_SUCCESS;
}

// MPI_Error_string and MPI_Error_class may be called by any thread at any
// time, even before MPI_Init: a predefined code is answered from constant
// tables without the lock. A user code lives in the context's table, which
// MPI_Add_error_code may grow meanwhile, and an error runs a handler: both
// take the lock. Before MPI_Init there is no handler: the class is returned.
extern "C" int PMPI_Error_string(int errorcode, char* string, int* resultlen) {
  constexpr const char* kCall = "MPI_Error_string";
  if (const char* text = error_string(errorcode); text != nullptr && string != nullptr && resultlen != nullptr)
    return copy_error_string(text, string, resultlen);
  if (current_context() == nullptr) return MPI_ERR_ARG;
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const char* text = any_error_string(errorcode);
  if (text == nullptr)
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "invalid error code " + std::to_string(errorcode));
  if (string == nullptr || resultlen == nullptr)
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null string or resultlen pointer");
  return copy_error_string(text, string, resultlen);
}

extern "C" int PMPI_Error_class(int errorcode, int* errorclass) {
  constexpr const char* kCall = "MPI_Error_class";
  if (is_error_class(errorcode) && errorclass != nullptr) {
    *errorclass = errorcode;
    return MPI_SUCCESS;
  }
  if (current_context() == nullptr) return MPI_ERR_ARG;
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const std::optional<int> user = context.objects().error_codes.class_of(errorcode);
  if (!is_error_class(errorcode) && !user)
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "invalid error code " + std::to_string(errorcode));
  if (errorclass == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null errorclass pointer");
  *errorclass = user ? *user : errorcode;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function* fn, MPI_Errhandler* errhandler) {
  constexpr const char* kCall = "MPI_Comm_create_errhandler";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (fn == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null handler function");
  if (errhandler == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null errhandler pointer");
  *errhandler = context.objects().errhandlers.add(fn);
  return MPI_SUCCESS;
}

// Runs the communicator's handler as an error in a call would; with the
// fatal handlers the job stops naming the code.
extern "C" int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode) {
  constexpr const char* kCall = "MPI_Comm_call_errhandler";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  const char* text = any_error_string(errorcode);
  raise_error(context, c, kCall, errorcode,
              "error code " + std::to_string(errorcode) + (text != nullptr && *text ? std::string(": ") + text : ""));
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Comm_create_errhandler)
SHMPI_PMPI_ALIAS(Comm_call_errhandler)
SHMPI_PMPI_ALIAS(Comm_set_errhandler)
SHMPI_PMPI_ALIAS(Comm_get_errhandler)
SHMPI_PMPI_ALIAS(Errhandler_free)
SHMPI_PMPI_ALIAS(Error_string)
SHMPI_PMPI_ALIAS(Error_class)
