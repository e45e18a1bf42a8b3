// MPI entry points: start-up, shut-down, threads, time, version, errors.
#include <time.h>

#include <cstdio>
#include <cstring>
#include <exception>

#include "runtime/api.hpp"

using namespace shmpi::runtime;

extern "C" int PMPI_Init(int*, char***) {
  if (was_finalized()) fatal_without_context("MPI_Init", "called after MPI_Finalize");
  if (was_initialized()) fatal_without_context("MPI_Init", "called twice");
  try {
    set_current_context(std::make_unique<Context>(connect_to_launcher()));
  } catch (const std::exception& e) {
    fatal_without_context("MPI_Init", e.what());
  }
  return MPI_SUCCESS;
}

extern "C" int PMPI_Finalize(void) {
  Context& context = context_for("MPI_Finalize");
  context.finalize();
  take_current_context().reset();
  return MPI_SUCCESS;
}

extern "C" int PMPI_Initialized(int* flag) {
  if (flag != nullptr) *flag = was_initialized() ? 1 : 0;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Finalized(int* flag) {
  if (flag != nullptr) *flag = was_finalized() ? 1 : 0;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Abort(MPI_Comm comm, int errorcode) {
  Context* context = current_context();
  if (context == nullptr) std::exit(errorcode);
  const std::string message = "rank " + std::to_string(context->rank()) + " called MPI_Abort(" +
                              (comm == MPI_COMM_WORLD ? std::string("MPI_COMM_WORLD") : std::to_string(comm)) +
                              ", " + std::to_string(errorcode) + ")";
  context->store().abort(errorcode, message);
}

extern "C" double PMPI_Wtime(void) {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

extern "C" double PMPI_Wtick(void) {
  timespec ts{};
  ::clock_getres(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

extern "C" int PMPI_Error_string(int errorcode, char* string, int* resultlen) {
  const char* text = error_string(errorcode);
  if (text == nullptr) text = "unknown error code";
  if (string != nullptr) {
    std::snprintf(string, MPI_MAX_ERROR_STRING, "%s", text);
    if (resultlen != nullptr) *resultlen = static_cast<int>(std::strlen(string));
  }
  return MPI_SUCCESS;
}

extern "C" int PMPI_Error_class(int errorcode, int* errorclass) {
  if (!is_error_class(errorcode)) return MPI_ERR_ARG;
  if (errorclass != nullptr) *errorclass = errorcode;
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Init)
SHMPI_PMPI_ALIAS(Finalize)
SHMPI_PMPI_ALIAS(Initialized)
SHMPI_PMPI_ALIAS(Finalized)
SHMPI_PMPI_ALIAS(Abort)
SHMPI_PMPI_ALIAS(Wtime)
SHMPI_PMPI_ALIAS(Wtick)
SHMPI_PMPI_ALIAS(Error_string)
SHMPI_PMPI_ALIAS(Error_class)
