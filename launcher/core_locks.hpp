// CoreLocks: keeps two shmpirun jobs of one user from binding ranks to the
// same CPU. One file, /tmp/shmpi-cores-<uid>, holds one open-file-description
// byte-range lock (F_OFD_SETLK) per CPU: byte N locked = CPU N in use. The
// locks vanish when shmpirun exits or dies, so nothing stale remains; the
// empty file itself stays (one per user, on purpose).
#pragma once

#include <span>
#include <vector>

#include "unique_fd.hpp"

namespace shmpi::launcher {

class CoreLocks {
 public:
  // Opens (creates) the lock file. When that fails (or the file belongs to
  // someone else) coordination is off and every CPU looks free.
  CoreLocks();

  // Locks CPUs of `candidates` in order, skipping those another job holds,
  // until `wanted` are held; returns them in acquisition order.
  std::vector<int> acquire(std::span<const int> candidates, std::size_t wanted);
  // Releases every held CPU not in `keep`.
  void release_except(std::span<const int> keep);
  // True when acquire() found a CPU held by another job.
  bool saw_busy() const noexcept { return saw_busy_; }

 private:
  bool lock(int cpu, short type);

  UniqueFd fd_;
  std::vector<int> held_;
  bool saw_busy_ = false;
};

}  // namespace shmpi::launcher
