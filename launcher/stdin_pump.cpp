#include "stdin_pump.hpp"

#include <unistd.h>

#include <cerrno>

namespace shmpi::launcher {

StdinPump::StdinPump(UniqueFd sink) : sink_(std::move(sink)) { set_nonblocking(sink_.get()); }

pollfd StdinPump::source_poll() const noexcept {
  bool want = !source_done_ && sink_.valid() && pending_.empty();
  return pollfd{want ? 0 : -1, POLLIN, 0};
}

pollfd StdinPump::sink_poll() const noexcept {
  return pollfd{sink_.valid() && !pending_.empty() ? sink_.get() : -1, POLLOUT, 0};
}

void StdinPump::on_source_ready() {
  char buffer[4096];
  ssize_t n = ::read(0, buffer, sizeof buffer);
  if (n > 0) {
    pending_.assign(buffer, static_cast<std::size_t>(n));
    on_sink_ready();
  } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
    source_done_ = true;
    if (pending_.empty()) sink_.reset();  // rank 0 sees end of file
  }
}

void StdinPump::on_sink_ready() {
  ssize_t n = ::write(sink_.get(), pending_.data(), pending_.size());
  if (n > 0) {
    pending_.erase(0, static_cast<std::size_t>(n));
  } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
    sink_.reset();  // rank 0 is gone or closed its stdin
    pending_.clear();
    return;
  }
  if (pending_.empty() && source_done_) sink_.reset();
}

}  // namespace shmpi::launcher
