#include "wait_status.hpp"

#include <string.h>
#include <sys/wait.h>

namespace shmpi::launcher {

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    const char* description = ::sigdescr_np(sig);
    std::string text = "killed by signal " + std::to_string(sig);
    if (description != nullptr) text += std::string(" (") + description + ")";
    if (WCOREDUMP(status)) text += ", core dumped";
    return text;
  }
  return "ended with wait status " + std::to_string(status);
}

int exit_code_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

std::string signal_name(int signal_number) {
  const char* abbrev = ::sigabbrev_np(signal_number);
  return abbrev != nullptr ? std::string("SIG") + abbrev : "signal " + std::to_string(signal_number);
}

}  // namespace shmpi::launcher
