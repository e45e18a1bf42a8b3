// SegmentBudget: how big each per-pair ring is in a job of N ranks, so that
// a rank's receive segment stays within the `segment_budget` tunable.
//
// A rank's segment holds one ring per sender (segment_layout.hpp), so with a
// fixed ring size it grows with N and the job's with N squared: an
// all-to-all of 384 ranks would touch 9 GiB. The rule: a job keeps the
// `ring_size` tunable while its segment fits the budget (every small job,
// 2 ranks included, keeps exactly that size), else the ring halves until the
// segment fits or the ring is one page. The smallest footprint is then about
// N x (4 KiB + 576 B): 4.5 MiB per rank at 1024 ranks.
//
// Every rank, the launcher (to refuse a job that cannot fit) and shmpi_info
// compute the ring from the same three numbers, so they agree.
#pragma once

#include <cstddef>
#include <cstdint>

#include "btl/segment_layout.hpp"

namespace shmpi::btl {

// No ring shrinks below a page: rings start on page boundaries, so a smaller
// one would save nothing that is ever touched.
inline constexpr std::size_t kSmallestBudgetRing = kPageBytes;

// The ring size per pair in a job of `nranks` whose rings are `ring_size`
// bytes at most and whose segments should fit `budget` bytes.
constexpr std::size_t budget_ring_size(std::uint32_t nranks, std::size_t ring_size, std::uint64_t budget) noexcept {
  std::size_t ring = ring_size;
  while (ring > kSmallestBudgetRing && SegmentLayout{nranks, ring}.total_bytes() > budget) ring /= 2;
  return ring;
}

// The bytes of one rank's segment in such a job.
constexpr std::uint64_t budget_segment_bytes(std::uint32_t nranks, std::size_t ring_size, std::uint64_t budget) noexcept {
  return SegmentLayout{nranks, budget_ring_size(nranks, ring_size, budget)}.total_bytes();
}

// The largest eager message a ring of `ring` bytes carries: a record fits a
// quarter of the ring (RingWriter::max_body), with 64 bytes for its headers.
// A ring shrunk by the budget lowers the eager limit with it.
constexpr std::size_t eager_limit_for_ring(std::size_t ring) noexcept { return ring / 4 - 64; }

}  // namespace shmpi::btl
