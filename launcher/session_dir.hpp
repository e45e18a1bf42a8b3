// SessionDir: the job's private directory (mode 0700), the one place where
// PMIx may create rendezvous files. Removed, with everything in it, when the
// owner is destroyed, on every exit path of shmpirun except SIGKILL. For that
// case the owner holds flock(LOCK_EX) on "<dir>/.owner" while it lives; the
// next shmpirun of the same user removes directories whose lock is free
// (a flock works across pid namespaces, where a pid test would not).
#pragma once

#include <string>

#include "unique_fd.hpp"

namespace shmpi::launcher {

class SessionDir {
 public:
  // Creates "<$TMPDIR or /tmp>/shmpi-<pid>-XXXXXX". Throws LaunchError.
  SessionDir();
  SessionDir(const SessionDir&) = delete;
  SessionDir& operator=(const SessionDir&) = delete;
  ~SessionDir();

  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
  UniqueFd owner_lock_;
};

// The directory under which session directories are made: $TMPDIR if set
// and non-empty, otherwise /tmp.
std::string session_base_dir();

// Removes "shmpi-<pid>-*" directories under `base` owned by this user whose
// shmpirun is gone (its .owner lock is free). Best effort, never throws.
void remove_stale_session_dirs(const std::string& base);

}  // namespace shmpi::launcher
