#include "btl/transport.hpp"

#include <linux/futex.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>

namespace shmpi::btl {

Transport::Transport(std::uint32_t rank, std::uint32_t nranks, const Limits& limits)
    : rank_(rank),
      nranks_(nranks),
      layout_{nranks, limits.ring_size},
      own_(Segment::create(layout_.total_bytes())),
      peers_(nranks),
      writers_(nranks),
      readers_(nranks),
      box_ends_(nranks),
      fast_box_(limits.fast_box),
      probe_box_lines_(limits.fast_box && limits.probe_box_lines),
      claim_ahead_(limits.claim_ahead),
      probe_with_(nranks, false),
      doors_(nranks),
      pids_(nranks, 0),
      bases_(nranks, 0),
      peer_wake_fds_(nranks) {
  if (limits.ring_size < 4 * kCacheLine || (limits.ring_size & (limits.ring_size - 1)) != 0)
    throw std::invalid_argument("ring size must be a power of two of at least 256 bytes");
  // Before first touch, so the pages land where the policy says.
  place_memory(own_.data(), own_.size(), limits.numa, current_numa_node());
  // First touch, now, under that policy: the pages get allocated in one
  // batch (a fault per page would cost ~15 us each on these VMs). A small
  // job's segment is also written once, so the rings' lines start in our
  // cache: otherwise the first lap of a ring runs its small messages ~30%
  // slower, which shows in a benchmark's first sizes. A large job touches
  // only the words every pair needs; a ring's pages come when its sender's
  // records first reach them, a box line's when its pair first uses it, so
  // memory grows with the pairs that talk, not with the square of the ranks.
  if (warm()) {
    own_.prefault(0, own_.size());
    std::memset(own_.data(), 0, own_.size());
  } else {
    own_.prefault(0, layout_.cells_offset(0));
  }
  auto* header = reinterpret_cast<SegmentHeader*>(own_.data());
  header->magic = kSegmentMagic;
  header->nranks = nranks;
  header->owner_rank = rank;
  header->ring_size = layout_.ring_size;
  header->shares_threads = limits.shares_threads ? 1 : 0;
  // Fast boxes join at connect(); the ring to ourselves never has one.
  for (std::uint32_t sender = 0; sender < nranks; ++sender)
    readers_[sender] = ChannelReader(ring_in<RingReader>(own_.data(), sender), BoxReader());
  own_backlog_ = &header->backlog;
  for (PeerDoor& door : doors_) door.backlog = &no_backlog_;  // until connect()
  doors_[rank] = door_in(own_.data());
  doors_[rank].backlog = &no_backlog_;
  arrivals_ = ArrivalList(doors_[rank].arrivals, doors_[rank].slots, nranks);
  pids_[rank] = ::getpid();
  bases_[rank] = reinterpret_cast<std::uintptr_t>(own_.data());
  writers_[rank] = ChannelWriter(ring_in<RingWriter>(own_.data(), rank, claim_ahead_, warm()), BoxWriter());
}

PeerAddress Transport::address() const noexcept {
  return PeerAddress{static_cast<std::int64_t>(::getpid()), own_.fd(), own_.size(),
                     reinterpret_cast<std::uintptr_t>(own_.data()), probe_box_lines_};
}

void Transport::connect(std::uint32_t peer, const PeerAddress& address) {
  if (peer == rank_) return;
  Segment segment = Segment::attach(static_cast<pid_t>(address.pid), address.fd, address.bytes);
  const auto* header = reinterpret_cast<const SegmentHeader*>(segment.data());
  if (header->magic != kSegmentMagic || header->nranks != nranks_ || header->owner_rank != peer ||
      header->ring_size != layout_.ring_size) {
    throw std::runtime_error("segment of rank " + std::to_string(peer) +
                             " does not match this job (different ring size or job size)");
  }
  // The pair's box is in the lower rank's segment, at the higher rank's
  // index, on the first candidate line until choose_box_lines(); the lower
  // rank holds it first.
  BoxWriter box_writer;
  BoxReader box_reader;
  if (fast_box_) {
    const bool peer_is_lower = peer < rank_;
    auto* box = peer_is_lower ? reinterpret_cast<FastBox*>(segment.data() + layout_.box_offset(rank_))
                              : reinterpret_cast<FastBox*>(own_.data() + layout_.box_offset(peer));
    box_ends_[peer] = BoxEnd{box, peer_is_lower ? 1u : 0u};
    box_writer = BoxWriter(&box_ends_[peer]);
    box_reader = BoxReader(&box_ends_[peer]);
  }
  writers_[peer] = ChannelWriter(ring_in<RingWriter>(segment.data(), rank_, claim_ahead_, warm()), box_writer);
  readers_[peer] = ChannelReader(ring_in<RingReader>(own_.data(), peer), box_reader);
  if (warm()) segment.prefault(layout_.cells_offset(rank_), layout_.ring_size);  // the ring we write to
  doors_[peer] = door_in(segment.data());
  peers_[peer] = std::move(segment);  // the mapping stays where it is: doors_ remains valid
  pids_[peer] = static_cast<pid_t>(address.pid);
  bases_[peer] = address.base;
  probe_with_[peer] = probe_box_lines_ && address.probes_box_lines;
}

std::uint32_t Transport::choose_box_lines() {
  std::uint32_t probed = 0;
  for (std::uint32_t round = 0; round < probe_rounds(nranks_); ++round) {
    const std::uint32_t peer = probe_partner(rank_, round, nranks_);
    if (peer >= nranks_ || !probe_with_[peer]) continue;
    BoxEnd& end = box_ends_[peer];
    end.line += probe_box_lines(std::span<FastBox>(end.line, kBoxLines), rank_ < peer);
    probe_with_[peer] = false;  // once: the line has moved
    ++probed;
  }
  return probed;
}

std::uint32_t Transport::box_line_index(std::uint32_t peer) const noexcept {
  const FastBox* line = box_ends_[peer].line;
  if (line == nullptr) return kBoxLines;
  const bool peer_is_lower = peer < rank_;  // where connect() put the first candidate
  const std::byte* segment = peer_is_lower ? peers_[peer].data() : own_.data();
  const auto* first = reinterpret_cast<const FastBox*>(segment + layout_.box_offset(peer_is_lower ? rank_ : peer));
  return static_cast<std::uint32_t>(line - first);
}

// Out of the send path: only when the peer sleeps.
void Transport::wake(std::uint32_t peer) noexcept {
  Doorbell& bell = *doors_[peer].bell;
  if (bell.sleeping.load(std::memory_order_acquire) == kSleepsOnFd) {
    ring_fd(peer, bell);
    return;
  }
  bell.wakeups.fetch_add(1, std::memory_order_release);
  // Not FUTEX_PRIVATE: the word lives in a mapping shared between processes.
  ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&bell.wakeups), FUTEX_WAKE, 1, nullptr, nullptr, 0);
}

// The peer sleeps in ppoll(): write its eventfd, copied into this process
// the first time (~10 us, once per pair). Should the copy fail (the peer
// is not dumpable), it wakes at its sleep's timeout, as it would have
// before it slept on fds.
void Transport::ring_fd(std::uint32_t peer, const Doorbell& bell) noexcept {
  UniqueFd& fd = peer_wake_fds_[peer];
  if (!fd) fd = fd_of_process(pids_[peer], bell.fd);
  if (!fd) return;
  const std::uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = ::write(fd.get(), &one, sizeof one);
}

int Transport::sleep_on_fd() {
  if (!own_wake_fd_) {
    own_wake_fd_ = UniqueFd(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
    if (!own_wake_fd_) throw std::system_error(errno, std::generic_category(), "eventfd");
    doors_[rank_].bell->fd = own_wake_fd_.get();  // before any store of kSleepsOnFd (Doorbell)
    sleep_mode_ = kSleepsOnFd;
  }
  return own_wake_fd_.get();
}

void Transport::woke_from_fd() noexcept {
  std::uint64_t count = 0;
  [[maybe_unused]] const ssize_t n = ::read(own_wake_fd_.get(), &count, sizeof count);  // EAGAIN if nobody wrote
  doors_[rank_].bell->sleeping.store(kAwake, std::memory_order_relaxed);
}

bool Transport::any_ready() const noexcept {
  if (arrivals_.changed()) return true;  // a first record: poll() will see it
  for (const std::uint32_t peer : arrivals_.senders())
    if (readers_[peer].ready()) return true;
  return false;
}

// Our first record to `peer`: it is told to poll our channel from now on.
// (A large job's ring gets its pages as the sender's records first reach
// them: a pair that exchanges a few small messages costs a page, not a ring.)
void Transport::announce(std::uint32_t peer) noexcept {
  PeerDoor& door = doors_[peer];
  door.announced = true;
  announce_arrival(*door.arrivals, door.slots, rank_);
}

Transport::PeerDoor Transport::door_in(std::byte* base) noexcept {
  return PeerDoor{reinterpret_cast<Doorbell*>(base + SegmentLayout::doorbell_offset()),
                  reinterpret_cast<ArrivalsHeader*>(base + SegmentLayout::arrivals_offset()),
                  reinterpret_cast<ArrivalSlot*>(base + SegmentLayout::arrival_slots_offset()),
                  &reinterpret_cast<SegmentHeader*>(base)->backlog};
}

std::optional<std::uint32_t> Transport::ready_to_sleep() noexcept {
  Doorbell& bell = *doors_[rank_].bell;
  const std::uint32_t seen = bell.wakeups.load(std::memory_order_acquire);
  bell.sleeping.store(sleep_mode_, std::memory_order_seq_cst);
  if (!any_ready()) return seen;  // a record published from now on rings the bell
  bell.sleeping.store(kAwake, std::memory_order_relaxed);
  return std::nullopt;
}

void Transport::sleep(std::uint32_t seen, long timeout_ns) noexcept {
  Doorbell& bell = *doors_[rank_].bell;
  timespec timeout{timeout_ns / 1'000'000'000, timeout_ns % 1'000'000'000};
  ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&bell.wakeups), FUTEX_WAIT, seen, &timeout, nullptr, 0);
  bell.sleeping.store(kAwake, std::memory_order_relaxed);
}

}  // namespace shmpi::btl
