// Error classes, their strings, and how an error reaches the user: with
// MPI_ERRORS_ARE_FATAL one line naming rank, call and reason, then the job
// is aborted through the launcher; with MPI_ERRORS_RETURN the class comes
// back to the caller and the runtime stays usable.
#pragma once

#include <string>

#include "runtime/communicator.hpp"

namespace shmpi::runtime {

class Context;

// "MPI_ERR_TRUNCATE: message truncated"
const char* error_string(int error_class) noexcept;
bool is_error_class(int code) noexcept;

// Raises `error_class` from `call` on `comm` (nullptr: MPI_COMM_WORLD's
// handler). Returns the class when the handler returns errors; otherwise
// prints "shmpi: rank R: CALL: REASON" and aborts the job.
int raise_error(Context& context, const Communicator* comm, const char* call, int error_class,
                const std::string& reason);

// A call made when there is no context (before MPI_Init or after
// MPI_Finalize): prints one line and exits the process.
[[noreturn]] void fatal_without_context(const char* call, const std::string& reason);

}  // namespace shmpi::runtime
