#include "unique_fd.hpp"

#include <fcntl.h>

#include <cerrno>
#include <cstring>

#include "launch_error.hpp"

namespace shmpi::launcher {

LaunchError system_error(const std::string& what, int error_number) {
  return {what + ": " + std::strerror(error_number), kExitInternal};
}

Pipe make_pipe(int extra_flags) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | extra_flags) != 0) throw system_error("pipe", errno);
  return Pipe{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

void set_nonblocking(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) throw system_error("fcntl", errno);
}

}  // namespace shmpi::launcher
