#include "btl/segment.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <string>
#include <system_error>
#include <utility>

namespace shmpi::btl {
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

std::byte* map_shared(int fd, std::size_t bytes) {
  void* addr = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (addr == MAP_FAILED) fail("mmap of a shared segment (" + std::to_string(bytes) + " bytes)");
  return static_cast<std::byte*>(addr);
}

}  // namespace

UniqueFd fd_of_process(pid_t owner, int owner_fd) noexcept {
  UniqueFd pidfd(static_cast<int>(::syscall(SYS_pidfd_open, owner, 0)));
  if (pidfd) {
    UniqueFd fd(static_cast<int>(::syscall(SYS_pidfd_getfd, pidfd.get(), owner_fd, 0)));
    if (fd) return fd;
  }
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/fd/%d", static_cast<int>(owner), owner_fd);
  return UniqueFd(::open(path, O_RDWR | O_CLOEXEC));
}

std::size_t round_to_pages(std::size_t bytes) noexcept {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return (bytes + page - 1) / page * page;
}

Segment Segment::create(std::size_t bytes) {
  bytes = round_to_pages(bytes);
  UniqueFd fd(::memfd_create("shmpi-segment", MFD_CLOEXEC));
  if (!fd) fail("memfd_create");
  if (::ftruncate(fd.get(), static_cast<off_t>(bytes)) != 0)
    fail("ftruncate of a " + std::to_string(bytes) + "-byte segment");
  std::byte* data = map_shared(fd.get(), bytes);
  return Segment(std::move(fd), data, bytes);
}

Segment Segment::attach(pid_t owner, int owner_fd, std::size_t bytes) {
  bytes = round_to_pages(bytes);
  UniqueFd fd = fd_of_process(owner, owner_fd);
  if (!fd)
    fail("cannot reach the segment of process " + std::to_string(owner) + " (pidfd_getfd and /proc/" +
         std::to_string(owner) + "/fd/" + std::to_string(owner_fd) + " both failed)");
  std::byte* data = map_shared(fd.get(), bytes);
  return Segment(std::move(fd), data, bytes);
}

void Segment::prefault(std::size_t offset, std::size_t bytes) const noexcept {
#ifndef MADV_POPULATE_WRITE
  constexpr int MADV_POPULATE_WRITE = 23;  // Linux 5.14; older headers lack it
#endif
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t first = offset / page * page;
  const std::size_t last = std::min(size_, round_to_pages(offset + bytes));
  if (first < last) ::madvise(data_ + first, last - first, MADV_POPULATE_WRITE);
}

Segment::Segment(Segment&& other) noexcept
    : fd_(std::move(other.fd_)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

Segment& Segment::operator=(Segment&& other) noexcept {
  if (this != &other) {
    unmap();
    fd_ = std::move(other.fd_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

Segment::~Segment() { unmap(); }

void Segment::unmap() noexcept {
  if (data_ != nullptr) ::munmap(data_, size_);
  data_ = nullptr;
  size_ = 0;
}

}  // namespace shmpi::btl
