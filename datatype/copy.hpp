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

// `count` runs of `bytes` bytes from `from` to `to`, each side stepping by
// its own stride (a packed side steps by `bytes`). With N a constant
// (N == 0: `bytes` at run time) each run is a move or two and the loop
// unrolls: a column of doubles copies several elements a nanosecond
// instead of one call per element.
template <std::size_t N>
inline void copy_strided(std::byte* to, const std::byte* from, Offset to_step, Offset from_step,
                         std::uint64_t bytes, std::uint64_t count) noexcept {
  for (std::uint64_t i = 0; i < count; ++i, to += to_step, from += from_step) std::memcpy(to, from, N != 0 ? N : bytes);
}

// A run of 1..16 bytes as at most two moves that may overlap (no call, no
// loop): the odd sizes of struct fields (12, 6, 3 bytes).
inline void copy_small(std::byte* to, const std::byte* from, std::uint64_t bytes) noexcept {
  if (bytes >= 8) {
    std::memcpy(to, from, 8);
    std::memcpy(to + bytes - 8, from + bytes - 8, 8);
  } else if (bytes >= 4) {
    std::memcpy(to, from, 4);
    std::memcpy(to + bytes - 4, from + bytes - 4, 4);
  } else {
    to[0] = from[0];
    to[bytes / 2] = from[bytes / 2];
    to[bytes - 1] = from[bytes - 1];
  }
}

inline void copy_runs(std::byte* to, const std::byte* from, Offset to_step, Offset from_step, std::uint64_t bytes,
                      std::uint64_t count) noexcept {
  switch (bytes) {
    case 4: return copy_strided<4>(to, from, to_step, from_step, bytes, count);
    case 8: return copy_strided<8>(to, from, to_step, from_step, bytes, count);
    case 16: return copy_strided<16>(to, from, to_step, from_step, bytes, count);
    case 24: return copy_strided<24>(to, from, to_step, from_step, bytes, count);
    case 32: return copy_strided<32>(to, from, to_step, from_step, bytes, count);
    default:
      if (bytes <= 16) {
        for (std::uint64_t i = 0; i < count; ++i, to += to_step, from += from_step) copy_small(to, from, bytes);
        return;
      }
      return copy_strided<0>(to, from, to_step, from_step, bytes, count);
  }
}

// Packs the next `max_bytes` bytes of the stream of the elements at
// `origin` into `out`; returns the bytes packed.
inline std::uint64_t pack(Cursor& cursor, const void* origin, void* out, std::uint64_t max_bytes) noexcept {
  const auto* base = static_cast<const std::byte*>(origin);
  auto* to = static_cast<std::byte*>(out);
  return cursor.advance_runs(max_bytes, [&](Offset first, Offset stride, std::uint64_t bytes, std::uint64_t count) {
    copy_runs(to, base + first, static_cast<Offset>(bytes), stride, bytes, count);
    to += bytes * count;
    return count;
  });
}

// Unpacks the next `max_bytes` bytes of the stream from `in` into the
// elements at `origin`; returns the bytes unpacked.
inline std::uint64_t unpack(Cursor& cursor, const void* in, void* origin, std::uint64_t max_bytes) noexcept {
  auto* base = static_cast<std::byte*>(origin);
  const auto* from = static_cast<const std::byte*>(in);
  return cursor.advance_runs(max_bytes, [&](Offset first, Offset stride, std::uint64_t bytes, std::uint64_t count) {
    copy_runs(base + first, from, stride, static_cast<Offset>(bytes), bytes, count);
    from += bytes * count;
    return count;
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
