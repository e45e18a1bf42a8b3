// Channel: everything one rank sends to one peer, in order: the pair's ring
// and, for small records, the pair's fast box (btl/fast_box.hpp).
//
// The writer puts a record in the box when it fits and the box is free,
// otherwise in the ring; the reader hands records on in the order they were
// committed, whichever way each one came.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "btl/fast_box.hpp"
#include "btl/ring.hpp"

namespace shmpi::btl {

class ChannelWriter {
 public:
  ChannelWriter() = default;
  ChannelWriter(const RingWriter& ring, const BoxWriter& box) noexcept : ring_(ring), box_(box) {}

  // Largest record body the channel accepts.
  std::size_t max_body() const noexcept { return ring_.max_body(); }

  // Reserves a record with a body of `body_bytes` and returns where to write
  // it, or nullptr while there is no room. Visible only after commit().
  std::byte* try_reserve(std::size_t body_bytes) noexcept {
    if (std::byte* out = box_.try_reserve(body_bytes)) {
      boxed_bytes_ = body_bytes;
      in_box_ = true;
      return out;
    }
    in_box_ = false;
    return ring_.try_reserve(body_bytes);
  }

  // Whether the record reserved last went to the box (else the ring).
  bool reserved_in_box() const noexcept { return in_box_; }

  // Makes the reserved record visible to the peer.
  void commit() noexcept {
    if (in_box_) {
      box_.commit(boxed_bytes_, ring_committed_);
    } else {
      ring_.commit();
      ++ring_committed_;
    }
  }

  // Copies a record made of `head` then `body` in and commits.
  bool try_push(std::span<const std::byte> head, std::span<const std::byte> body) noexcept {
    return push_record(*this, head, body);
  }

 private:
  RingWriter ring_;
  BoxWriter box_;
  std::uint32_t ring_committed_ = 0;  // ring records committed (wraps)
  std::size_t boxed_bytes_ = 0;       // body bytes of a record reserved in the box
  bool in_box_ = false;               // where the reserved record is
};

class ChannelReader {
 public:
  ChannelReader() = default;
  ChannelReader(const RingReader& ring, const BoxReader& box) noexcept : ring_(ring), box_(box) {}

  // True when a record is ready to be read.
  bool ready() const noexcept { return ring_.ready() || box_.ready(); }

  // Offers the box record to accept(std::span<const std::byte> body) if it
  // is the next record in commit order; delivered only if accept() returns
  // true (see BoxReader::deliver_if).
  template <class Accept>
  bool deliver_boxed_if(Accept&& accept) {
    return box_.deliver_if(accept, ring_consumed_);
  }

  // Offers the next ring record to accept() as deliver_boxed_if() does the
  // box record, unless a box record comes before it. The box is looked at
  // after the ring record's acquire load, as drain() does, so a box record
  // committed before it is visible by then.
  template <class Accept>
  bool deliver_ring_if(Accept&& accept) {
    auto in_order = [&](std::span<const std::byte> body) { return !box_.due(ring_consumed_) && accept(body); };
    if (!ring_.deliver_if(in_order)) return false;
    ++ring_consumed_;
    return true;
  }

  // Hands up to `max` ring records, and any box record in its place among
  // them, to on_record(std::span<const std::byte> body), in commit order.
  template <class OnRecord>
  std::size_t drain(OnRecord&& on_record, std::size_t max) {
    std::size_t boxed = 0;
    std::size_t n = ring_.drain(
        [&](std::span<const std::byte> body) {
          if (box_.deliver(on_record, ring_consumed_)) ++boxed;
          on_record(body);
          ++ring_consumed_;
        },
        max);
    if (box_.deliver(on_record, ring_consumed_)) ++boxed;
    if (n + boxed == 0) box_.acknowledge();  // idle: free the peer's half
    return n + boxed;
  }

 private:
  RingReader ring_;
  BoxReader box_;
  std::uint32_t ring_consumed_ = 0;  // ring records delivered (wraps)
};

}  // namespace shmpi::btl
