#include "datatype/run_pairs.hpp"

#include <algorithm>
#include <cstring>

#include "datatype/copy.hpp"

namespace shmpi::datatype {
namespace {

// Shortens `iov[0, count)` to its first `bytes` bytes; returns the new count.
std::size_t keep_prefix(iovec* iov, std::size_t count, std::uint64_t bytes) noexcept {
  std::size_t i = 0;
  while (i < count && bytes > 0) {
    if (iov[i].iov_len >= bytes) {
      iov[i].iov_len = static_cast<std::size_t>(bytes);
      return i + 1;
    }
    bytes -= iov[i].iov_len;
    ++i;
  }
  return i;
}

std::uint64_t covered(const iovec* iov, std::size_t count) noexcept {
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < count; ++i) total += iov[i].iov_len;
  return total;
}

}  // namespace

std::uint64_t next_run_pairs(Cursor& local, void* local_origin, Cursor& remote, std::uint64_t remote_origin,
                             std::uint64_t max_bytes, RunPairs& out) noexcept {
  const std::uint64_t start = local.position();
  out.local_count = next_iovecs(local, local_origin, out.local.data(), RunPairs::kMaxIovecs, max_bytes);
  const std::uint64_t ours = local.position() - start;
  // The peer's addresses are only numbers here: next_iovecs adds them to a
  // null origin and never dereferences them.
  auto* theirs = reinterpret_cast<void*>(static_cast<std::uintptr_t>(remote_origin));
  out.remote_count = next_iovecs(remote, theirs, out.remote.data(), RunPairs::kMaxIovecs, ours);
  out.bytes = covered(out.remote.data(), out.remote_count);
  if (out.bytes < ours) {
    // The peer's side ran out of iovecs (or of stream) first: give the
    // local side back the bytes it cannot pair.
    out.local_count = keep_prefix(out.local.data(), out.local_count, out.bytes);
    local.seek(start + out.bytes);
  }
  return out.bytes;
}

void copy_run_pairs(const RunPairs& pairs) noexcept {
  std::size_t l = 0, r = 0;
  std::size_t l_done = 0, r_done = 0;  // bytes already copied of local[l], remote[r]
  while (l < pairs.local_count && r < pairs.remote_count) {
    const iovec& to = pairs.local[l];
    const iovec& from = pairs.remote[r];
    const std::size_t n = std::min(to.iov_len - l_done, from.iov_len - r_done);
    std::memmove(static_cast<std::byte*>(to.iov_base) + l_done, static_cast<const std::byte*>(from.iov_base) + r_done,
                 n);
    l_done += n;
    r_done += n;
    if (l_done == to.iov_len) l_done = 0, ++l;
    if (r_done == from.iov_len) r_done = 0, ++r;
  }
}

}  // namespace shmpi::datatype
