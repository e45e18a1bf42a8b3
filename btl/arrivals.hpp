// Arrivals: the peers that have ever sent to a rank, so that the rank polls
// only channels that can hold records, and no memory of a pair that never
// talks is touched (in a job of N ranks where each talks to a few, polling
// every ring would fault in a page of each of N^2 rings).
//
// Shared words, in the receiver's segment:
// - `count`: senders claim a slot with fetch_add, once per pair, before the
//   first wake-up check that follows their first record. The receiver loads
//   it (relaxed) on every poll: a line written once per pair stays in its
//   cache otherwise.
// - `slots[i]`: the sender that claimed slot i stores its rank + 1 (release)
//   right after claiming it; 0 means claimed but not stored yet. The receiver
//   reads new slots with acquire, which also makes the sender's first record
//   visible, and stops at a 0 until its next poll.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "btl/ring.hpp"

namespace shmpi::btl {

struct alignas(kCacheLine) ArrivalsHeader {
  std::atomic<std::uint32_t> count;
  std::uint8_t pad_[kCacheLine - sizeof(std::atomic<std::uint32_t>)];
};
static_assert(sizeof(ArrivalsHeader) == kCacheLine);
static_assert(std::atomic<std::uint32_t>::is_always_lock_free);

using ArrivalSlot = std::atomic<std::uint32_t>;

// Bytes of the slots of a job of `nranks`, in whole cache lines.
constexpr std::size_t arrival_slot_bytes(std::uint32_t nranks) noexcept {
  return (nranks * sizeof(ArrivalSlot) + kCacheLine - 1) / kCacheLine * kCacheLine;
}

// Sender side: tells the owner of `header` and `slots` that `rank` sends to
// it. Once per pair.
inline void announce_arrival(ArrivalsHeader& header, ArrivalSlot* slots, std::uint32_t rank) noexcept {
  const std::uint32_t slot = header.count.fetch_add(1, std::memory_order_relaxed);
  slots[slot].store(rank + 1, std::memory_order_release);
}

// Receiver side: the senders seen so far, in order of arrival.
class ArrivalList {
 public:
  ArrivalList() = default;
  // Room for every sender of a job of `nranks` is reserved now: refresh()
  // never allocates.
  ArrivalList(const ArrivalsHeader* header, const ArrivalSlot* slots, std::uint32_t nranks)
      : header_(header), slots_(slots) {
    senders_.reserve(nranks);
  }

  // True when a sender may have arrived since the last refresh().
  bool changed() const noexcept { return header_->count.load(std::memory_order_relaxed) != seen_; }

  // Adds the senders that arrived since the last call. Returns how many.
  std::uint32_t refresh() {
    const std::uint32_t count = header_->count.load(std::memory_order_relaxed);
    std::uint32_t added = 0;
    while (seen_ < count) {
      const std::uint32_t value = slots_[seen_].load(std::memory_order_acquire);
      if (value == 0) break;  // claimed, not stored yet: the next poll sees it
      senders_.push_back(value - 1);
      ++seen_;
      ++added;
    }
    return added;
  }

  const std::vector<std::uint32_t>& senders() const noexcept { return senders_; }

 private:
  const ArrivalsHeader* header_ = nullptr;
  const ArrivalSlot* slots_ = nullptr;
  std::uint32_t seen_ = 0;
  std::vector<std::uint32_t> senders_;
};

}  // namespace shmpi::btl
