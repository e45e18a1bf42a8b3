#include "output_router.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

namespace shmpi::launcher {

std::string line_prefix(const OutputFormat& format, int rank, Stream stream, const timespec& now) {
  std::string prefix;
  if (format.timestamp) {
    struct tm local {};
    ::localtime_r(&now.tv_sec, &local);
    char text[64];
    std::size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &local);
    std::snprintf(text + n, sizeof text - n, ".%03ld ", now.tv_nsec / 1000000);
    prefix += text;
  }
  if (format.tag) {
    prefix += "[1," + std::to_string(rank) + "]";
    prefix += stream == Stream::Out ? "<stdout>:" : "<stderr>:";
  }
  return prefix;
}

OutputRouter::OutputRouter(int ranks, OutputFormat format, int stdout_fd, int stderr_fd)
    : format_(format), fds_{stdout_fd, stderr_fd}, splitters_(2 * static_cast<std::size_t>(ranks)) {}

LineSplitter& OutputRouter::splitter(int rank, Stream stream) {
  return splitters_[2 * static_cast<std::size_t>(rank) + (stream == Stream::Err ? 1 : 0)];
}

void OutputRouter::on_data(int rank, Stream stream, std::string_view bytes) {
  batch_.clear();
  std::string prefix;
  if (format_.tag || format_.timestamp) {
    timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    prefix = line_prefix(format_, rank, stream, now);
  }
  splitter(rank, stream).feed(bytes, [&](std::string_view line) {
    batch_ += prefix;
    batch_ += line;
  });
  write_all(stream, batch_);
}

void OutputRouter::on_eof(int rank, Stream stream) {
  batch_.clear();
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  splitter(rank, stream).finish([&](std::string_view line) {
    batch_ += line_prefix(format_, rank, stream, now);
    batch_ += line;
  });
  write_all(stream, batch_);
}

void OutputRouter::write_all(Stream stream, std::string_view text) {
  int index = stream == Stream::Err ? 1 : 0;
  while (!text.empty() && !broken_[index]) {
    ssize_t n = ::write(fds_[index], text.data(), text.size());
    if (n > 0) {
      text.remove_prefix(static_cast<std::size_t>(n));
    } else if (n < 0 && errno == EAGAIN) {
      pollfd pfd{fds_[index], POLLOUT, 0};
      ::poll(&pfd, 1, -1);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      broken_[index] = true;  // EPIPE or worse: nobody reads this stream any more
    }
  }
}

}  // namespace shmpi::launcher
