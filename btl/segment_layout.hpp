// SegmentLayout: where things live in a rank's receive segment.
//
//   [ SegmentHeader                 ]  one cache line
//   [ Doorbell                      ]  one cache line
//   [ ArrivalsHeader                ]  one cache line (btl/arrivals.hpp)
//   [ arrival slots                 ]  4 bytes per rank, in whole lines
//   [ RingControl for sender 0..N-1 ]  one cache line each
//   [ ring cells for sender 0..N-1  ]  ring_size bytes each, from a page boundary
//   [ FastBox lines for peer 0..N-1 ]  kBoxLines cache lines each; the box
//                                       of a pair lives in its lower rank's
//                                       segment, on the line of those that
//                                       the pair's probe chose (box_probe.hpp)
//   [ collective slots              ]  kCollectiveSlots, from a page boundary
//                                       (btl/collective_slots.hpp)
//
// Offsets, never pointers, describe the layout, so every process that maps
// the segment resolves them against its own base address.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "btl/arrivals.hpp"
#include "btl/box_probe.hpp"
#include "btl/collective_slots.hpp"
#include "btl/fast_box.hpp"
#include "btl/ring.hpp"

namespace shmpi::btl {

// Written once by the owner before the segment is published; read by peers
// after the wire-up fence, which orders the two. Then only `backlog`
// changes, and rarely, so the line stays in every sender's cache.
// `shares_threads` is 1 when the owner runs MPI_THREAD_MULTIPLE (its
// threads may make collective calls at once: runtime/shm_collectives.hpp).
//
// backlog: the owner stores 1 (relaxed) while it holds more payload bytes of
// messages it has not matched than it wants to (pml: unexpected_budget), 0
// once they drained; a sender loads it (relaxed) before it decides how to
// send, and while it reads 1 keeps its payloads at home (pml: the message
// goes as an offer only). Nothing is ordered by it: a sender that reads a
// stale value sends one more message the old way, which costs memory, never
// correctness. A store followed by a record the owner publishes (release)
// is seen by a sender that acquired that record.
struct alignas(kCacheLine) SegmentHeader {
  std::uint64_t magic;
  std::uint32_t nranks;
  std::uint32_t owner_rank;
  std::uint64_t ring_size;
  std::atomic<std::uint32_t> backlog;  // owner writes, rarely; senders read on each send
  std::uint32_t shares_threads;
  std::uint8_t pad_[kCacheLine - 28 - sizeof(std::atomic<std::uint32_t>)];
};
static_assert(sizeof(SegmentHeader) == kCacheLine);
static_assert(std::atomic<std::uint32_t>::is_always_lock_free);

// How a rank that waits a long time sleeps, and how its peers wake it.
//
// The owner stores sleeping = kSleepsOnFutex (seq_cst), checks its rings
// once more, then futex-waits on `wakeups` with a short timeout. A sender
// that has just published a record loads `sleeping` (relaxed: the line is
// almost never written, so the load hits the sender's cache) and, if set,
// increments `wakeups` and calls FUTEX_WAKE. The sender issues no fence
// between its record and that load, so a wake-up can be missed when both
// race; the timeout bounds the cost of that rare miss, and keeps the hot
// path free of a full fence.
//
// A rank that also has peers on other nodes must sleep on the network's fd
// too, which a futex cannot: it sleeps in ppoll() on that fd and an eventfd
// of its own, numbered `fd` in its process, and says so with sleeping =
// kSleepsOnFd. A sender that finds that value (re-read with acquire, which
// pairs with the owner's store and so orders `fd`, written before the
// first such store) writes the eventfd instead of the futex: the check on
// the send path stays the one relaxed load of a job without remote peers.
inline constexpr std::uint32_t kAwake = 0;
inline constexpr std::uint32_t kSleepsOnFutex = 1;
inline constexpr std::uint32_t kSleepsOnFd = 2;

struct alignas(kCacheLine) Doorbell {
  std::atomic<std::uint32_t> sleeping;  // owner writes; senders read
  std::atomic<std::uint32_t> wakeups;   // futex word: senders increment, owner waits on it
  std::int32_t fd;                      // owner's eventfd (its descriptor number), if it sleeps on fds
  std::uint8_t pad_[kCacheLine - 2 * sizeof(std::atomic<std::uint32_t>) - sizeof(std::int32_t)];
};
static_assert(sizeof(Doorbell) == kCacheLine);

inline constexpr std::size_t kPageBytes = 4096;  // the smallest page of the platforms we run on

inline constexpr std::uint64_t kSegmentMagic = 0x73686d7069736567ull;  // "shmpiseg"

struct SegmentLayout {
  std::uint32_t nranks;
  std::size_t ring_size;  // power of two

  static constexpr std::size_t doorbell_offset() noexcept { return sizeof(SegmentHeader); }
  static constexpr std::size_t arrivals_offset() noexcept { return doorbell_offset() + sizeof(Doorbell); }
  static constexpr std::size_t arrival_slots_offset() noexcept { return arrivals_offset() + sizeof(ArrivalsHeader); }
  constexpr std::size_t control_offset(std::uint32_t sender) const noexcept {
    return arrival_slots_offset() + arrival_slot_bytes(nranks) + sender * sizeof(RingControl);
  }
  // Rings start on a page boundary, so a ring's pages are its own: the
  // pages of a ring whose sender never sends are never touched.
  constexpr std::size_t cells_offset(std::uint32_t sender) const noexcept {
    return (control_offset(nranks) + kPageBytes - 1) / kPageBytes * kPageBytes + sender * ring_size;
  }
  // The first of the kBoxLines candidate lines for the box with `peer`.
  constexpr std::size_t box_offset(std::uint32_t peer) const noexcept {
    return cells_offset(nranks) + peer * kBoxLines * sizeof(FastBox);
  }
  // Touched only by ranks that run small collectives.
  constexpr std::size_t collective_offset() const noexcept {
    return (box_offset(nranks) + kPageBytes - 1) / kPageBytes * kPageBytes;
  }
  constexpr std::size_t total_bytes() const noexcept { return collective_offset() + kCollectiveAreaBytes; }
};

}  // namespace shmpi::btl
