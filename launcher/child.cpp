#include "child.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "launch_error.hpp"

namespace shmpi::launcher {

ExecStrings::ExecStrings(std::vector<std::string> strings) : strings_(std::move(strings)) {
  for (std::string& s : strings_) pointers_.push_back(s.data());
  pointers_.push_back(nullptr);
}

namespace {

// Raw system calls: glibc 2.36's <sys/pidfd.h> lacks extern "C" for C++.
int open_pidfd(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }
int send_signal(int pidfd, int sig) {
  return static_cast<int>(::syscall(SYS_pidfd_send_signal, pidfd, sig, nullptr, 0));
}

[[noreturn]] void fail_in_child(const SpawnSpec& spec) noexcept {
  ExecFailure failure{spec.rank, errno};
  [[maybe_unused]] ssize_t n = ::write(spec.exec_error_fd, &failure, sizeof failure);
  ::_exit(127);
}

// Runs in the forked child: async-signal-safe calls only.
[[noreturn]] void exec_child(const SpawnSpec& spec) noexcept {
  // Die with shmpirun; if it already died, the signal was never armed.
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != spec.parent) ::_exit(127);
  ::setpgid(0, spec.pgid);  // the parent does it too (whoever comes first)
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigaction(SIGPIPE, &dfl, nullptr);  // shmpirun ignores it; the rank must not
  ::pthread_sigmask(SIG_SETMASK, spec.signal_mask, nullptr);
  if (spec.cpus && ::sched_setaffinity(0, sizeof(cpu_set_t), &*spec.cpus) != 0) fail_in_child(spec);
  if (::dup2(spec.stdin_fd, 0) < 0 || ::dup2(spec.stdout_fd, 1) < 0 || ::dup2(spec.stderr_fd, 2) < 0)
    fail_in_child(spec);
  if (::fcntl(spec.status_fd, F_SETFD, 0) != 0) fail_in_child(spec);
  ::execve(spec.path, spec.argv, spec.envp);
  fail_in_child(spec);
}

}  // namespace

Child Child::spawn(const SpawnSpec& spec) {
  pid_t pid = ::fork();
  if (pid < 0) throw system_error("fork", errno);
  if (pid == 0) exec_child(spec);
  ::setpgid(pid, spec.pgid == 0 ? pid : spec.pgid);  // may fail harmlessly after exec
  UniqueFd pidfd(open_pidfd(pid));
  if (!pidfd) {
    int error = errno;
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    throw system_error("pidfd_open", error);
  }
  return Child(pid, std::move(pidfd));
}

Child::Child(Child&& other) noexcept
    : pid_(other.pid_), pidfd_(std::move(other.pidfd_)), reaped_(std::exchange(other.reaped_, true)) {}

Child::~Child() {
  if (reaped_) return;
  signal(SIGKILL);
  while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
  }
}

void Child::signal(int sig) noexcept {
  if (!reaped_) send_signal(pidfd_.get(), sig);
}

std::optional<int> Child::try_reap() noexcept {
  if (reaped_) return std::nullopt;
  int status = 0;
  pid_t r = ::waitpid(pid_, &status, WNOHANG);
  if (r != pid_) return std::nullopt;
  reaped_ = true;
  return status;
}

}  // namespace shmpi::launcher
