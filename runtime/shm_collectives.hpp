// ShmCollectives: small blocking collectives through each rank's collective
// slots (btl/collective_slots.hpp) instead of point-to-point trees.
//
// A rank writes its part once into a slot of its own segment and every rank
// that needs it copies it out: a broadcast is one write and n-1 reads, an
// allreduce one write per rank after which each rank combines all parts in
// rank order itself. Nothing is forwarded, so a call costs one hand-off
// where a tree costs log2(n) in a row; when ranks outnumber cores each of
// those hand-offs waits for a time slice, which is where this pays most.
//
// Used only where every member makes the same choice, from what all of them
// know alike: an intracommunicator of kMinRanks to kMaxRanks ranks, all on
// this node, none of them running MPI_THREAD_MULTIPLE (their segment
// headers say), and at most coll_shm_limit bytes per slot (the tunable).
// Threads are left out because a rank's slots are shared by all its
// communicators: a publisher that waits for a slot waits for readers on
// another communicator, which one thread reaches in its program order, but
// threads calling on different communicators at once (as MPI allows) could
// each wait for the other's readers for good. Only the
// MPI entry points use it, with the communicator of the handle table, which
// numbers its calls (Communicator::shm); the internal collectives on
// temporary copies (communicator creation) stay on point-to-point.
//
// Blocking publishers may run ahead of their readers by kCollectiveSlots
// calls (a broadcast root returns at once); beyond that a publisher waits,
// progressing, for its slowest reader, as a synchronising collective
// would. Reductions take predefined ops only, which are commutative; every
// rank still combines in rank order, so all get the same bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "btl/collective_slots.hpp"
#include "btl/transport.hpp"
#include "runtime/coll_schedules.hpp"
#include "runtime/collectives.hpp"
#include "runtime/communicator.hpp"

namespace shmpi::runtime {

class Context;

class ShmCollectives {
 public:
  // Communicators of more ranks keep the trees: each rank reads every
  // part of an allreduce or barrier, n-1 cache misses, where a tree takes
  // log2(n) hand-offs.
  static constexpr std::int32_t kMaxRanks = 16;
  // Two ranks keep point-to-point: their tree is one hand-off through the
  // pair's fast box, which beats a slot (osu_bcast 1 B, 2 ranks pinned:
  // 0.46 us against 0.58; osu_reduce 4 B 0.41 against 0.52).
  static constexpr std::int32_t kMinRanks = 3;

  // `limit`: most bytes a rank publishes in one call (0: never used).
  ShmCollectives(btl::Transport& transport, std::size_t limit);

  // Broadcasts from this size on, above coll_shm_limit, publish the root's
  // buffer address instead of its bytes: every other member reads it by
  // single copy (bcast_direct). From the slot size: osu_bcast 8 ranks on 2
  // cores, 16 KiB 12.1 us direct against 23.5 on the tree (Open MPI 78).
  static constexpr std::size_t kDirectBcastMin = 8 * 1024;

  // Whether a call on `comm` that publishes `bytes` per rank goes this way.
  // The same answer on every member.
  bool serves(const Communicator& comm, std::size_t bytes) const noexcept {
    return limit_ != 0 && bytes <= limit_ && takes(comm);
  }
  // Whether a broadcast of `bytes` goes by bcast_direct().
  bool serves_direct_bcast(const Communicator& comm, std::size_t bytes) const noexcept {
    return limit_ != 0 && bytes > limit_ && bytes >= kDirectBcastMin && takes(comm);
  }

  // Calls made this way so far (the run report).
  std::uint64_t calls() const noexcept { return calls_; }

  void barrier(Context& context, const Communicator& comm);
  void bcast(Context& context, const Communicator& comm, void* buffer, std::size_t bytes, std::int32_t root);
  // The root publishes where its buffer is; each member reads it by single
  // copy, and the root returns once all have. A member whose read fails
  // (single copy refused) says so in the slot and gets the bytes from the
  // root by point-to-point instead.
  void bcast_direct(Context& context, const Communicator& comm, void* buffer, std::size_t bytes, std::int32_t root);
  // `send` may equal `recv` (MPI_IN_PLACE); `recv` is used at the root only.
  void reduce(Context& context, const Communicator& comm, const void* send, void* recv, const Reduction& reduction,
              std::int32_t root);
  void allreduce(Context& context, const Communicator& comm, const void* send, void* recv, const Reduction& reduction);
  // Our block (`bytes` at `send`, packed; nullptr: already in recv's block
  // for us, MPI_IN_PLACE) goes to block `rank` of every member's `recv`.
  void allgather(Context& context, const Communicator& comm, const void* send, std::size_t bytes, const Blocks& recv);
  // The same to the root only (`recv` is the root's; unused elsewhere).
  void gather(Context& context, const Communicator& comm, const void* send, std::size_t bytes, const Blocks& recv,
              std::int32_t root);
  // Block j of our `send` goes to block `rank` of member j's `recv`; every
  // block has the same size. `send` may be `recv` (MPI_IN_PLACE): all of
  // it is published before any block arrives.
  void alltoall(Context& context, const Communicator& comm, const Blocks& send, const Blocks& recv);

 private:
  // Every member is on this node and runs without MPI_THREAD_MULTIPLE.
  bool usable(const Communicator& comm) const noexcept;
  bool takes(const Communicator& comm) const noexcept {
    if (comm.inter || comm.size < kMinRanks || comm.size > kMaxRanks) return false;
    if (comm.shm.usable < 0) comm.shm.usable = usable(comm) ? 1 : 0;
    return comm.shm.usable != 0;
  }
  // The stamp of `comm`'s next call (btl/collective_slots.hpp).
  std::uint64_t next_stamp(const Communicator& comm) noexcept;
  // Our next slot, once free; the caller fills its data and publishes it.
  btl::CollectiveSlot& claim(Context& context, const char* call);
  // Publishes `slot` to `readers` members and wakes those that sleep.
  void publish(btl::CollectiveSlot& slot, std::uint64_t stamp, std::uint32_t readers, std::size_t bytes,
               std::span<const std::uint32_t> wake);
  // The slot of member `peer` holding `stamp`, once it is there.
  btl::CollectiveSlot& await(Context& context, const Communicator& comm, std::int32_t peer, std::uint64_t stamp,
                             const char* call);
  // We no longer need `slot` of member `peer`.
  void release(const Communicator& comm, std::int32_t peer, btl::CollectiveSlot& slot) noexcept;
  // recv = part 0 op part 1 op ... op part n-1, the parts published under
  // `stamp` (ours in `own`); releases the others' slots.
  void combine(Context& context, const Communicator& comm, std::uint64_t stamp, btl::CollectiveSlot& own, void* recv,
               const Reduction& reduction, const char* call);
  // Block `peer` of `recv` from `offset` in each other member's slot
  // published under `stamp`, as each is published; releases them.
  void read_others(Context& context, const Communicator& comm, std::uint64_t stamp, const Blocks& recv,
                   std::size_t offset, const char* call);

  btl::Transport& transport_;
  std::size_t limit_;
  btl::CollectiveSlot* own_;
  std::uint32_t next_ = 0;  // our slot for the next publication
  std::uint64_t calls_ = 0;
  std::vector<std::uint8_t> hints_;  // by world rank: where its next publication likely is
};

}  // namespace shmpi::runtime
