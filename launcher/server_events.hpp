// ServerEvents: hands PMIx upcalls from PMIx's progress thread to the main
// thread. Upcalls must return at once and must not call blocking PMIx
// functions (DESIGN.md, platform facts), so they only push() here.
//
// Concurrency: push() (progress thread) appends under `mutex_`, then writes
// the eventfd; the main thread polls fd(), then take_all() swaps the vector
// out under the same mutex. An event pushed before a client is released
// from its PMIx call is therefore visible to the main thread before that
// client's exit can be observed (the pidfd becomes readable only later).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "unique_fd.hpp"

namespace shmpi::launcher {

struct ServerEvent {
  enum class Kind : std::uint8_t { Connected, Finalized, Aborted };
  Kind kind;
  int rank;
  int status = 0;       // Aborted only: the status passed to PMIx_Abort
  std::string message;  // Aborted only
};

class ServerEvents {
 public:
  ServerEvents();  // throws LaunchError when the eventfd cannot be made

  // Any thread. Never blocks for long, never throws (drops on bad_alloc).
  void push(ServerEvent event) noexcept;

  // Main thread: readable when events are pending.
  int fd() const noexcept { return eventfd_.get(); }
  // Main thread: all pending events, oldest first; resets fd().
  std::vector<ServerEvent> take_all();

 private:
  std::mutex mutex_;
  std::vector<ServerEvent> pending_;  // guarded by mutex_
  UniqueFd eventfd_;
};

}  // namespace shmpi::launcher
