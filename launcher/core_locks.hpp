// CoreLocks: keeps two shmpirun jobs of one user from binding ranks to the
// same CPU. CPU N in use = a socket of ours bound to the abstract Unix
// address "shmpi-cpu-<uid>-<N>" (unix(7)): a second bind of that name fails
// with EADDRINUSE, and the name is gone the moment its last descriptor
// closes, when shmpirun exits or dies. Nothing is created in the file
// system, so nothing is left behind.
//
// Abstract names are shared by every process of the network namespace:
// another user could take ours, which only makes our jobs run unbound (as
// when the CPUs are busy), never on a CPU another job holds.
#pragma once

#include <span>
#include <vector>

#include "unique_fd.hpp"

namespace shmpi::launcher {

class CoreLocks {
 public:
  CoreLocks() = default;

  // Locks CPUs of `candidates` in order, skipping those another job holds,
  // until `wanted` are held; returns them in acquisition order. A CPU whose
  // lock cannot be asked for at all (no sockets left) counts as free.
  std::vector<int> acquire(std::span<const int> candidates, std::size_t wanted);
  // Releases every held CPU not in `keep`.
  void release_except(std::span<const int> keep);
  // True when acquire() found a CPU held by another job.
  bool saw_busy() const noexcept { return saw_busy_; }

 private:
  struct Held {
    int cpu;
    UniqueFd socket;  // close-on-exec: the ranks never hold a job's CPUs
  };

  std::vector<Held> held_;
  bool saw_busy_ = false;
};

}  // namespace shmpi::launcher
