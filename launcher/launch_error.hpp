// LaunchError: why shmpirun cannot start or continue the job.
//
// Thrown during set-up; main() prints "shmpirun: <what>" once and exits with
// `exit_code` (kExitUsage for bad input, kExitInternal for system failures).
#pragma once

#include <stdexcept>
#include <string>

namespace shmpi::launcher {

inline constexpr int kExitUsage = 2;      // bad command line or environment; nothing started
inline constexpr int kExitInternal = 1;   // shmpirun itself failed (PMIx, fork, ...)
inline constexpr int kExitTimeout = 124;  // --timeout expired (as timeout(1))

class LaunchError : public std::runtime_error {
 public:
  LaunchError(std::string what, int exit_code)
      : std::runtime_error(std::move(what)), exit_code_(exit_code) {}
  int exit_code() const noexcept { return exit_code_; }

 private:
  int exit_code_;
};

// A usage error (exit 2): the user can fix it; nothing has been started.
inline LaunchError usage_error(std::string what) { return {std::move(what), kExitUsage}; }

// A system call failed: "<what>: <strerror(errno)>", exit 1.
LaunchError system_error(const std::string& what, int error_number);

}  // namespace shmpi::launcher
