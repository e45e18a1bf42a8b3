// Transport: this rank's shared-memory endpoints to every rank of the job.
//
// It owns the rank's receive segment and the mappings of its peers'
// segments. The ring from rank s to rank r lives in r's segment, so every
// ring a rank polls is in its own (NUMA-local) memory. The transport knows
// nothing of tags, communicators or requests: it moves opaque records.
//
// Wire-up is two-phase and the caller (the runtime) carries the addresses:
//   Transport t(rank, size, limits);   publish t.address() ...
//   ... after a fence: t.connect(peer, address_of_peer) for every peer.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "btl/arrivals.hpp"
#include "btl/channel.hpp"
#include "btl/collective_slots.hpp"
#include "btl/numa_placement.hpp"
#include "btl/ring.hpp"
#include "btl/segment.hpp"
#include "btl/segment_layout.hpp"
#include "btl/unique_fd.hpp"

namespace shmpi::btl {

struct Limits {
  std::size_t ring_size = 64 * 1024;  // bytes per ring, power of two
  NumaPolicy numa = NumaPolicy::Local;  // placement of our receive segment
  bool fast_box = true;  // small records may travel in the pair's fast box
  // Time the candidate lines of each pair's box at wire-up and keep the
  // fastest (box_probe.hpp). Only when every rank of the job runs at once.
  bool probe_box_lines = false;
  // The records that make our ring writers claim the lines of the next
  // record early (RingWriter).
  ClaimAhead claim_ahead = {};
  // This rank's threads may call at once (MPI_THREAD_MULTIPLE): written into
  // our segment header for the peers (shares_threads()).
  bool shares_threads = false;
};

// What a peer needs to map this rank's segment.
struct PeerAddress {
  std::int64_t pid;
  std::int32_t fd;
  std::uint64_t bytes;
  std::uint64_t base;  // where the owner mapped it (for single-copy probes)
  bool probes_box_lines = false;  // a pair probes its box lines only if both ranks do
};

class Transport {
 public:
  Transport(std::uint32_t rank, std::uint32_t nranks, const Limits& limits);

  std::uint32_t rank() const noexcept { return rank_; }
  std::uint32_t size() const noexcept { return nranks_; }
  PeerAddress address() const noexcept;

  // Maps `peer`'s segment and checks its header. Throws on failure.
  void connect(std::uint32_t peer, const PeerAddress& address);

  // Leaves `peer`, a rank on another node, without a channel: a write to it
  // never finds room (so a caller's fast path declines it without a check
  // of its own) and nothing is ever read from it. Instead of connect().
  void close(std::uint32_t peer) noexcept {
    writers_[peer] = ChannelWriter(RingWriter(&closed_, nullptr, 0, {}, false), BoxWriter());
  }

  // Moves each pair's box to the fastest of its candidate lines, for the
  // pairs whose ranks both probe (Limits::probe_box_lines): every rank of
  // the job calls it once, after connect() with every peer, and meets its
  // peers in turn. Returns the number of pairs probed.
  std::uint32_t choose_box_lines();

  // The box line of the pair with `peer` (nullptr without a box).
  const FastBox* box_line(std::uint32_t peer) const noexcept { return box_ends_[peer].line; }
  // Which of the pair's kBoxLines candidate lines its box is on (0 unless
  // choose_box_lines() moved it), or kBoxLines without a box.
  std::uint32_t box_line_index(std::uint32_t peer) const noexcept;

  // The process id of `peer` (for single-copy transfers).
  pid_t peer_pid(std::uint32_t peer) const noexcept { return pids_[peer]; }

  // Address, in `peer`'s address space, of its segment's first word (the
  // SegmentHeader magic): a known value to probe single copy with.
  std::uint64_t peer_segment_base(std::uint32_t peer) const noexcept { return bases_[peer]; }

  // The channel (ring and fast box) this rank writes to `peer`.
  ChannelWriter& writer(std::uint32_t peer) noexcept { return writers_[peer]; }

  // The channel this rank reads from `peer`.
  ChannelReader& reader(std::uint32_t peer) noexcept { return readers_[peer]; }

  // True when a record from any peer is ready to be read (or a peer has
  // just sent to us for the first time).
  bool any_ready() const noexcept;

  // Drains every inbound channel that has ever carried a record once:
  // on_record(std::uint32_t source, std::span<const std::byte> body).
  // Returns the number of records.
  template <class OnRecord>
  std::size_t poll(OnRecord&& on_record) noexcept {
    if (arrivals_.changed()) [[unlikely]] arrivals_.refresh();
    std::size_t n = 0;
    for (const std::uint32_t peer : arrivals_.senders()) {
      n += readers_[peer].drain(
          [&](std::span<const std::byte> body) { on_record(peer, body); }, kDrainBatch);
    }
    return n;
  }

  // Peers that have sent to us so far, in order of their first record.
  std::span<const std::uint32_t> senders() const noexcept { return arrivals_.senders(); }

  // Commits the record reserved in writer(peer) and wakes `peer` should it
  // sleep: the one way to publish a record.
  void publish(std::uint32_t peer) noexcept {
    writers_[peer].commit();
    notify(peer);
  }

  // The backlog flag (SegmentHeader::backlog): this rank asks its senders
  // to keep payloads at home (true) or lets them send them again (false).
  // Only a change is stored, so the line is written rarely.
  void set_backlog(bool on) noexcept {
    own_backlog_->store(on ? 1u : 0u, std::memory_order_relaxed);
  }
  // Whether `peer` asks us to keep payloads at home: one relaxed load of a
  // line that stays in our cache until the peer changes it. Never for
  // ourselves (our own flag is about others' payloads) nor a closed peer.
  bool backlogged(std::uint32_t peer) const noexcept {
    return doors_[peer].backlog->load(std::memory_order_relaxed) != 0;
  }

  // Wakes `peer` if it sleeps in wait_for_records(). Call after publishing
  // records to it; costs one load of a line that stays in our cache (after
  // the first call, which tells the peer we send to it: btl/arrivals.hpp).
  void notify(std::uint32_t peer) noexcept {
    PeerDoor& door = doors_[peer];
    if (!door.announced) [[unlikely]] announce(peer);
    if (door.bell->sleeping.load(std::memory_order_relaxed) != kAwake) wake(peer);
  }

  // Sleeps until a peer notifies us or `timeout_ns` passes, unless a record
  // is already waiting. For long waits only: see Doorbell.
  void wait_for_records(long timeout_ns) noexcept {
    if (const std::optional<std::uint32_t> seen = ready_to_sleep()) sleep(*seen, timeout_ns);
  }
  // The same in two steps, for a rank's threads: the first reads what the
  // thread holding the rank's lock may change (and tells peers we are about
  // to sleep); nullopt if a record is already waiting. The second needs no lock.
  std::optional<std::uint32_t> ready_to_sleep() noexcept;
  void sleep(std::uint32_t seen, long timeout_ns) noexcept;
  // Instead of sleep() after ready_to_sleep(): the rank stays awake.
  void stay_awake() noexcept { doors_[rank_].bell->sleeping.store(kAwake, std::memory_order_relaxed); }

  // From now on this rank sleeps on file descriptors, not on the futex: its
  // peers wake it by writing the eventfd returned (and sleep() must not be
  // called). For a rank that must also wake for another fd (the network's):
  // it ppoll()s both after ready_to_sleep(), then calls woke_from_fd().
  // Called once, before any traffic. Throws std::system_error.
  int sleep_on_fd();
  // After a sleep in ppoll() (sleep_on_fd()), however it ended.
  void woke_from_fd() noexcept;

  // Drains only the channel from `peer`.
  template <class OnRecord>
  std::size_t poll_one(std::uint32_t peer, OnRecord&& on_record) noexcept {
    return readers_[peer].drain([&](std::span<const std::byte> body) { on_record(peer, body); },
                                kDrainBatch);
  }

  // The collective slots of `peer` (ourselves included), or nullptr for a
  // peer on another node: ours to write, a peer's to read.
  CollectiveSlot* collective_slots(std::uint32_t peer) const noexcept {
    std::byte* base = peer == rank_ ? own_.data() : peers_[peer].data();
    return base == nullptr ? nullptr : reinterpret_cast<CollectiveSlot*>(base + layout_.collective_offset());
  }
  // Whether `peer` (ourselves included) runs MPI_THREAD_MULTIPLE, as its
  // segment header says; false for a peer on another node.
  bool shares_threads(std::uint32_t peer) const noexcept {
    const std::byte* base = peer == rank_ ? own_.data() : peers_[peer].data();
    return base != nullptr && reinterpret_cast<const SegmentHeader*>(base)->shares_threads != 0;
  }
  // Wakes `peer` if it sleeps, after we changed a word it may wait for
  // outside its channels (a collective slot). The fence orders that store
  // before our look at its doorbell; the sleeper re-checks what it waits
  // for after announcing its sleep (Pml::wait_until), so neither side can
  // miss the other.
  void wake_if_sleeping(std::uint32_t peer) noexcept {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (doors_[peer].bell->sleeping.load(std::memory_order_relaxed) != kAwake) wake(peer);
  }

  // Bytes of this rank's receive segment.
  std::size_t segment_bytes() const noexcept { return own_.size(); }

 private:
  static constexpr std::size_t kDrainBatch = 16;
  // Largest own segment written at start-up (up to 7 ranks at the default
  // 128 KiB ring). Larger jobs touch a ring only once its sender sends.
  static constexpr std::size_t kWarmSegmentBytes = 1024 * 1024;

  // What a sender needs of a peer's segment besides the ring: its doorbell
  // and where to announce our first record.
  struct PeerDoor {
    Doorbell* bell = nullptr;
    ArrivalsHeader* arrivals = nullptr;
    ArrivalSlot* slots = nullptr;
    const std::atomic<std::uint32_t>* backlog = nullptr;  // its SegmentHeader::backlog, or no_backlog_
    bool announced = false;  // we told the peer we send to it
  };
  static PeerDoor door_in(std::byte* base) noexcept;

  std::uint32_t rank_;
  std::uint32_t nranks_;
  SegmentLayout layout_;
  Segment own_;
  std::vector<Segment> peers_;  // indexed by rank; empty for self
  std::vector<ChannelWriter> writers_;
  std::vector<ChannelReader> readers_;
  std::vector<BoxEnd> box_ends_;  // by peer; never resized (writers and readers point in)
  bool fast_box_;
  bool probe_box_lines_;
  ClaimAhead claim_ahead_;
  std::vector<bool> probe_with_;  // by peer: both of us probe box lines
  void wake(std::uint32_t peer) noexcept;
  void ring_fd(std::uint32_t peer, const Doorbell& bell) noexcept;
  void announce(std::uint32_t peer) noexcept;
  bool warm() const noexcept { return own_.size() <= kWarmSegmentBytes; }
  // The RingWriter or RingReader of the ring from `sender` in the segment
  // mapped at `base`.
  template <class RingEnd, class... More>
  RingEnd ring_in(std::byte* base, std::uint32_t sender, More... more) const noexcept {
    return RingEnd(reinterpret_cast<RingControl*>(base + layout_.control_offset(sender)),
                   base + layout_.cells_offset(sender), layout_.ring_size, more...);
  }

  std::vector<PeerDoor> doors_;         // by rank, in each rank's segment
  ArrivalList arrivals_;                // senders to us, from our segment
  std::vector<pid_t> pids_;             // by rank
  std::vector<std::uint64_t> bases_;    // by rank
  // Sleeping on fds: by peer, the copies of their eventfds we made on first
  // need (empty until then), and ours once sleep_on_fd() made it.
  std::vector<UniqueFd> peer_wake_fds_;
  UniqueFd own_wake_fd_;
  std::uint32_t sleep_mode_ = kSleepsOnFutex;  // what ready_to_sleep() announces
  RingControl closed_{};                // the ring of every closed channel: size 0, always full
  std::atomic<std::uint32_t> no_backlog_{0};  // the backlog flag of ourselves and closed peers: never set
  std::atomic<std::uint32_t>* own_backlog_ = nullptr;  // in our SegmentHeader
};

}  // namespace shmpi::btl
