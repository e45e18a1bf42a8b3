// Copies between user memory laid out by a type and its packed byte
// stream, from any position of the stream (a Cursor), and the iovec runs
// for single-copy transfers. Header-only so a caller's loop inlines the
// small copies of a strided column.
#pragma once

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "datatype/cursor.hpp"

namespace shmpi::datatype {

// memcpy for the short runs of typical types (one element of a column):
// fixed sizes become single moves instead of a call.
inline void copy_run(std::byte* to, const std::byte* from, std::uint64_t n) noexcept {
  switch (n) {
    case 4: std::memcpy(to, from, 4); return;
    case 8: std::memcpy(to, from, 8); return;
    case 16: std::memcpy(to, from, 16); return;
    default: std::memcpy(to, from, n); return;
  }
}

// Packs the next `max_bytes` bytes of the stream of the elements at
// `origin` into `out`; returns the bytes packed.
inline std::uint64_t pack(Cursor& cursor, const void* origin, void* out, std::uint64_t max_bytes) noexcept {
  const auto* base = static_cast<const std::byte*>(origin);
  auto* to = static_cast<std::byte*>(out);
  return cursor.advance(max_bytes, [&](Offset at, std::uint64_t len) {
    copy_run(to, base + at, len);
    to += len;
    return true;
  });
}

// Unpacks the next `max_bytes` bytes of the stream from `in` into the
// elements at `origin`; returns the bytes unpacked.
inline std::uint64_t unpack(Cursor& cursor, const void* in, void* origin, std::uint64_t max_bytes) noexcept {
  auto* base = static_cast<std::byte*>(origin);
  const auto* from = static_cast<const std::byte*>(in);
  return cursor.advance(max_bytes, [&](Offset at, std::uint64_t len) {
    copy_run(base + at, from, len);
    from += len;
    return true;
  });
}

// Fills up to `max_iov` iovecs with the memory behind the next `max_bytes`
// bytes of the stream (adjacent runs joined), for one process_vm_readv /
// process_vm_writev call; returns how many were filled. The cursor moves
// past exactly the bytes they cover.
inline std::size_t next_iovecs(Cursor& cursor, const void* origin, iovec* iov, std::size_t max_iov,
                               std::uint64_t max_bytes) noexcept {
  auto* base = static_cast<std::byte*>(const_cast<void*>(origin));
  std::size_t n = 0;
  cursor.advance(max_bytes, [&](Offset at, std::uint64_t len) {
    std::byte* start = base + at;
    if (n > 0 && static_cast<std::byte*>(iov[n - 1].iov_base) + iov[n - 1].iov_len == start) {
      iov[n - 1].iov_len += len;
      return true;
    }
    if (n == max_iov) return false;
    iov[n++] = iovec{start, static_cast<std::size_t>(len)};
    return true;
  });
  return n;
}

}  // namespace shmpi::datatype
