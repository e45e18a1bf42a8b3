// SegmentLayout: where things live in a rank's receive segment.
//
//   [ SegmentHeader                 ]  one cache line
//   [ RingControl for sender 0..N-1 ]  one cache line each
//   [ ring cells for sender 0..N-1  ]  ring_size bytes each
//
// Offsets, never pointers, describe the layout, so every process that maps
// the segment resolves them against its own base address.
#pragma once

#include <cstddef>
#include <cstdint>

#include "btl/ring.hpp"

namespace shmpi::btl {

// Written once by the owner before the segment is published; read by peers
// after the wire-up fence, which orders the two.
struct alignas(kCacheLine) SegmentHeader {
  std::uint64_t magic;
  std::uint32_t nranks;
  std::uint32_t owner_rank;
  std::uint64_t ring_size;
  std::uint8_t pad_[kCacheLine - 24];
};
static_assert(sizeof(SegmentHeader) == kCacheLine);

inline constexpr std::uint64_t kSegmentMagic = 0x73686d7069736567ull;  // "shmpiseg"

struct SegmentLayout {
  std::uint32_t nranks;
  std::size_t ring_size;  // power of two

  std::size_t control_offset(std::uint32_t sender) const noexcept {
    return sizeof(SegmentHeader) + sender * sizeof(RingControl);
  }
  std::size_t cells_offset(std::uint32_t sender) const noexcept {
    return sizeof(SegmentHeader) + nranks * sizeof(RingControl) + sender * ring_size;
  }
  std::size_t total_bytes() const noexcept { return cells_offset(nranks); }
};

}  // namespace shmpi::btl
