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
//   other half, so the other side knows its half may be reused; written
//   with the owner's next message or, failing that, on its next idle poll;
// - ring_before: how many ring records the owner had committed to the
//   other side before this message, which orders box and ring records.
// A record goes in the box only if it fits and the peer has acknowledged
// the previous box message; everything else takes the ring. The reader
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

inline constexpr std::size_t kBoxHalf = kCacheLine / 2;
inline constexpr std::size_t kBoxBody = 20;  // a 12-byte match prefix and 8 bytes

struct alignas(kBoxHalf) BoxHalf {
  std::uint32_t word;         // sequence << 8 | body length; accessed through std::atomic_ref
  std::uint32_t acked;        // last sequence consumed from the other half; std::atomic_ref
  std::uint32_t ring_before;  // ring records the owner committed before this message
  std::byte body[kBoxBody];
};
static_assert(sizeof(BoxHalf) == kBoxHalf);

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

// One rank's end of a pair's box: the half it writes, the half it reads,
// and what it has sent, delivered and acknowledged. The rank's BoxWriter and
// BoxReader for the pair share it, so a message we send carries the
// acknowledgement of the last one we received: in a ping-pong the line then
// moves once per message instead of twice (once for the ack, once for the
// reply).
struct BoxEnd {
  BoxHalf* mine = nullptr;
  const BoxHalf* theirs = nullptr;
  std::uint32_t sent = 0;   // sequence of our last message; 0 before the first
  std::uint32_t seen = 0;   // sequence of the last message delivered to us
  std::uint32_t acked = 0;  // `seen` as last stored in mine->acked
};

// Publishes `end.seen` as our acknowledgement if it is not already.
// Release: our reads of the acknowledged body come before the peer reuses it.
inline void publish_ack(BoxEnd& end) noexcept {
  if (end.acked == end.seen) return;
  box_detail::store(end.mine->acked, end.seen);
  end.acked = end.seen;
}

// The sending side of a box: writes its own half, reads the peer's acked.
class BoxWriter {
 public:
  BoxWriter() = default;
  explicit BoxWriter(BoxEnd* end) noexcept : end_(end) {}

  // Where to write a body of `bytes`, or nullptr when the box cannot take it
  // (too large, no box, or the previous message not yet acknowledged).
  std::byte* try_reserve(std::size_t bytes) const noexcept {
    if (bytes > kBoxBody || end_ == nullptr) return nullptr;
    if (box_detail::load(end_->theirs->acked) != end_->sent) return nullptr;
    return end_->mine->body;
  }

  // Publishes the reserved body of `bytes`, ordered after `ring_before`
  // ring records, with our acknowledgement of their last message.
  void commit(std::size_t bytes, std::uint32_t ring_before) noexcept {
    BoxEnd& end = *end_;
    end.sent = (end.sent + 1) & 0xFFFFFFu;
    if (end.sent == 0) end.sent = 1;
    end.mine->ring_before = ring_before;
    publish_ack(end);
    box_detail::store(end.mine->word, end.sent << box_detail::kSequenceShift | static_cast<std::uint32_t>(bytes));
  }

 private:
  BoxEnd* end_ = nullptr;
};

// The receiving side of a box: reads the peer's half. It acknowledges
// lazily: with our next box message to the peer, or on an idle poll.
class BoxReader {
 public:
  BoxReader() = default;
  explicit BoxReader(BoxEnd* end) noexcept : end_(end) {}

  // True when the peer has published a message not yet delivered.
  bool ready() const noexcept {
    return end_ != nullptr && box_detail::load(end_->theirs->word) >> box_detail::kSequenceShift != end_->seen;
  }

  // Delivers the waiting message, if any and if `ring_consumed` ring records
  // from the peer have been delivered before it. True if delivered.
  template <class OnRecord>
  bool deliver(OnRecord& on_record, std::uint32_t ring_consumed) {
    if (end_ == nullptr) return false;
    const BoxHalf& theirs = *end_->theirs;
    const std::uint32_t word = box_detail::load(theirs.word);
    const std::uint32_t sequence = word >> box_detail::kSequenceShift;
    if (sequence == end_->seen || theirs.ring_before != ring_consumed) return false;
    on_record(std::span<const std::byte>(theirs.body, word & box_detail::kLengthMask));
    end_->seen = sequence;
    return true;
  }

  // Acknowledges what was delivered, if our messages have not yet: called
  // when a poll finds nothing, so the peer's next small record can use the box.
  void acknowledge() noexcept {
    if (end_ != nullptr) publish_ack(*end_);
  }

 private:
  BoxEnd* end_ = nullptr;
};

}  // namespace shmpi::btl
