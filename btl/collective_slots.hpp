// Collective slots: where a rank publishes data that several peers read, for
// the small blocking collectives that go through shared memory
// (runtime/shm_collectives.hpp). Each rank owns kCollectiveSlots slots at
// the end of its segment and writes only there; its peers map the segment
// and read. A broadcast's root writes its buffer once and every other rank
// copies it out, instead of the payload being forwarded along a tree.
//
// A publication is named by a stamp that no other publication of its owner
// carries: the runtime's (collective context id, call number on it). Ids
// are never reused by a process, so a reader that finds its stamp in a slot
// knows the data is the one it wants, and a stale slot can never match.
//
// Shared words of a slot:
// - `stamp`: the owner stores it (release) after `readers`, `bytes`, the
//   data and the reset of `reads`; a reader loads it (acquire) and, on its
//   stamp, may read the rest.
// - `reads`: each reader adds 1 (acq_rel) once it no longer needs the
//   slot. The owner reuses the slot only once reads == readers (loaded with
//   acquire, pairing with the readers' adds, so their copies are done).
// A slot never published has stamp 0, readers 0, reads 0: free.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "btl/ring.hpp"

namespace shmpi::btl {

// Slots per rank: how many publications may await readers at once (a
// broadcast root returns at once, so it may run this many calls ahead of
// its slowest reader before it waits).
inline constexpr std::uint32_t kCollectiveSlots = 4;
// Bytes of data a slot holds.
inline constexpr std::size_t kCollectiveSlotBytes = 8192;

struct alignas(kCacheLine) CollectiveSlotHeader {
  std::atomic<std::uint64_t> stamp;  // owner stores last (release); readers load (acquire)
  std::uint32_t readers;             // written before stamp
  std::uint32_t bytes;               // written before stamp
  std::uint8_t pad_[kCacheLine - 16];
};
static_assert(sizeof(CollectiveSlotHeader) == kCacheLine);

// On a line of its own: readers add to it while slower readers still poll
// the stamp.
struct alignas(kCacheLine) CollectiveSlotReads {
  std::atomic<std::uint32_t> reads;
  std::uint8_t pad_[kCacheLine - 4];
};
static_assert(sizeof(CollectiveSlotReads) == kCacheLine);
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);

struct CollectiveSlot {
  CollectiveSlotHeader header;
  CollectiveSlotReads done;
  alignas(kCacheLine) std::byte data[kCollectiveSlotBytes];

  // Owner: every reader of the last publication is done with it.
  bool free() const noexcept { return done.reads.load(std::memory_order_acquire) == header.readers; }
  // Owner, on a free slot whose data it has written: makes it visible to
  // `readers` peers looking for `stamp`.
  void publish(std::uint64_t stamp, std::uint32_t readers, std::uint32_t bytes) noexcept {
    header.readers = readers;
    header.bytes = bytes;
    done.reads.store(0, std::memory_order_relaxed);  // ordered before the stamp by its release
    header.stamp.store(stamp, std::memory_order_release);
  }
  // Reader: the slot holds the publication `stamp`.
  bool holds(std::uint64_t stamp) const noexcept { return header.stamp.load(std::memory_order_acquire) == stamp; }
  // Reader, once done with the data: true if it was the last reader (the
  // owner may be waiting to reuse the slot).
  bool release() noexcept { return done.reads.fetch_add(1, std::memory_order_acq_rel) + 1 == header.readers; }
};
static_assert(sizeof(CollectiveSlot) % kCacheLine == 0);

inline constexpr std::size_t kCollectiveAreaBytes = kCollectiveSlots * sizeof(CollectiveSlot);

// The slot of `slots` (a rank's kCollectiveSlots) that holds `stamp`, or
// nullptr. `hint` is where to look first, and is moved to where it was
// found: a peer's next publication is usually in its next slot.
inline CollectiveSlot* find_slot(CollectiveSlot* slots, std::uint64_t stamp, std::uint8_t& hint) noexcept {
  for (std::uint32_t i = 0; i < kCollectiveSlots; ++i) {
    const std::uint32_t at = (hint + i) % kCollectiveSlots;
    if (slots[at].holds(stamp)) {
      hint = static_cast<std::uint8_t>((at + 1) % kCollectiveSlots);
      return &slots[at];
    }
  }
  return nullptr;
}

}  // namespace shmpi::btl
