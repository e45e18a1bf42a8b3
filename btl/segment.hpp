// Segment: one shared-memory region backed by a memfd.
//
// A rank creates its own receive segment with Segment::create() and
// publishes (pid, fd number, size); peers map it with Segment::attach(),
// which duplicates the owner's fd through pidfd_getfd (fallback: opening
// /proc/<pid>/fd/<n>). The memfd is never given a name in any file system,
// so a crash cannot leave it behind: it disappears with its last mapping.
#pragma once

#include <sys/types.h>

#include <cstddef>

#include "btl/unique_fd.hpp"

namespace shmpi::btl {

class Segment {
 public:
  Segment() = default;
  Segment(Segment&& other) noexcept;
  Segment& operator=(Segment&& other) noexcept;
  Segment(const Segment&) = delete;
  Segment& operator=(const Segment&) = delete;
  ~Segment();

  // Creates a zero-filled segment of `bytes` (rounded up to whole pages).
  // Throws std::system_error naming the failing call.
  static Segment create(std::size_t bytes);

  // Maps the segment that process `owner` holds open as descriptor
  // `owner_fd`. Throws std::system_error naming the failing call.
  static Segment attach(pid_t owner, int owner_fd, std::size_t bytes);

  std::byte* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  int fd() const noexcept { return fd_.get(); }

  // Fills in this mapping's page tables for [offset, offset + bytes), ready
  // for writing, so the hot path takes no page faults. A hint: kernels
  // without MADV_POPULATE_WRITE (before 5.14) just fault later.
  void prefault(std::size_t offset, std::size_t bytes) const noexcept;

 private:
  Segment(UniqueFd fd, std::byte* data, std::size_t size) noexcept
      : fd_(std::move(fd)), data_(data), size_(size) {}
  void unmap() noexcept;

  UniqueFd fd_;
  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
};

// Duplicates descriptor `owner_fd` of process `owner` into this process
// (pidfd_getfd, else /proc/<owner>/fd/<owner_fd>); empty if neither may.
UniqueFd fd_of_process(pid_t owner, int owner_fd) noexcept;

// Rounds up to a multiple of the page size.
std::size_t round_to_pages(std::size_t bytes) noexcept;

}  // namespace shmpi::btl
