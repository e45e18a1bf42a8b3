// Shared by the files that define MPI entry points.
//
// Each entry point is defined once as PMPI_<name>; MPI_<name> is a weak
// alias of it, so a profiling tool may define MPI_<name> itself and call
// PMPI_<name> (the MPI profiling interface). libshmpi.so is built with
// hidden visibility: both names are exported because mpi.h declares them
// SHMPI_API (default visibility), and cmake/libshmpi.map exports nothing else.
#pragma once

#include <string>

#include "mpi.h"
#include "runtime/arg_checks.hpp"
#include "runtime/context.hpp"
#include "runtime/errors.hpp"
#include "runtime/thread_support.hpp"

#define SHMPI_PMPI_ALIAS(name) \
  extern "C" decltype(PMPI_##name) MPI_##name \
      __attribute__((weak, alias("PMPI_" #name), visibility("default")));

namespace shmpi::runtime {

// The context of an initialised process; a call without one is fatal.
// Entry points call enter() (below); this alone suits calls that only need
// to know MPI is initialised (MPI_Wtime).
inline Context& context_for(const char* call) {
  Context* context = current_context();
  if (context == nullptr)
    fatal_without_context(call, was_finalized() ? "called after MPI_Finalize" : "called before MPI_Init");
  return *context;
}

// What every entry point that uses the context calls first: the context,
// and under MPI_THREAD_MULTIPLE the rank's lock, held until the Entry goes
// (runtime/thread_support.hpp). Below that level: one predictable branch.
inline Entry enter(const char* call) {
  if (!threads_share_rank()) [[likely]]
    return Entry{context_for(call), nullptr};
  return enter_shared(call);
}

// Raises the first failed check, or returns MPI_SUCCESS.
inline int raise_if(Context& context, const Communicator* comm, const char* call, const Check& check) {
  if (!check) return MPI_SUCCESS;
  return raise_error(context, comm, call, check->error_class, check->reason);
}

inline int invalid_communicator(Context& context, const char* call, MPI_Comm comm) {
  return raise_error(context, nullptr, call, MPI_ERR_COMM, "invalid communicator " + std::to_string(comm));
}

// A call shmpi provides for intracommunicators only.
inline int unsupported_on_intercomm(Context& context, const Communicator& comm, const char* call) {
  return raise_error(context, &comm, call, MPI_ERR_UNSUPPORTED_OPERATION,
                     std::string("not supported by shmpi on an intercommunicator (") + comm.name + ")");
}

}  // namespace shmpi::runtime
