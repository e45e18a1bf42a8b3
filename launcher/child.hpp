// Child: the one owner of a rank process. Spawned with fork + execve; the
// destructor of a Child not yet reaped kills (SIGKILL) and reaps it, so no
// path out of shmpirun leaves a zombie or an orphan behind.
#pragma once

#include <sched.h>
#include <signal.h>
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "unique_fd.hpp"

namespace shmpi::launcher {

// NUL-terminated char* arrays for execve, owning their strings.
class ExecStrings {
 public:
  explicit ExecStrings(std::vector<std::string> strings);
  ExecStrings(const ExecStrings&) = delete;
  ExecStrings& operator=(const ExecStrings&) = delete;
  char* const* get() const noexcept { return pointers_.data(); }

 private:
  std::vector<std::string> strings_;
  std::vector<char*> pointers_;
};

// Reported through the exec-error pipe when execve fails in a child.
struct ExecFailure {
  int rank;
  int error;  // errno
};

// Everything a child does between fork and exec, prepared before fork: the
// child may only make async-signal-safe calls (shmpirun has threads).
struct SpawnSpec {
  int rank = 0;
  const char* path = nullptr;  // resolved program
  char* const* argv = nullptr;
  char* const* envp = nullptr;
  std::optional<cpu_set_t> cpus;  // nullopt: inherit shmpirun's affinity
  int stdin_fd = -1;              // become fds 0, 1, 2
  int stdout_fd = -1;
  int stderr_fd = -1;
  int status_fd = -1;             // FD_CLOEXEC cleared: inherited by the rank
  int exec_error_fd = -1;         // write end of the exec-error pipe
  pid_t pgid = 0;                 // job's process group; 0: the child leads a new one
  pid_t parent = 0;               // shmpirun's pid (PR_SET_PDEATHSIG race check)
  const sigset_t* signal_mask = nullptr;  // restored before exec
};

class Child {
 public:
  static Child spawn(const SpawnSpec& spec);  // throws LaunchError when fork fails

  Child(Child&& other) noexcept;
  Child& operator=(Child&&) = delete;
  Child(const Child&) = delete;
  ~Child();

  pid_t pid() const noexcept { return pid_; }
  int pidfd() const noexcept { return pidfd_.get(); }  // readable once the child exited
  bool reaped() const noexcept { return reaped_; }
  void signal(int sig) noexcept;
  // The wait status once the child has exited (reaps it), else nullopt.
  std::optional<int> try_reap() noexcept;

 private:
  Child(pid_t pid, UniqueFd pidfd) : pid_(pid), pidfd_(std::move(pidfd)) {}
  pid_t pid_;
  UniqueFd pidfd_;
  bool reaped_ = false;
};

}  // namespace shmpi::launcher
