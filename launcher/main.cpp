// shmpirun: starts an MPI job of N ranks on this node (see usage.cpp).
#include <fcntl.h>
#include <pmix.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "heat_map.hpp"
#include "job.hpp"
#include "launch_error.hpp"
#include "launch_plan.hpp"
#include "options.hpp"
#include "pmix_server.hpp"

extern char** environ;

namespace {

using namespace shmpi::launcher;

void print(int fd, const std::string& text) {
  [[maybe_unused]] ssize_t n = ::write(fd, text.data(), text.size());
}

// So that no fd we open becomes a rank's 0, 1 or 2 by accident.
void ensure_standard_fds() {
  for (int fd = 0; fd <= 2; ++fd)
    if (::fcntl(fd, F_GETFD) < 0) ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
}

int launch(const std::vector<std::string>& args) {
  ParsedArgs parsed = parse_args(args);
  if (parsed.action == Action::Help) {
    print(1, usage_text());
    return 0;
  }
  if (parsed.action == Action::Version) {
    print(1, std::string("shmpirun (shmpi) ") + SHMPI_VERSION + ", PMIx " + PMIx_Get_version() + "\n");
    return 0;
  }
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) environment.emplace_back(*entry);
  LaunchPlan plan = prepare_launch(std::move(parsed.options), environment);
  const std::string matrix = plan.options.report.comm_matrix;
  const int code = Job(std::move(plan)).run();  // the Job is gone (signals unblocked) before gnuplot runs
  if (code == 0 && !matrix.empty()) draw_heat_map(matrix);
  return code;
}

// Ends the process with `code`; without exit handlers when libpmix was left
// blocked in its finalize (see ~PmixServer), since they could block too.
int finish(int code) {
  if (PmixServer::finalize_abandoned()) std::_Exit(code);
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  ensure_standard_fds();
  ::signal(SIGPIPE, SIG_IGN);  // a closed stdout must not kill the launcher (children reset it)
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    return finish(launch(args));
  } catch (const LaunchError& error) {
    print(2, std::string("shmpirun: ") + error.what() + "\n");
    return finish(error.exit_code());
  } catch (const std::exception& error) {
    print(2, std::string("shmpirun: internal error: ") + error.what() + "\n");
    return finish(kExitInternal);
  }
}
