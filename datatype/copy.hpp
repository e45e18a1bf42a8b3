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

// `count` runs of N bytes, from `from` (runs `stride` apart) packed back to
// back into `to`, or the reverse (Scatter): with N a constant each run is a
// move or two, and the loop unrolls (a column of doubles copies at several
// elements a nanosecond instead of one call per element).
template <std::size_t N, bool Scatter>
inline void copy_fixed_runs(std::byte* packed, std::byte* strided, Offset stride, std::uint64_t count) noexcept {
  for (std::uint64_t i = 0; i < count; ++i, packed += N, strided += stride) {
    if constexpr (Scatter)
      std::memcpy(strided, packed, N);
    else
      std::memcpy(packed, strided, N);
  }
}

template <bool Scatter>
inline void copy_runs(std::byte* packed, std::byte* strided, Offset stride, std::uint64_t bytes,
                      std::uint64_t count) noexcept {
  switch (bytes) {
    case 4: return copy_fixed_runs<4, Scatter>(packed, strided, stride, count);
    case 8: return copy_fixed_runs<8, Scatter>(packed, strided, stride, count);
    case 16: return copy_fixed_runs<16, Scatter>(packed, strided, stride, count);
    case 24: return copy_fixed_runs<24, Scatter>(packed, strided, stride, count);
    case 32: return copy_fixed_runs<32, Scatter>(packed, strided, stride, count);
    default:
      for (std::uint64_t i = 0; i < count; ++i, packed += bytes, strided += stride) {
        if constexpr (Scatter)
          std::memcpy(strided, packed, bytes);
        else
          std::memcpy(packed, strided, bytes);
      }
  }
}

// Packs the next `max_bytes` bytes of the stream of the elements at
// `origin` into `out`; returns the bytes packed.
inline std::uint64_t pack(Cursor& cursor, const void* origin, void* out, std::uint64_t max_bytes) noexcept {
  auto* base = static_cast<std::byte*>(const_cast<void*>(origin));  // only read
  auto* to = static_cast<std::byte*>(out);
  return cursor.advance_runs(max_bytes, [&](Offset first, Offset stride, std::uint64_t bytes, std::uint64_t count) {
    copy_runs<false>(to, base + first, stride, bytes, count);
    to += bytes * count;
    return count;
  });
}

// Unpacks the next `max_bytes` bytes of the stream from `in` into the
// elements at `origin`; returns the bytes unpacked.
inline std::uint64_t unpack(Cursor& cursor, const void* in, void* origin, std::uint64_t max_bytes) noexcept {
  auto* base = static_cast<std::byte*>(origin);
  auto* from = static_cast<std::byte*>(const_cast<void*>(in));  // only read
  return cursor.advance_runs(max_bytes, [&](Offset first, Offset stride, std::uint64_t bytes, std::uint64_t count) {
    copy_runs<true>(from, base + first, stride, bytes, count);
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
