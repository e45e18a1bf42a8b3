// copy_small(): copies up to 64 bytes with plain loads and stores.
//
// A message this small is copied once on each side of the fast box. Left to
// the compiler, a copy whose length is known only to be small becomes
// `rep movsb`, whose start-up is paid twice per message on the critical
// path of a ping-pong; two overlapping fixed-size moves cost a few cycles.
// Always inlined, the empty case tested first: laid out of line behind the
// larger cases, a 0-byte ping-pong ran at 0.88x the hand-off instead of
// 0.71x (osu_latency_floor, 95 interleaved runs each).
#pragma once

#include <cstddef>
#include <cstring>

namespace shmpi::btl {

inline constexpr std::size_t kSmallCopyMax = 64;

namespace small_copy_detail {
// Copies [0, N) and [n - N, n): all of n bytes when N <= n <= 2N. Both
// loads come before the stores, so the two halves may overlap.
template <std::size_t N>
[[gnu::always_inline]] inline void copy_ends(std::byte* dst, const std::byte* src, std::size_t n) noexcept {
  unsigned char head[N], tail[N];
  std::memcpy(head, src, N);
  std::memcpy(tail, src + n - N, N);
  std::memcpy(dst, head, N);
  std::memcpy(dst + n - N, tail, N);
}
}  // namespace small_copy_detail

// Copies `n` <= kSmallCopyMax bytes; `dst` and `src` do not overlap.
[[gnu::always_inline]] inline void copy_small(void* dst_in, const void* src_in, std::size_t n) noexcept {
  using small_copy_detail::copy_ends;
  auto* dst = static_cast<std::byte*>(dst_in);
  const auto* src = static_cast<const std::byte*>(src_in);
  if (n < 4) {  // first, so an empty message costs one test
    if (n == 0) return;
    dst[0] = src[0];
    if (n > 1) copy_ends<2>(dst, src, n);
  } else if (n < 16) {
    if (n >= 8) copy_ends<8>(dst, src, n); else copy_ends<4>(dst, src, n);
  } else {
    if (n >= 32) copy_ends<32>(dst, src, n); else copy_ends<16>(dst, src, n);
  }
}

}  // namespace shmpi::btl
