#include "server_events.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>

#include "launch_error.hpp"

namespace shmpi::launcher {

ServerEvents::ServerEvents() : eventfd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  if (!eventfd_) throw system_error("eventfd", errno);
}

void ServerEvents::push(ServerEvent event) noexcept {
  try {
    std::lock_guard lock(mutex_);
    pending_.push_back(std::move(event));
  } catch (...) {
    return;
  }
  std::uint64_t one = 1;
  [[maybe_unused]] ssize_t n = ::write(eventfd_.get(), &one, sizeof one);
}

std::vector<ServerEvent> ServerEvents::take_all() {
  std::uint64_t count = 0;
  [[maybe_unused]] ssize_t n = ::read(eventfd_.get(), &count, sizeof count);
  std::vector<ServerEvent> events;
  std::lock_guard lock(mutex_);
  events.swap(pending_);
  return events;
}

}  // namespace shmpi::launcher
