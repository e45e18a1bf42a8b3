// FastBox: one cache line shared by a pair of ranks, carrying one small
// record at a time, in either direction.
//
// A ping-pong through two rings moves two lines per round trip (each side
// polls the line the other writes); the same ping-pong through one line
// shared by both directions runs at the one-line hand-off floor, which on
// these machines is 1.1-1.4x faster (measured: 225 vs 307 ns one-way with
// both words in one line, the same as one word passed back and forth).
//
// The line is a token that one rank holds at a time; only the holder writes
// it. Its state word says who wrote the line last and whether that record
// is still pending (not yet consumed):
// - written by W, consumed: W holds the line and may write its next record;
// - written by W, pending: W may not write; once the peer has delivered the
//   record it holds the line, and either writes its own record over it (a
//   reply: the line moves once per message) or, on a poll that finds
//   nothing, hands the line back to W by marking the record consumed.
// A record also carries `ring_before`, how many ring records its writer had
// committed to the peer before it, which orders box and ring records: the
// reader delivers a box record once it has consumed that many ring records
// from the peer, and checks the box before each ring record it delivers
// (after that record's acquire load, so a box record published before the
// ring record is visible by then). Records that do not fit, or find the
// line held by the peer, take the ring.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>

#include "btl/prefetch.hpp"
#include "btl/ring.hpp"

namespace shmpi::btl {

inline constexpr std::size_t kBoxBody = kCacheLine - 8;  // a 12-byte match prefix and up to 44 bytes

// The body starts 4 bytes into the line, as a ring record's does into its
// slot, so what the pml writes after its 12-byte prefix is 16-byte aligned.
struct alignas(kCacheLine) FastBox {
  std::uint32_t state;        // writer, pending, body length; accessed through std::atomic_ref
  std::byte body[kBoxBody];
  std::uint32_t ring_before;  // ring records the writer committed before this record
};
static_assert(sizeof(FastBox) == kCacheLine);
static_assert(offsetof(FastBox, body) % 16 == 4, "a body must start where a ring record's body does");

namespace box_detail {
inline constexpr std::uint32_t kLengthMask = 0xFFu;
inline constexpr unsigned kWriterShift = 8;      // 0: the pair's lower rank, 1: the higher
inline constexpr std::uint32_t kPending = 1u << 9;
inline std::uint32_t load(const std::uint32_t& word) noexcept {
  return std::atomic_ref<std::uint32_t>(const_cast<std::uint32_t&>(word)).load(std::memory_order_acquire);
}
inline void store(std::uint32_t& word, std::uint32_t value) noexcept {
  std::atomic_ref<std::uint32_t>(word).store(value, std::memory_order_release);
}
inline std::uint32_t writer_of(std::uint32_t state) noexcept { return state >> kWriterShift & 1u; }
}  // namespace box_detail

// One rank's end of a pair's box. The rank's BoxWriter and BoxReader for the
// pair share it: a record delivered to us leaves us holding the line, so
// our next record to the peer can be written over it.
struct BoxEnd {
  FastBox* line = nullptr;
  std::uint32_t me = 0;   // 0 if we are the pair's lower rank, else 1
  bool holding = false;   // we delivered the pending record and have not yet answered or released it
};

// The sending side of a box.
class BoxWriter {
 public:
  // Records that take the ring without a look at the line after it was found
  // busy (osu_bw 1-32 B, 4 interleaved runs: 0 -> 32 gave +7% at 1 B, +27%
  // at 4 B, +13% at 8 B, +12% at 32 B; 8 and 128 less; ping-pongs hold the
  // line and never look).
  static constexpr std::uint32_t kSkipWhenBusy = 32;

  BoxWriter() = default;
  explicit BoxWriter(BoxEnd* end) noexcept : end_(end) {}

  // Where to write a body of `bytes`, or nullptr when the box cannot take it
  // (too large, no box, or the line not ours to write).
  std::byte* try_reserve(std::size_t bytes) noexcept {
    if (bytes > kBoxBody || end_ == nullptr) return nullptr;
    // Holding the peer's delivered record, the line is ours (a reply): no
    // need to load the state word the peer wrote last.
    if (end_->holding) return end_->line->body;
    // Found busy lately: we are streaming records faster than the peer
    // takes them, and each look at the line would cost a miss (the peer's
    // hand-back wrote it), so the next few records take the ring unasked.
    if (skip_ != 0) {
      --skip_;
      return nullptr;
    }
    const std::uint32_t state = box_detail::load(end_->line->state);
    const bool ours = box_detail::writer_of(state) == end_->me && (state & box_detail::kPending) == 0;
    if (!ours) skip_ = kSkipWhenBusy;
    return ours ? end_->line->body : nullptr;
  }

  // Publishes the reserved body of `bytes`, ordered after `ring_before`
  // ring records.
  void commit(std::size_t bytes, std::uint32_t ring_before) noexcept {
    BoxEnd& end = *end_;
    end.line->ring_before = ring_before;
    end.holding = false;
    box_detail::store(end.line->state, end.me << box_detail::kWriterShift | box_detail::kPending |
                                           static_cast<std::uint32_t>(bytes));
  }

 private:
  BoxEnd* end_ = nullptr;
  std::uint32_t skip_ = 0;  // records that take the ring without looking at the line
};

// The receiving side of a box. A delivered record leaves us holding the
// line until we write to the peer or a poll finds nothing (acknowledge()).
class BoxReader {
 public:
  BoxReader() = default;
  explicit BoxReader(BoxEnd* end) noexcept : end_(end) {}

  // True when the peer has published a record not yet delivered.
  bool ready() const noexcept { return end_ != nullptr && waiting(box_detail::load(end_->line->state)); }

  // Offers the waiting record, if any and if `ring_consumed` ring records
  // from the peer have been delivered before it, to
  // accept(std::span<const std::byte> body); it counts as delivered only if
  // accept() returns true. True if delivered.
  template <class Accept>
  bool deliver_if(Accept& accept, std::uint32_t ring_consumed) {
    if (end_ == nullptr) return false;
    const std::uint32_t state = box_detail::load(end_->line->state);
    if (!waiting(state) || end_->line->ring_before != ring_consumed) return false;
    // Once accept() takes the record we hold the line, and our next record
    // to the peer (the reply, or the hand-back in acknowledge()) is written
    // over it: ask for it now, so the request overlaps accept(). A record
    // accept() leaves costs one request that was not needed.
    prefetch_for_write(end_->line);
    if (!accept(std::span<const std::byte>(end_->line->body, state & box_detail::kLengthMask))) return false;
    // Only now: a record accept() sends to the peer must not overwrite the
    // body it is reading, so until it returns such records take the ring.
    end_->holding = true;
    return true;
  }

  // Whether a record waits whose turn comes once `ring_consumed` ring
  // records from the peer have been delivered.
  bool due(std::uint32_t ring_consumed) const noexcept {
    return end_ != nullptr && waiting(box_detail::load(end_->line->state)) && end_->line->ring_before == ring_consumed;
  }

  // Delivers the waiting record, if any and if `ring_consumed` ring records
  // from the peer have been delivered before it. True if delivered.
  template <class OnRecord>
  bool deliver(OnRecord& on_record, std::uint32_t ring_consumed) {
    auto always = [&on_record](std::span<const std::byte> body) {
      on_record(body);
      return true;
    };
    return deliver_if(always, ring_consumed);
  }

  // Hands the line back to the peer that wrote the record we delivered, if
  // we still hold it: called when a poll finds nothing, so the peer's next
  // small record can use the box. Release: our reads of the body come before
  // the peer writes the line again.
  void acknowledge() noexcept {
    if (end_ == nullptr || !end_->holding) return;
    box_detail::store(end_->line->state, (1u - end_->me) << box_detail::kWriterShift);
    end_->holding = false;
  }

 private:
  bool waiting(std::uint32_t state) const noexcept {
    return (state & box_detail::kPending) != 0 && box_detail::writer_of(state) != end_->me && !end_->holding;
  }

  BoxEnd* end_ = nullptr;
};

}  // namespace shmpi::btl
