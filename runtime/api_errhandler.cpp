// MPI entry points: error handlers, error strings and classes.
//
// shmpi has the two predefined handlers only (MPI_ERRORS_ARE_FATAL, the
// default, and MPI_ERRORS_RETURN); a communicator's handler is copied into
// the communicators made from it.
#include <cstdio>
#include <cstring>

#include "runtime/api.hpp"

using namespace shmpi::runtime;

namespace {

bool is_predefined_errhandler(MPI_Errhandler handler) noexcept {
  return handler == MPI_ERRORS_ARE_FATAL || handler == MPI_ERRORS_RETURN;
}

// Errors of the calls that may run without a context (MPI-4.0 allows
// MPI_Error_string and MPI_Error_class before MPI_Init): raised through
// MPI_COMM_WORLD's handler when there is one, returned otherwise.
int raise_without_comm(const char* call, int error_class, const std::string& reason) {
  Context* context = current_context();
  if (context == nullptr) return error_class;
  return raise_error(*context, nullptr, call, error_class, reason);
}

}  // namespace

extern "C" int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  constexpr const char* kCall = "MPI_Comm_set_errhandler";
  Context& context = context_for(kCall);
  Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (!is_predefined_errhandler(errhandler))
    return raise_error(context, c, kCall, MPI_ERR_ARG, "invalid error handler " + std::to_string(errhandler));
  c->errhandler = errhandler;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler) {
  constexpr const char* kCall = "MPI_Comm_get_errhandler";
  Context& context = context_for(kCall);
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
  Context& context = context_for(kCall);
  if (errhandler == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null errhandler pointer");
  if (!is_predefined_errhandler(*errhandler))
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "invalid error handler " + std::to_string(*errhandler));
  *errhandler = MPI_ERRHANDLER_NULL;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Error_string(int errorcode, char* string, int* resultlen) {
  constexpr const char* kCall = "MPI_Error_string";
  const char* text = error_string(errorcode);
  if (text == nullptr) return raise_without_comm(kCall, MPI_ERR_ARG, "invalid error code " + std::to_string(errorcode));
  if (string == nullptr || resultlen == nullptr)
    return raise_without_comm(kCall, MPI_ERR_ARG, "null string or resultlen pointer");
  std::snprintf(string, MPI_MAX_ERROR_STRING, "%s", text);
  *resultlen = static_cast<int>(std::strlen(string));
  return MPI_SUCCESS;
}

extern "C" int PMPI_Error_class(int errorcode, int* errorclass) {
  constexpr const char* kCall = "MPI_Error_class";
  if (!is_error_class(errorcode))
    return raise_without_comm(kCall, MPI_ERR_ARG, "invalid error code " + std::to_string(errorcode));
  if (errorclass == nullptr) return raise_without_comm(kCall, MPI_ERR_ARG, "null errorclass pointer");
  *errorclass = errorcode;
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Comm_set_errhandler)
SHMPI_PMPI_ALIAS(Comm_get_errhandler)
SHMPI_PMPI_ALIAS(Errhandler_free)
SHMPI_PMPI_ALIAS(Error_string)
SHMPI_PMPI_ALIAS(Error_class)
