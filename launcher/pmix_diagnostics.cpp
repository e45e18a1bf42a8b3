#include "pmix_diagnostics.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>

namespace shmpi::launcher {

PmixDiagnostics::PmixDiagnostics(int sink_fd) : sink_fd_(sink_fd) {
  // Non-blocking both ways: libpmix drops a message rather than blocking on
  // a full pipe, and we read only what is there.
  Pipe pipe = make_pipe(O_NONBLOCK);
  read_end_ = std::move(pipe.read_end);
  write_end_ = std::move(pipe.write_end);
  ::setenv("PMIX_OUTPUT_STDERR_FD", std::to_string(write_end_.get()).c_str(), 1);
}

PmixDiagnostics::~PmixDiagnostics() {
  on_readable();
  lines_.finish([this](std::string_view line) { emit(line); });
  [[maybe_unused]] int kept_open = write_end_.release();
}

void PmixDiagnostics::on_readable() {
  char buffer[4096];
  for (;;) {
    ssize_t n = ::read(read_end_.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    lines_.feed(std::string_view(buffer, static_cast<std::size_t>(n)),
                [this](std::string_view line) { emit(line); });
  }
}

void PmixDiagnostics::emit(std::string_view line) const {
  if (silent_) return;
  std::string text = "shmpirun: libpmix: ";
  text.append(line);
  [[maybe_unused]] ssize_t n = ::write(sink_fd_, text.data(), text.size());
}

}  // namespace shmpi::launcher
