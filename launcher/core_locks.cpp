#include "core_locks.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>

namespace shmpi::launcher {

CoreLocks::CoreLocks() {
  std::string path = "/tmp/shmpi-cores-" + std::to_string(::getuid());
  UniqueFd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600));
  struct stat st {};
  if (fd && ::fstat(fd.get(), &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::getuid())
    fd_ = std::move(fd);
}

bool CoreLocks::lock(int cpu, short type) {
  struct flock range {};
  range.l_type = type;
  range.l_whence = SEEK_SET;
  range.l_start = cpu;
  range.l_len = 1;
  while (::fcntl(fd_.get(), F_OFD_SETLK, &range) != 0) {
    if (errno != EINTR) return false;
  }
  return true;
}

std::vector<int> CoreLocks::acquire(std::span<const int> candidates, std::size_t wanted) {
  std::vector<int> acquired;
  for (int cpu : candidates) {
    if (acquired.size() == wanted) break;
    if (!fd_ || lock(cpu, F_WRLCK)) {
      acquired.push_back(cpu);
      if (fd_) held_.push_back(cpu);
    } else {
      saw_busy_ = true;
    }
  }
  return acquired;
}

void CoreLocks::release_except(std::span<const int> keep) {
  std::vector<int> still_held;
  for (int cpu : held_) {
    if (std::find(keep.begin(), keep.end(), cpu) != keep.end())
      still_held.push_back(cpu);
    else
      lock(cpu, F_UNLCK);
  }
  held_ = std::move(still_held);
}

}  // namespace shmpi::launcher
