// shmpi C++ API: the one error type.
//
// Contract: every communicator the C++ API hands out (Environment::world(),
// Environment::self(), Comm(MPI_Comm), dup(), split()) has MPI_ERRORS_RETURN
// set, so a failing C call returns its error code instead of aborting the
// job, and the wrapper turns that code into a thrown shmpi::Error. Nothing
// in the C++ API reports an error any other way: no return codes, no
// error-code out-parameters. Functions that cannot fail are noexcept.
//
// An Error carries the MPI error class (code(), e.g. MPI_ERR_RANK) and a
// message naming the C call and the text of MPI_Error_string, e.g.
//   "MPI_Send: MPI_ERR_RANK: invalid rank"
// The job keeps running: the failed call had no effect, and the caller may
// catch the Error and carry on (the C runtime guarantees this for argument
// errors under MPI_ERRORS_RETURN).
#ifndef SHMPI_CXX_ERROR_HPP
#define SHMPI_CXX_ERROR_HPP

#include <mpi.h>

#include <stdexcept>
#include <string>
#include <string_view>

namespace shmpi {

class Error : public std::runtime_error {
 public:
  // `code` is what the C call returned; `call` names it ("MPI_Send").
  Error(int code, std::string_view call) : Error(code, call, {}) {}

  // As above with a note of the C++ layer's own appended after the MPI
  // text ("MPI_Allreduce: MPI_ERR_COUNT: invalid count: buffers differ").
  Error(int code, std::string_view call, std::string_view detail)
      : std::runtime_error(describe(code, call, detail)), code_(error_class(code)) {}

  // The MPI error class (MPI_ERR_RANK, MPI_ERR_TRUNCATE, ...).
  [[nodiscard]] int code() const noexcept { return code_; }

 private:
  static int error_class(int code) noexcept {
    int cls = MPI_ERR_UNKNOWN;
    if (MPI_Error_class(code, &cls) != MPI_SUCCESS) return MPI_ERR_UNKNOWN;
    return cls;
  }

  static std::string describe(int code, std::string_view call, std::string_view detail) {
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    std::string message(call);
    message += ": ";
    if (MPI_Error_string(code, text, &length) == MPI_SUCCESS && length > 0) {
      message.append(text, static_cast<std::size_t>(length));
    } else {
      message += "unknown MPI error " + std::to_string(code);
    }
    if (!detail.empty()) {
      message += ": ";
      message += detail;
    }
    return message;
  }

  int code_;
};

namespace detail {

// Out of line and cold so that check() stays a compare and a branch.
[[noreturn, gnu::cold, gnu::noinline]] inline void raise(int code, const char* call) {
  throw Error(code, call);
}

[[noreturn, gnu::cold, gnu::noinline]] inline void raise(int code, const char* call,
                                                          const char* detail) {
  throw Error(code, call, detail);
}

// Turns a C return code into the C++ error style.
inline void check(int rc, const char* call) {
  if (rc != MPI_SUCCESS) [[unlikely]] raise(rc, call);
}

}  // namespace detail
}  // namespace shmpi

#endif  // SHMPI_CXX_ERROR_HPP
