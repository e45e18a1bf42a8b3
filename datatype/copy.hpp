// Copies between user memory laid out by a type and its packed byte
// stream, from any position of the stream (a Cursor), and the iovec runs
// for single-copy transfers. Header-only so a caller's loop inlines the
// small copies of a strided column.
#pragma once

#include <sys/uio.h>

#include <algorithm>
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

// Whole elements of a flat type the cursor hands out (take_elements), field
// by field: a field of `elements` elements is one batch of equal runs, the
// user side stepping by the extent, the packed side by the element size.
// In chunks of about 16 KiB of user memory, so each field's pass over a
// chunk finds it in cache.
template <bool kPack>
inline std::uint64_t copy_elements(Cursor& cursor, std::byte* user, std::byte* packed,
                                   std::uint64_t max_bytes) noexcept {
  Offset first = 0;
  const std::uint64_t elements = cursor.take_elements(max_bytes, first);
  if (elements == 0) return 0;
  const Offset extent = cursor.element_extent();
  const auto size = static_cast<Offset>(cursor.element_size());
  const auto span = static_cast<std::uint64_t>(extent < 0 ? -extent : extent);
  const std::uint64_t chunk = std::max<std::uint64_t>(1, 16384 / std::max<std::uint64_t>(span, 1));
  for (std::uint64_t done = 0; done < elements; done += chunk) {
    const std::uint64_t n = std::min(chunk, elements - done);
    std::byte* u = user + first + static_cast<Offset>(done) * extent;
    std::byte* p = packed + static_cast<Offset>(done) * size;
    for (std::uint32_t i = 0; i < cursor.field_count(); ++i) {
      const Op& field = cursor.fields()[i];
      if (kPack) copy_runs(p, u + field.offset, size, extent, field.bytes, n);
      else copy_runs(u + field.offset, p, extent, size, field.bytes, n);
      p += field.bytes;
    }
  }
  return elements * cursor.element_size();
}

// The next `max_bytes` bytes of the stream between the user's elements and
// the packed bytes, in the direction kPack says; returns the bytes copied.
// A flat type goes run by run to its next element's start, then in whole
// elements (copy_elements), then run by run through the partial last one.
template <bool kPack>
inline std::uint64_t copy_stream(Cursor& cursor, std::byte* user, std::byte* packed, std::uint64_t max_bytes) noexcept {
  auto runs = [&](std::uint64_t bytes) {
    return cursor.advance_runs(bytes, [&](Offset first, Offset stride, std::uint64_t len, std::uint64_t count) {
      const auto step = static_cast<Offset>(len);
      if (kPack) copy_runs(packed, user + first, step, stride, len, count);
      else copy_runs(user + first, packed, stride, step, len, count);
      packed += len * count;
      return count;
    });
  };
  std::uint64_t moved = 0;
  if (cursor.flat()) {
    const std::uint64_t into = cursor.position() % cursor.element_size();
    if (into != 0) moved += runs(std::min(max_bytes, cursor.element_size() - into));
    const std::uint64_t whole = copy_elements<kPack>(cursor, user, packed, max_bytes - moved);
    packed += whole;
    moved += whole;
  }
  return moved + runs(max_bytes - moved);
}

// Packs the next `max_bytes` bytes of the stream of the elements at
// `origin` into `out`; returns the bytes packed.
inline std::uint64_t pack(Cursor& cursor, const void* origin, void* out, std::uint64_t max_bytes) noexcept {
  // Read only: copy_stream<true> copies from `origin`'s memory, never into it.
  return copy_stream<true>(cursor, static_cast<std::byte*>(const_cast<void*>(origin)), static_cast<std::byte*>(out),
                           max_bytes);
}

// Unpacks the next `max_bytes` bytes of the stream from `in` into the
// elements at `origin`; returns the bytes unpacked.
inline std::uint64_t unpack(Cursor& cursor, const void* in, void* origin, std::uint64_t max_bytes) noexcept {
  return copy_stream<false>(cursor, static_cast<std::byte*>(origin), static_cast<std::byte*>(const_cast<void*>(in)),
                            max_bytes);
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
