// ReorderBuffer: puts one peer's messages back into its send order. UCX does
// not promise order for active messages, so each sender numbers its
// messages to a peer from 0 (WireHeader::seq); the receiver delivers the
// one whose turn it is at once and keeps an early one (a copy, or a
// rendezvous descriptor) here until those before it have come.
//
//   if (buffer.in_turn(seq)) { buffer.take(); deliver(it); buffer.release(deliver); }
//   else buffer.hold(seq, copy_of(it));
//
// Early arrivals are rare (none seen over tcp), so the held ones sit in a
// plain vector searched linearly. Sequence numbers wrap after 2^32
// messages per pair; only equality is compared, so wrapping is harmless.
// Single-threaded, like the network that owns it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace shmpi::net {

template <class Item>
class ReorderBuffer {
 public:
  // True if `seq` is the next message due from this peer.
  bool in_turn(std::uint32_t seq) const noexcept { return seq == next_; }
  // The message in turn is being delivered: the next one becomes due.
  void take() noexcept { ++next_; }
  // Keeps an early message until its turn.
  void hold(std::uint32_t seq, Item item) { held_.push_back(Entry{seq, std::move(item)}); }

  // Delivers, in order, every held message whose turn has come. Each is
  // out of the buffer before deliver(item) runs, so deliver may add more.
  template <class Deliver>
  void release(Deliver&& deliver) {
    for (std::size_t i = 0; i < held_.size();) {
      if (held_[i].seq != next_) {
        ++i;
        continue;
      }
      Item item = std::move(held_[i].item);
      held_.erase(held_.begin() + static_cast<std::ptrdiff_t>(i));
      ++next_;
      deliver(item);
      i = 0;  // the one after it may be anywhere
    }
  }

  // Visits what is still held (to free it when the network closes).
  template <class Visit>
  void for_each_held(Visit&& visit) {
    for (Entry& entry : held_) visit(entry.item);
  }
  std::size_t held() const noexcept { return held_.size(); }

 private:
  struct Entry {
    std::uint32_t seq;
    Item item;
  };
  std::uint32_t next_ = 0;  // sequence number of the next message due
  std::vector<Entry> held_;
};

}  // namespace shmpi::net
