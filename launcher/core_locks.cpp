#include "core_locks.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>

namespace shmpi::launcher {

namespace {

enum class Lock { Held, Busy, Unavailable };

// Binds a new socket to CPU `cpu`'s abstract name; the socket holds the lock.
Lock lock_cpu(int cpu, UniqueFd& out) {
  UniqueFd socket(::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  if (!socket) return Lock::Unavailable;
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  // sun_path[0] stays '\0': the abstract namespace; the name is not terminated.
  const int length = std::snprintf(address.sun_path + 1, sizeof address.sun_path - 1, "shmpi-cpu-%u-%d",
                                   static_cast<unsigned>(::getuid()), cpu);
  const auto size = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + static_cast<std::size_t>(length));
  if (::bind(socket.get(), reinterpret_cast<const sockaddr*>(&address), size) != 0)
    return errno == EADDRINUSE ? Lock::Busy : Lock::Unavailable;
  out = std::move(socket);
  return Lock::Held;
}

}  // namespace

std::vector<int> CoreLocks::acquire(std::span<const int> candidates, std::size_t wanted) {
  std::vector<int> acquired;
  for (int cpu : candidates) {
    if (acquired.size() == wanted) break;
    UniqueFd socket;
    switch (lock_cpu(cpu, socket)) {
      case Lock::Held:
        held_.push_back(Held{cpu, std::move(socket)});
        acquired.push_back(cpu);
        break;
      case Lock::Unavailable: acquired.push_back(cpu); break;
      case Lock::Busy: saw_busy_ = true; break;
    }
  }
  return acquired;
}

void CoreLocks::release_except(std::span<const int> keep) {
  std::erase_if(held_, [keep](const Held& h) { return std::find(keep.begin(), keep.end(), h.cpu) == keep.end(); });
}

}  // namespace shmpi::launcher
