// FastBox: one cache line shared by a pair of ranks, carrying one small
// record each way.
//
// A ping-pong through two rings moves two lines per round trip (each side
// polls the line the other writes); the same ping-pong through one line
// shared by both directions runs at the one-line hand-off floor, which on
// these machines is 1.1-1.4x faster (measured: 225 vs 307 ns one-way with
// both words in one line, the same as one word passed back and forth).
//
// The line has two 32-byte halves; each is written only by its owner (the
// pair's lower rank owns half 0):
// - word: the owner's message stamp (24-bit sequence, never 0 once used)
//   and body length, published last with a release store;
// - acked: the sequence of the last message the owner consumed from the
//   other half, so the other side knows its half may be reused;
// - ring_before: how many ring records the owner had committed to the
//   other side before this message, which orders box and ring records.
// A record goes in the box only if it fits and the peer has consumed the
// previous box message; everything else takes the ring. The reader
// delivers a box message once it has consumed `ring_before` ring records
// from that peer, and checks the box before each ring record it delivers
// (after that record's acquire load, so a box message published before
// the record is visible by then).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>

#include "btl/ring.hpp"

namespace shmpi::btl {

inline constexpr std::size_t kBoxBody = 20;  // a 12-byte match prefix and 8 bytes

struct alignas(kSlot) BoxHalf {
  std::uint32_t word;         // sequence << 8 | body length; accessed through std::atomic_ref
  std::uint32_t acked;        // last sequence consumed from the other half; std::atomic_ref
  std::uint32_t ring_before;  // ring records the owner committed before this message
  std::byte body[kBoxBody];
};
static_assert(sizeof(BoxHalf) == kSlot);

struct alignas(kCacheLine) FastBox {
  BoxHalf half[2];  // half[0] owned by the pair's lower rank
};
static_assert(sizeof(FastBox) == kCacheLine);

namespace box_detail {
inline constexpr unsigned kSequenceShift = 8;
inline constexpr std::uint32_t kLengthMask = 0xFFu;
inline std::uint32_t load(const std::uint32_t& word) noexcept {
  return std::atomic_ref<std::uint32_t>(const_cast<std::uint32_t&>(word)).load(std::memory_order_acquire);
}
inline void store(std::uint32_t& word, std::uint32_t value) noexcept {
  std::atomic_ref<std::uint32_t>(word).store(value, std::memory_order_release);
}
}  // namespace box_detail

// The sending side of a box: writes its own half, reads the peer's acked.
class BoxWriter {
 public:
  BoxWriter() = default;
  BoxWriter(BoxHalf* mine, const BoxHalf* theirs) noexcept : mine_(mine), theirs_(theirs) {}

  // Where to write a body of `bytes`, or nullptr when the box cannot take it
  // (too large, no box, or the previous message not yet consumed).
  std::byte* try_reserve(std::size_t bytes) const noexcept {
    if (bytes > kBoxBody || mine_ == nullptr) return nullptr;
    if (box_detail::load(theirs_->acked) != sequence_) return nullptr;
    return mine_->body;
  }

  // Publishes the reserved body of `bytes`, ordered after `ring_before`
  // ring records.
  void commit(std::size_t bytes, std::uint32_t ring_before) noexcept {
    sequence_ = (sequence_ + 1) & 0xFFFFFFu;
    if (sequence_ == 0) sequence_ = 1;
    mine_->ring_before = ring_before;
    box_detail::store(mine_->word, sequence_ << box_detail::kSequenceShift | static_cast<std::uint32_t>(bytes));
  }

 private:
  BoxHalf* mine_ = nullptr;
  const BoxHalf* theirs_ = nullptr;
  std::uint32_t sequence_ = 0;  // of our last message; 0 before the first
};

// The receiving side of a box: reads the peer's half, acknowledges in its own.
class BoxReader {
 public:
  BoxReader() = default;
  BoxReader(const BoxHalf* theirs, BoxHalf* mine) noexcept : theirs_(theirs), mine_(mine) {}

  // True when the peer has published a message not yet delivered.
  bool ready() const noexcept {
    return theirs_ != nullptr && box_detail::load(theirs_->word) >> box_detail::kSequenceShift != seen_;
  }

  // Delivers the waiting message, if any and if `ring_consumed` ring records
  // from the peer have been delivered before it. True if delivered.
  template <class OnRecord>
  bool deliver(OnRecord& on_record, std::uint32_t ring_consumed) {
    if (theirs_ == nullptr) return false;
    const std::uint32_t word = box_detail::load(theirs_->word);
    const std::uint32_t sequence = word >> box_detail::kSequenceShift;
    if (sequence == seen_ || theirs_->ring_before != ring_consumed) return false;
    on_record(std::span<const std::byte>(theirs_->body, word & box_detail::kLengthMask));
    seen_ = sequence;
    box_detail::store(mine_->acked, sequence);  // release: our reads of the body come first
    return true;
  }

 private:
  const BoxHalf* theirs_ = nullptr;
  BoxHalf* mine_ = nullptr;
  std::uint32_t seen_ = 0;  // sequence of the last message delivered
};

}  // namespace shmpi::btl
