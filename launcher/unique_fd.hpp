// UniqueFd: the one owner of a file descriptor.
#pragma once

#include <unistd.h>

#include <utility>

namespace shmpi::launcher {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) noexcept : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  int get() const noexcept { return fd_; }
  bool valid() const noexcept { return fd_ >= 0; }
  explicit operator bool() const noexcept { return valid(); }

  int release() noexcept { return std::exchange(fd_, -1); }
  void reset(int fd = -1) noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

// Both ends of a pipe, created with O_CLOEXEC (plus `extra_flags`).
struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
};
Pipe make_pipe(int extra_flags = 0);

// Sets O_NONBLOCK on `fd`; throws on failure.
void set_nonblocking(int fd);

}  // namespace shmpi::launcher
