// ReadBatch: single-copy reads of rendezvous messages from one peer,
// deferred to the end of a round of progress and then made in one system
// call (btl::SingleCopy::read_pieces). A window of small rendezvous
// messages (osu_bw 4 KiB) otherwise pays one call per message; batched,
// each cost half as much.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "btl/single_copy.hpp"
#include "pml/request.hpp"

namespace shmpi::pml {

class ReadBatch {
 public:
  // One deferred read: `bytes` from `address` in the peer into `request`'s buffer.
  struct Read {
    Request* request = nullptr;
    std::uint64_t address = 0;
    std::size_t bytes = 0;
  };

  bool empty() const noexcept { return count_ == 0; }

  // True if the batch must be made before a read from `peer` joins it: it
  // is full, or holds reads from another peer.
  bool full_for(std::uint32_t peer) const noexcept {
    return count_ == reads_.size() || (count_ != 0 && peer_ != peer);
  }

  // Adds a read from `peer` (after full_for(peer) said there is room).
  void add(std::uint32_t peer, const Read& read) noexcept {
    peer_ = peer;
    reads_[count_++] = read;
  }

  // The peer the reads are from.
  std::uint32_t peer() const noexcept { return peer_; }

  // Empties the batch and returns its reads, valid until the next add().
  std::span<const Read> take() noexcept {
    const std::uint32_t n = count_;
    count_ = 0;
    return std::span<const Read>(reads_.data(), n);
  }

 private:
  std::array<Read, btl::SingleCopy::kMaxPieces> reads_{};
  std::uint32_t count_ = 0;
  std::uint32_t peer_ = 0;
};

}  // namespace shmpi::pml
