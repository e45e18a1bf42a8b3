// StdinPump: copies shmpirun's stdin to rank 0 through a pipe. Used only
// when stdin is a terminal: the ranks run in their own process group, so
// rank 0 reading the terminal itself would be stopped by SIGTTIN. (Any
// other stdin is handed to rank 0 directly.) fd 0 is never made
// non-blocking (that flag would leak to the shell); it is read only when
// poll() says it is readable.
#pragma once

#include <poll.h>

#include <string>

#include "unique_fd.hpp"

namespace shmpi::launcher {

class StdinPump {
 public:
  explicit StdinPump(UniqueFd sink);  // write end of rank 0's stdin pipe

  // The poll entries to watch now (fd -1: nothing).
  pollfd source_poll() const noexcept;
  pollfd sink_poll() const noexcept;
  void on_source_ready();
  void on_sink_ready();

 private:
  UniqueFd sink_;
  std::string pending_;
  bool source_done_ = false;
};

}  // namespace shmpi::launcher
