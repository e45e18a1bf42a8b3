#include "runtime/errors.hpp"

#include <cstdio>
#include <cstdlib>

#include "mpi.h"
#include "shmpi/job_contract.hpp"
#include "runtime/context.hpp"

namespace shmpi::runtime {

const char* error_string(int error_class) noexcept {
  switch (error_class) {
    case MPI_SUCCESS: return "MPI_SUCCESS: no error";
    case MPI_ERR_BUFFER: return "MPI_ERR_BUFFER: invalid buffer pointer";
    case MPI_ERR_COUNT: return "MPI_ERR_COUNT: invalid count argument";
    case MPI_ERR_TYPE: return "MPI_ERR_TYPE: invalid datatype";
    case MPI_ERR_TAG: return "MPI_ERR_TAG: invalid tag";
    case MPI_ERR_COMM: return "MPI_ERR_COMM: invalid communicator";
    case MPI_ERR_RANK: return "MPI_ERR_RANK: invalid rank";
    case MPI_ERR_REQUEST: return "MPI_ERR_REQUEST: invalid request";
    case MPI_ERR_ROOT: return "MPI_ERR_ROOT: invalid root";
    case MPI_ERR_GROUP: return "MPI_ERR_GROUP: invalid group";
    case MPI_ERR_OP: return "MPI_ERR_OP: invalid reduce operation";
    case MPI_ERR_TOPOLOGY: return "MPI_ERR_TOPOLOGY: invalid communicator topology";
    case MPI_ERR_DIMS: return "MPI_ERR_DIMS: invalid topology dimension";
    case MPI_ERR_ARG: return "MPI_ERR_ARG: invalid argument";
    case MPI_ERR_UNKNOWN: return "MPI_ERR_UNKNOWN: unknown error";
    case MPI_ERR_TRUNCATE: return "MPI_ERR_TRUNCATE: message truncated";
    case MPI_ERR_OTHER: return "MPI_ERR_OTHER: other error";
    case MPI_ERR_INTERN: return "MPI_ERR_INTERN: internal error";
    case MPI_ERR_IN_STATUS: return "MPI_ERR_IN_STATUS: error code is in status";
    case MPI_ERR_PENDING: return "MPI_ERR_PENDING: pending request";
    case MPI_ERR_NO_MEM: return "MPI_ERR_NO_MEM: out of memory";
    case MPI_ERR_KEYVAL: return "MPI_ERR_KEYVAL: invalid attribute key";
    case MPI_ERR_INFO: return "MPI_ERR_INFO: invalid info object";
    case MPI_ERR_INFO_KEY: return "MPI_ERR_INFO_KEY: invalid info key";
    case MPI_ERR_INFO_VALUE: return "MPI_ERR_INFO_VALUE: invalid info value";
    case MPI_ERR_INFO_NOKEY: return "MPI_ERR_INFO_NOKEY: info key not found";
    case MPI_ERR_ERRHANDLER: return "MPI_ERR_ERRHANDLER: invalid error handler";
    case MPI_ERR_BASE: return "MPI_ERR_BASE: invalid memory base address";
    case MPI_ERR_UNSUPPORTED_OPERATION: return "MPI_ERR_UNSUPPORTED_OPERATION: operation not supported by shmpi";
    case MPI_ERR_LASTCODE: return "MPI_ERR_LASTCODE: last predefined error code";
    default: return nullptr;
  }
}

bool is_error_class(int code) noexcept { return error_string(code) != nullptr; }

int raise_error(Context& context, const Communicator* comm, const char* call, int error_class,
                const std::string& reason) {
  if (comm == nullptr) comm = context.communicator(MPI_COMM_WORLD);
  if (comm->errhandler == MPI_ERRORS_RETURN) return error_class;
  if (auto* user = context.objects().errhandlers.function(comm->errhandler)) {
    // The handler may free or replace the communicator: pass a copy of its handle.
    MPI_Comm handle = comm->handle;
    int code = error_class;
    user(&handle, &code, call, reason.c_str());
    return error_class;
  }
  const std::string line =
      "shmpi: rank " + std::to_string(context.rank()) + ": " + call + ": " + reason;
  std::fflush(stdout);  // the abort ends the process without exit(): keep what the program printed
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
  context.store().abort(error_class, contract::kAbortReported);
}

void fatal_without_context(const char* call, const std::string& reason) {
  std::fprintf(stderr, "shmpi: %s: %s\n", call, reason.c_str());
  std::fflush(stderr);
  std::exit(1);
}

}  // namespace shmpi::runtime
