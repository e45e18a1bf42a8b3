// Job set-up: session, PMIx namespace, and fork/exec of every rank.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <shmpi/job_contract.hpp>

#include "job.hpp"
#include "launch_error.hpp"

namespace shmpi::launcher {
namespace {

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "localhost";
  return name;
}

void write_line(int fd, std::string line) {
  line += '\n';
  [[maybe_unused]] ssize_t n = ::write(fd, line.data(), line.size());
}

cpu_set_t to_cpu_set(const std::vector<int>& cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int cpu : cpus) CPU_SET(cpu, &set);
  return set;
}

bool stdin_is_foreground_terminal() {
  return ::isatty(0) != 0 && ::tcgetpgrp(0) == ::getpgrp();
}

}  // namespace

Job::Job(LaunchPlan plan)
    : plan_(std::move(plan)),
      signals_({SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGTSTP, SIGCONT}),
      status_(plan_.ranks),
      output_(plan_.ranks, OutputFormat{plan_.options.tag_output, plan_.options.timestamp_output}),
      ranks_(static_cast<std::size_t>(plan_.ranks)) {
  ::setenv("PMIX_MCA_gds", "hash", 1);  // the server's store: no files (DESIGN.md facts)
  server_.emplace(session_.path(), events_);
}

Environment Job::job_environment() const {
  Environment env = plan_.rank_env;
  set_variable(env, contract::kEnvSessionDir, session_.path());
  set_variable(env, contract::kEnvStatusFd, std::to_string(status_.fd()));
  return env;
}

void Job::report_bindings() const {
  std::string prefix(1, '[');
  prefix.append(host_name()).append(1, ':').append(std::to_string(::getpid())).append(1, ']');
  if (plan_.placement.shared_cores)
    write_line(2, "shmpirun: another shmpirun job holds the cores these ranks would use; "
                  "they share CPUs and wait with yield");
  for (int r = 0; r < plan_.ranks; ++r)
    write_line(2, binding_line(prefix, r, plan_.placement.ranks[static_cast<std::size_t>(r)], plan_.topology));
}

void Job::check_exec_failures(UniqueFd read_end) const {
  ExecFailure failure{};
  ssize_t n;
  while ((n = ::read(read_end.get(), &failure, sizeof failure)) < 0 && errno == EINTR) {
  }
  if (n != static_cast<ssize_t>(sizeof failure)) return;  // EOF: every rank exec'd
  std::string reason = failure.error == ENOEXEC ? "not a binary nor a script with a #! line"
                                                : std::strerror(failure.error);
  throw usage_error(plan_.options.command.front() + ": cannot execute: " + reason);
}

// What every rank shares at spawn time; lives on spawn_all()'s stack.
struct Job::SpawnShared {
  Environment base_env;
  ExecStrings argv;
  Pipe exec_errors;
  UniqueFd dev_null;
  Pipe rank0_stdin;   // only when stdin is the foreground terminal (StdinPump)
  int rank0_stdin_fd;
};

void Job::spawn_all() {
  JobLayout layout{"shmpi-" + std::to_string(::getpid()), host_name(), {}, plan_.options.fake_nodes};
  for (const RankBinding& binding : plan_.placement.ranks) layout.cpusets.push_back(format_cpu_list(binding.cpus));
  server_->register_job(layout);
  if (plan_.options.report_bindings) report_bindings();

  SpawnShared shared{job_environment(), ExecStrings(plan_.options.command), make_pipe(),
                     UniqueFd(::open("/dev/null", O_RDONLY | O_CLOEXEC)), {}, 0};
  if (!shared.dev_null) throw system_error("/dev/null", errno);
  if (::isatty(0) != 0) {  // non-terminal stdin goes to rank 0 as it is (fd 0)
    shared.rank0_stdin_fd = shared.dev_null.get();
    if (stdin_is_foreground_terminal()) {
      shared.rank0_stdin = make_pipe();
      shared.rank0_stdin_fd = shared.rank0_stdin.read_end.get();
    }
  }
  for (int r = 0; r < plan_.ranks; ++r) spawn_rank(r, shared);
  plan_.files.clear();  // the ranks hold the output files now
  shared.exec_errors.write_end.reset();
  check_exec_failures(std::move(shared.exec_errors.read_end));
  if (shared.rank0_stdin.write_end) stdin_pump_.emplace(std::move(shared.rank0_stdin.write_end));
}

void Job::spawn_rank(int r, const SpawnShared& shared) {
  auto index = static_cast<std::size_t>(r);
  RankSlot& slot = ranks_[index];
  ExecStrings envp(server_->client_env(r, shared.base_env));
  Pipe out, err;
  if (plan_.files.empty()) {
    out = make_pipe();
    err = make_pipe();
  }
  const RankBinding& binding = plan_.placement.ranks[index];
  SpawnSpec spec;
  spec.rank = r;
  spec.path = plan_.program_path.c_str();
  spec.argv = shared.argv.get();
  spec.envp = envp.get();
  if (!binding.cpus.empty()) spec.cpus = to_cpu_set(binding.cpus);
  spec.stdin_fd = r == 0 ? shared.rank0_stdin_fd : shared.dev_null.get();
  spec.stdout_fd = plan_.files.empty() ? out.write_end.get() : plan_.files[index].out.get();
  spec.stderr_fd = plan_.files.empty() ? err.write_end.get() : plan_.files[index].err.get();
  spec.status_fd = status_.fd();
  spec.exec_error_fd = shared.exec_errors.write_end.get();
  spec.pgid = pgid_;
  spec.parent = ::getpid();
  spec.signal_mask = &signals_.original_mask();
  slot.child.emplace(Child::spawn(spec));
  ++alive_;
  if (r == 0) pgid_ = slot.child->pid();
  if (out.read_end) {
    set_nonblocking(out.read_end.get());
    set_nonblocking(err.read_end.get());
    slot.out = std::move(out.read_end);
    slot.err = std::move(err.read_end);
  }
}

}  // namespace shmpi::launcher
