// OutputRouter: writes the ranks' output lines to shmpirun's stdout and
// stderr, whole lines only, with the optional --tag-output and
// --timestamp-output prefixes.
#pragma once

#include <ctime>
#include <string>
#include <string_view>
#include <vector>

#include "line_splitter.hpp"

namespace shmpi::launcher {

enum class Stream { Out = 1, Err = 2 };

struct OutputFormat {
  bool tag = false;        // "[1,<rank>]<stdout>:" as Open MPI prints it
  bool timestamp = false;  // "2026-12-02T12:27:52.123 " (local time, ms)
};

// The prefix of one line; pure (unit-tested). `now` is CLOCK_REALTIME.
std::string line_prefix(const OutputFormat& format, int rank, Stream stream, const timespec& now);

class OutputRouter {
 public:
  OutputRouter(int ranks, OutputFormat format, int stdout_fd = 1, int stderr_fd = 2);

  void on_data(int rank, Stream stream, std::string_view bytes);
  void on_eof(int rank, Stream stream);

 private:
  LineSplitter& splitter(int rank, Stream stream);
  // Writes everything; a reader that went away (EPIPE) silences that fd.
  void write_all(Stream stream, std::string_view text);

  OutputFormat format_;
  int fds_[2];
  bool broken_[2] = {false, false};
  std::vector<LineSplitter> splitters_;  // [2 * rank + (stream == Err)]
  std::string batch_;
};

}  // namespace shmpi::launcher
