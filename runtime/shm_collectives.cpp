#include "runtime/shm_collectives.hpp"

#include <atomic>
#include <cstring>
#include <new>

#include "runtime/coll_packing.hpp"
#include "runtime/context.hpp"
#include "runtime/reduce_op.hpp"

namespace shmpi::runtime {
namespace {

// memcpy that takes the null buffer MPI allows with a count of 0.
void copy(void* to, const void* from, std::size_t bytes) noexcept {
  if (bytes != 0) std::memcpy(to, from, bytes);
}

}  // namespace

ShmCollectives::ShmCollectives(btl::Transport& transport, std::size_t limit)
    : transport_(transport),
      limit_(limit < btl::kCollectiveSlotBytes ? limit : btl::kCollectiveSlotBytes),
      own_(transport.collective_slots(transport.rank())),
      hints_(transport.size(), 0) {}

bool ShmCollectives::usable(const Communicator& comm) const noexcept {
  for (const std::uint32_t world : comm.world_ranks)
    if (transport_.collective_slots(world) == nullptr || transport_.shares_threads(world)) return false;
  return true;
}

std::uint64_t ShmCollectives::next_stamp(const Communicator& comm) noexcept {
  ++calls_;
  if (++comm.shm.calls == 0) ++comm.shm.calls;  // after 2^32 calls: 0 is no call's number
  return std::uint64_t{comm.collective_context()} << 32 | comm.shm.calls;
}

btl::CollectiveSlot& ShmCollectives::claim(Context& context, const char* call) {
  btl::CollectiveSlot& slot = own_[next_];
  next_ = (next_ + 1) % btl::kCollectiveSlots;
  if (!slot.free())
    context.wait_until([&slot] { return slot.free(); }, BlockedCall{call, -2, 0, btl::kCollectiveSlotBytes, 0});
  return slot;
}

void ShmCollectives::publish(btl::CollectiveSlot& slot, std::uint64_t stamp, std::uint32_t readers, std::size_t bytes,
                             std::span<const std::uint32_t> wake) {
  slot.publish(stamp, readers, static_cast<std::uint32_t>(bytes));
  for (const std::uint32_t peer : wake)
    if (peer != transport_.rank()) transport_.wake_if_sleeping(peer);
}

btl::CollectiveSlot& ShmCollectives::await(Context& context, const Communicator& comm, std::int32_t peer,
                                           std::uint64_t stamp, const char* call) {
  const std::uint32_t world = comm.world_rank(peer);
  btl::CollectiveSlot* slots = transport_.collective_slots(world);
  std::uint8_t& hint = hints_[world];
  btl::CollectiveSlot* found = btl::find_slot(slots, stamp, hint);
  if (found == nullptr) {
    context.wait_until([&] { return (found = btl::find_slot(slots, stamp, hint)) != nullptr; },
                       BlockedCall{call, static_cast<std::int32_t>(world), 0, 0, comm.collective_context()});
  }
  return *found;
}

void ShmCollectives::release(const Communicator& comm, std::int32_t peer, btl::CollectiveSlot& slot) noexcept {
  if (slot.release()) transport_.wake_if_sleeping(comm.world_rank(peer));  // it may wait to reuse the slot
}

void ShmCollectives::barrier(Context& context, const Communicator& comm) {
  constexpr const char* kCall = "MPI_Barrier";
  const std::uint64_t stamp = next_stamp(comm);
  const auto n = static_cast<std::uint32_t>(comm.size);
  publish(claim(context, kCall), stamp, n - 1, 0, comm.world_ranks);
  for (std::int32_t peer = 0; peer < comm.size; ++peer) {
    if (peer == comm.rank) continue;
    release(comm, peer, await(context, comm, peer, stamp, kCall));
  }
}

void ShmCollectives::bcast(Context& context, const Communicator& comm, void* buffer, std::size_t bytes,
                           std::int32_t root) {
  constexpr const char* kCall = "MPI_Bcast";
  const std::uint64_t stamp = next_stamp(comm);
  if (comm.rank == root) {
    btl::CollectiveSlot& slot = claim(context, kCall);
    copy(slot.data, buffer, bytes);
    publish(slot, stamp, static_cast<std::uint32_t>(comm.size - 1), bytes, comm.world_ranks);
    return;
  }
  btl::CollectiveSlot& slot = await(context, comm, root, stamp, kCall);
  copy(buffer, slot.data, bytes);
  release(comm, root, slot);
}

namespace {

// What a direct broadcast's root publishes: where its buffer is, and a
// word in which readers whose single copy failed set their bit.
struct DirectOffer {
  std::uint64_t address;
  std::uint64_t bytes;
  std::atomic<std::uint32_t> failed;  // bit r: member r reads by point-to-point instead
};
static_assert(sizeof(DirectOffer) <= btl::kCollectiveSlotBytes);
static_assert(ShmCollectives::kMaxRanks <= 32, "one bit per member in DirectOffer::failed");

// The fallback's messages, on the communicator's collective context: below
// the schedules' tags (Schedule::kFirstTag), apart from collectives.cpp's.
constexpr std::int32_t kDirectFallbackTag = 32;

}  // namespace

void ShmCollectives::bcast_direct(Context& context, const Communicator& comm, void* buffer, std::size_t bytes,
                                  std::int32_t root) {
  constexpr const char* kCall = "MPI_Bcast";
  const std::uint64_t stamp = next_stamp(comm);
  const pml::Envelope envelope{comm.collective_context(), root, kDirectFallbackTag};
  if (comm.rank == root) {
    btl::CollectiveSlot& slot = claim(context, kCall);
    auto* offer = new (slot.data) DirectOffer{reinterpret_cast<std::uintptr_t>(buffer), bytes, {0}};
    publish(slot, stamp, static_cast<std::uint32_t>(comm.size - 1), sizeof(DirectOffer), comm.world_ranks);
    // The buffer must stay as it is until every member has read it.
    context.wait_until([&slot] { return slot.free(); }, BlockedCall{kCall, -2, 0, bytes, comm.collective_context()});
    const std::uint32_t failed = offer->failed.load(std::memory_order_relaxed);  // ordered by free()'s acquire
    for (std::int32_t peer = 0; peer < comm.size; ++peer) {
      if ((failed >> peer & 1u) == 0) continue;
      pml::Request request;
      context.pml().start_send(request, comm.world_rank(peer), envelope, buffer, bytes);
      context.wait(request, BlockedCall{kCall, static_cast<std::int32_t>(comm.world_rank(peer)), kDirectFallbackTag,
                                        bytes, comm.collective_context()});
    }
    return;
  }
  btl::CollectiveSlot& slot = await(context, comm, root, stamp, kCall);
  auto* offer = std::launder(reinterpret_cast<DirectOffer*>(slot.data));
  const pid_t pid = transport_.peer_pid(comm.world_rank(root));
  const bool copied = context.single_copy().enabled() &&
                      context.single_copy().read(pid, offer->address, buffer, bytes) == btl::CopyResult::Done;
  if (!copied) offer->failed.fetch_or(1u << comm.rank, std::memory_order_relaxed);  // released by release()
  release(comm, root, slot);
  if (copied) return;
  pml::Request request;
  context.pml().start_recv(request, envelope, buffer, bytes);
  context.wait(request, BlockedCall{kCall, static_cast<std::int32_t>(comm.world_rank(root)), kDirectFallbackTag, bytes,
                                    comm.collective_context()});
}

void ShmCollectives::combine(Context& context, const Communicator& comm, std::uint64_t stamp, btl::CollectiveSlot& own,
                             void* recv, const Reduction& reduction, const char* call) {
  // From the last part down: part i op (part i+1 op ...), as apply_op
  // folds its first operand into the second from the left.
  auto part = [&](std::int32_t peer) -> btl::CollectiveSlot& {
    return peer == comm.rank ? own : await(context, comm, peer, stamp, call);
  };
  auto done_with = [&](std::int32_t peer, btl::CollectiveSlot& slot) {
    if (peer != comm.rank) release(comm, peer, slot);
  };
  const std::int32_t last = comm.size - 1;
  btl::CollectiveSlot& top = part(last);
  copy(recv, top.data, reduction.bytes);
  done_with(last, top);
  for (std::int32_t peer = last - 1; peer >= 0; --peer) {
    btl::CollectiveSlot& slot = part(peer);
    apply_op(reduction.op, reduction.type, slot.data, recv, reduction.count, reduction.pairs);
    done_with(peer, slot);
  }
}

void ShmCollectives::reduce(Context& context, const Communicator& comm, const void* send, void* recv,
                            const Reduction& reduction, std::int32_t root) {
  constexpr const char* kCall = "MPI_Reduce";
  const std::uint64_t stamp = next_stamp(comm);
  btl::CollectiveSlot& slot = claim(context, kCall);
  copy(slot.data, send, reduction.bytes);
  if (comm.rank != root) {
    const std::uint32_t to = comm.world_rank(root);
    publish(slot, stamp, 1, reduction.bytes, std::span(&to, 1));
    return;
  }
  // The root's part goes through its own slot too (no reader but the root,
  // which is done with it before its next call), so an MPI_IN_PLACE input
  // survives the result built in `recv`.
  publish(slot, stamp, 0, reduction.bytes, {});
  combine(context, comm, stamp, slot, recv, reduction, kCall);
}

void ShmCollectives::allreduce(Context& context, const Communicator& comm, const void* send, void* recv,
                               const Reduction& reduction) {
  constexpr const char* kCall = "MPI_Allreduce";
  const std::uint64_t stamp = next_stamp(comm);
  btl::CollectiveSlot& slot = claim(context, kCall);
  copy(slot.data, send, reduction.bytes);
  publish(slot, stamp, static_cast<std::uint32_t>(comm.size - 1), reduction.bytes, comm.world_ranks);
  combine(context, comm, stamp, slot, recv, reduction, kCall);
}

void ShmCollectives::read_others(Context& context, const Communicator& comm, std::uint64_t stamp, const Blocks& recv,
                                 std::size_t offset, const char* call) {
  for (std::int32_t peer = 0; peer < comm.size; ++peer) {
    if (peer == comm.rank) continue;
    btl::CollectiveSlot& theirs = await(context, comm, peer, stamp, call);
    unpack_block(recv, static_cast<std::size_t>(peer), theirs.data + offset);
    release(comm, peer, theirs);
  }
}

void ShmCollectives::allgather(Context& context, const Communicator& comm, const void* send, std::size_t bytes,
                               const Blocks& recv) {
  constexpr const char* kCall = "MPI_Allgather";
  const std::uint64_t stamp = next_stamp(comm);
  const auto me = static_cast<std::size_t>(comm.rank);
  btl::CollectiveSlot& slot = claim(context, kCall);
  if (send == nullptr)
    pack_block(recv, me, slot.data);
  else
    copy(slot.data, send, bytes);
  publish(slot, stamp, static_cast<std::uint32_t>(comm.size - 1), bytes, comm.world_ranks);
  if (send != nullptr) unpack_block(recv, me, static_cast<const std::byte*>(send));
  read_others(context, comm, stamp, recv, 0, kCall);
}

void ShmCollectives::gather(Context& context, const Communicator& comm, const void* send, std::size_t bytes,
                            const Blocks& recv, std::int32_t root) {
  constexpr const char* kCall = "MPI_Gather";
  const std::uint64_t stamp = next_stamp(comm);
  if (comm.rank != root) {
    btl::CollectiveSlot& slot = claim(context, kCall);
    copy(slot.data, send, bytes);
    const std::uint32_t to = comm.world_rank(root);
    publish(slot, stamp, 1, bytes, std::span(&to, 1));
    return;
  }
  if (send != nullptr) unpack_block(recv, static_cast<std::size_t>(root), static_cast<const std::byte*>(send));
  read_others(context, comm, stamp, recv, 0, kCall);
}

void ShmCollectives::alltoall(Context& context, const Communicator& comm, const Blocks& send, const Blocks& recv) {
  constexpr const char* kCall = "MPI_Alltoall";
  const std::uint64_t stamp = next_stamp(comm);
  const std::size_t each = recv.size_of(0);
  const auto n = static_cast<std::size_t>(comm.size);
  const auto me = static_cast<std::size_t>(comm.rank);
  btl::CollectiveSlot& slot = claim(context, kCall);
  for (std::size_t j = 0; j < n; ++j) pack_block(send, j, slot.data + j * each);
  // Our own block comes from our slot too (we take no slot again before
  // this call returns), so MPI_IN_PLACE needs no copy aside.
  publish(slot, stamp, static_cast<std::uint32_t>(n - 1), n * each, comm.world_ranks);
  unpack_block(recv, me, slot.data + me * each);
  read_others(context, comm, stamp, recv, me * each, kCall);
}

}  // namespace shmpi::runtime
