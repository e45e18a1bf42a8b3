#include "runtime/collectives.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "runtime/coll_packing.hpp"
#include "runtime/context.hpp"
#include "runtime/reduce_op.hpp"

namespace shmpi::runtime {
namespace {

// One tag per collective (all on the collective context).
constexpr std::int32_t kBarrierTag = 1;
constexpr std::int32_t kBcastTag = 2;
constexpr std::int32_t kReduceTag = 3;
constexpr std::int32_t kAllreduceTag = 4;
constexpr std::int32_t kAllgatherTag = 5;
constexpr std::int32_t kExchangeTag = 6;
constexpr std::int32_t kToRootTag = 7;
constexpr std::int32_t kFromRootTag = 8;

// The point-to-point steps of one collective call: messages on the
// communicator's collective context with the collective's tag, addressed by
// communicator rank.
class Channel {
 public:
  // What a receive's data is for: kept, or read right after it arrives (a
  // reduction's operand, pml::Pml::start_operand_recv).
  enum class Use : bool { Kept, Operand };

  Channel(Context& context, const Communicator& comm, std::int32_t tag, const char* call) noexcept
      : context_(context), comm_(comm), tag_(tag), call_(call) {}

  void start_send(pml::Request& request, std::int32_t to, const void* buffer, std::size_t bytes) noexcept {
    context_.pml().start_send(request, comm_.world_rank(to), pml::Envelope{ctx(), comm_.rank, tag_}, buffer, bytes);
  }
  void start_recv(pml::Request& request, std::int32_t from, void* buffer, std::size_t bytes,
                  Use use = Use::Kept) noexcept {
    if (use == Use::Operand)
      context_.pml().start_operand_recv(request, pml::Envelope{ctx(), from, tag_}, buffer, bytes);
    else
      context_.pml().start_recv(request, pml::Envelope{ctx(), from, tag_}, buffer, bytes);
  }
  void wait(pml::Request& request, std::int32_t peer, std::size_t bytes) noexcept {
    context_.wait(request, BlockedCall{call_, static_cast<std::int32_t>(comm_.world_rank(peer)), tag_, bytes, ctx()});
  }

  // A small message first tries the pml's fast paths, as MPI_Send and
  // MPI_Recv do (the fast box, no request): the requests cost as much as
  // the message itself (osu_alltoall 2 ranks 8 B: see the commit).
  void send(std::int32_t to, const void* buffer, std::size_t bytes) noexcept {
    if (try_send_now(to, buffer, bytes)) return;
    pml::Request request;
    start_send(request, to, buffer, bytes);
    wait(request, to, bytes);
  }
  void recv(std::int32_t from, void* buffer, std::size_t bytes, Use use = Use::Kept) noexcept {
    pml::Status status;
    if (context_.pml().try_receive_now(comm_.world_rank(from), pml::Envelope{ctx(), from, tag_}, buffer, bytes, status))
      return;
    pml::Request request;
    start_recv(request, from, buffer, bytes, use);
    wait(request, from, bytes);
  }
  // Both at once, so two ranks exchanging with each other never wait on one
  // another: an eager send that is out at once, then the receive; else the
  // receive is posted first.
  void sendrecv(std::int32_t to, const void* out, std::size_t out_bytes, std::int32_t from, void* in,
                std::size_t in_bytes, Use use = Use::Kept) noexcept {
    if (try_send_now(to, out, out_bytes)) {
      recv(from, in, in_bytes, use);
      return;
    }
    pml::Request receive;
    pml::Request send;
    start_recv(receive, from, in, in_bytes, use);
    start_send(send, to, out, out_bytes);
    wait(send, to, out_bytes);
    wait(receive, from, in_bytes);
  }

  // Sends a small message now by the pml's fast path, if it can (no request).
  bool try_send_now(std::int32_t to, const void* buffer, std::size_t bytes) noexcept {
    return context_.pml().try_send_eager_now(comm_.world_rank(to), pml::Envelope{ctx(), comm_.rank, tag_}, buffer,
                                             bytes);
  }

 private:
  std::uint32_t ctx() const noexcept { return comm_.collective_context(); }

  Context& context_;
  const Communicator& comm_;
  std::int32_t tag_;
  const char* call_;
};

// Ranks relative to a root: the root is 0.
struct Relative {
  std::int32_t root;
  std::int32_t size;
  std::int32_t of(std::int32_t rank) const noexcept { return (rank - root + size) % size; }
  std::int32_t actual(std::int32_t relative) const noexcept { return (relative + root) % size; }
};

}  // namespace

void barrier(Context& context, const Communicator& comm, const char* call) noexcept {
  const std::int32_t n = comm.size;
  Channel channel(context, comm, kBarrierTag, call);
  for (std::int32_t distance = 1; distance < n; distance <<= 1) {
    const std::int32_t to = (comm.rank + distance) % n;
    const std::int32_t from = (comm.rank - distance + n) % n;
    channel.sendrecv(to, nullptr, 0, from, nullptr, 0);
  }
}

void bcast(Context& context, const Communicator& comm, void* buffer, std::size_t bytes, std::int32_t root,
           const char* call) {
  const std::int32_t n = comm.size;
  if (n == 1) return;
  Channel channel(context, comm, kBcastTag, call);
  const Relative rel{root, n};
  const std::int32_t me = rel.of(comm.rank);
  // Our parent is `me` without its lowest set bit; our children are
  // me + mask for every power of two mask below that bit.
  std::int32_t mask = 1;
  for (; mask < n; mask <<= 1) {
    if (me & mask) {
      channel.recv(rel.actual(me - mask), buffer, bytes);
      break;
    }
  }
  std::array<pml::Request, 31> sends;  // at most log2(INT_MAX) children
  std::array<std::int32_t, 31> children{};
  std::size_t started = 0;
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (me + mask >= n) continue;
    const std::int32_t child = rel.actual(me + mask);
    // A small message leaves at once by the fast path, with no request.
    if (channel.try_send_now(child, buffer, bytes)) continue;
    children[started] = child;
    channel.start_send(sends[started], child, buffer, bytes);
    ++started;
  }
  for (std::size_t i = 0; i < started; ++i) channel.wait(sends[i], children[i], bytes);
}

void reduce(Context& context, const Communicator& comm, const void* send, void* recv, const Reduction& reduction,
            std::int32_t root, const char* call) {
  const std::int32_t n = comm.size;
  const std::size_t bytes = reduction.bytes;
  const bool at_root = comm.rank == root;
  if (n == 1) {
    if (send != recv) std::memcpy(recv, send, bytes);
    return;
  }
  Channel channel(context, comm, kReduceTag, call);
  const Relative rel{root, n};
  const std::int32_t me = rel.of(comm.rank);
  // The partial result: our contribution until a child's arrives, then the
  // accumulator (`recv` at the root). The first child's vector arrives in
  // the accumulator and our contribution is folded into it, so nothing is
  // copied (the ops are commutative); later children arrive in `incoming`,
  // as does the first at a root whose input is in `recv` (MPI_IN_PLACE).
  // Neither buffer is initialised: the receive fills it.
  const void* partial = send;
  std::unique_ptr<std::byte[]> accumulator;
  std::unique_ptr<std::byte[]> incoming;
  for (std::int32_t mask = 1; mask < n; mask <<= 1) {
    if (me & mask) {
      channel.send(rel.actual(me - mask), partial, bytes);
      return;
    }
    if (me + mask >= n) continue;
    const std::int32_t child = rel.actual(me + mask);
    if (partial == send && !(at_root && send == recv)) {
      if (!at_root) accumulator = std::make_unique_for_overwrite<std::byte[]>(bytes);
      void* acc = at_root ? recv : accumulator.get();
      channel.recv(child, acc, bytes, Channel::Use::Operand);
      apply_op(reduction.op, reduction.type, send, acc, reduction.count, reduction.pairs);
      partial = acc;
      continue;
    }
    if (!incoming) incoming = std::make_unique_for_overwrite<std::byte[]>(bytes);
    channel.recv(child, incoming.get(), bytes, Channel::Use::Operand);
    void* acc = const_cast<void*>(partial);  // `recv` or the accumulator once a child has arrived
    apply_op(reduction.op, reduction.type, incoming.get(), acc, reduction.count, reduction.pairs);
  }
  if (at_root && partial != recv) std::memcpy(recv, partial, bytes);
}

void allreduce(Context& context, const Communicator& comm, void* buffer, const Reduction& reduction,
               const char* call) {
  const std::int32_t n = comm.size;
  if (n == 1) return;
  const std::size_t bytes = reduction.bytes;
  Channel channel(context, comm, kAllreduceTag, call);
  std::vector<std::byte> scratch(bytes);
  void* mine = buffer;           // our partial result
  void* theirs = scratch.data(); // the partner's, then free space
  std::int32_t pof2 = 1;
  while (pof2 * 2 <= n) pof2 *= 2;
  const std::int32_t rem = n - pof2;
  const std::int32_t rank = comm.rank;

  // Fold the first 2*rem ranks in pairs: the odd one carries the pair on.
  std::int32_t newrank = rank - rem;
  if (rank < 2 * rem) {
    if (rank % 2 == 0) {
      channel.send(rank + 1, buffer, bytes);
      newrank = -1;
    } else {
      channel.recv(rank - 1, theirs, bytes, Channel::Use::Operand);
      apply_op(reduction.op, reduction.type, theirs, mine, reduction.count, reduction.pairs);  // lower op higher
      newrank = rank / 2;
    }
  }
  if (newrank >= 0) {
    for (std::int32_t mask = 1; mask < pof2; mask <<= 1) {
      const std::int32_t partner_new = newrank ^ mask;
      const std::int32_t partner = partner_new < rem ? partner_new * 2 + 1 : partner_new + rem;
      channel.sendrecv(partner, mine, bytes, partner, theirs, bytes, Channel::Use::Operand);
      if (partner < rank) {
        apply_op(reduction.op, reduction.type, theirs, mine, reduction.count, reduction.pairs);
      } else {
        apply_op(reduction.op, reduction.type, mine, theirs, reduction.count, reduction.pairs);
        std::swap(mine, theirs);
      }
    }
    if (mine != buffer) std::memcpy(buffer, mine, bytes);
  }
  if (rank < 2 * rem) {
    if (rank % 2 == 1)
      channel.send(rank - 1, buffer, bytes);
    else
      channel.recv(rank + 1, buffer, bytes);
  }
}

void allreduce_pair_halves(Context& context, const Communicator& comm, const void* send, void* recv,
                           const Reduction& reduction, const char* call) {
  const std::size_t item = reduction.bytes / reduction.count;
  const std::size_t low_items = reduction.count / 2;
  const std::size_t low = low_items * item;
  const bool upper = comm.rank == 1;
  const std::size_t keep_at = upper ? low : 0;
  const std::size_t keep = upper ? reduction.bytes - low : low;
  const std::size_t keep_items = upper ? reduction.count - low_items : low_items;
  const std::size_t give_at = upper ? 0 : low;
  const std::size_t give = reduction.bytes - keep;
  const auto* in = static_cast<const std::byte*>(send);
  auto* out = static_cast<std::byte*>(recv);
  const std::int32_t peer = 1 - comm.rank;
  Channel channel(context, comm, kAllreduceTag, call);
  if (send != recv) {
    // The peer's part of our half lands where the result goes; ours is
    // folded in from `send`, so nothing is copied first.
    channel.sendrecv(peer, in + give_at, give, peer, out + keep_at, keep, Channel::Use::Operand);
    apply_op(reduction.op, reduction.type, in + keep_at, out + keep_at, keep_items, reduction.pairs);
  } else {
    auto theirs = std::make_unique_for_overwrite<std::byte[]>(keep);
    channel.sendrecv(peer, out + give_at, give, peer, theirs.get(), keep, Channel::Use::Operand);
    apply_op(reduction.op, reduction.type, theirs.get(), out + keep_at, keep_items, reduction.pairs);
  }
  channel.sendrecv(peer, out + keep_at, keep, peer, out + give_at, give);
}

namespace {

// Block `peer` of `recv` arrives through receive(void* in): straight into
// the block when it is contiguous, else into a buffer unpacked there.
// Throws std::bad_alloc.
template <class Receive>
void receive_block(const Blocks& recv, std::int32_t peer, Receive&& receive) {
  const auto at = static_cast<std::size_t>(peer);
  const bool direct = recv.contiguous(at);
  std::vector<std::byte> incoming(direct ? 0 : recv.size_of(peer));
  receive(direct ? static_cast<void*>(recv.at(peer)) : incoming.data());
  if (!direct) unpack_block(recv, at, incoming.data());
}

}  // namespace

void exchange_with_peer(Context& context, const Communicator& comm, const void* out, std::size_t out_bytes,
                        const Blocks& recv, const char* call) {
  const std::int32_t peer = 1 - comm.rank;
  receive_block(recv, peer,
                [&](void* in) { exchange_with_peer(context, comm, out, out_bytes, in, recv.size_of(peer), call); });
}

void exchange_with_peer(Context& context, const Communicator& comm, const void* out, std::size_t out_bytes, void* in,
                        std::size_t in_bytes, const char* call) noexcept {
  const std::int32_t peer = 1 - comm.rank;
  Channel(context, comm, kExchangeTag, call).sendrecv(peer, out, out_bytes, peer, in, in_bytes);
}

void send_to_root(Context& context, const Communicator& comm, const void* out, std::size_t bytes, const char* call) {
  Channel(context, comm, kToRootTag, call).send(1 - comm.rank, out, bytes);
}

void receive_from_peer(Context& context, const Communicator& comm, const Blocks& recv, const char* call) {
  const std::int32_t peer = 1 - comm.rank;
  receive_block(recv, peer,
                [&](void* in) { Channel(context, comm, kToRootTag, call).recv(peer, in, recv.size_of(peer)); });
}

void send_to_peer(Context& context, const Communicator& comm, const Blocks& send, const char* call) {
  const std::int32_t peer = 1 - comm.rank;
  const auto at = static_cast<std::size_t>(peer);
  const bool direct = send.contiguous(at);
  std::vector<std::byte> outgoing(direct ? 0 : send.size_of(peer));
  if (!direct) pack_block(send, at, outgoing.data());
  Channel(context, comm, kFromRootTag, call).send(peer, direct ? send.at(peer) : outgoing.data(), send.size_of(peer));
}

void receive_from_root(Context& context, const Communicator& comm, void* in, std::size_t bytes, const char* call) {
  Channel(context, comm, kFromRootTag, call).recv(1 - comm.rank, in, bytes);
}

void allgather(Context& context, const Communicator& comm, const void* send, void* recv, std::size_t bytes_each,
               const char* call) {
  const std::int32_t n = comm.size;
  // Block i of `work` holds the data of rank (rank + i) % n.
  std::vector<std::byte> work(bytes_each * static_cast<std::size_t>(n));
  std::memcpy(work.data(), send, bytes_each);
  Channel channel(context, comm, kAllgatherTag, call);
  for (std::int32_t distance = 1; distance < n; distance <<= 1) {
    const std::size_t blocks = static_cast<std::size_t>(std::min(distance, n - distance));
    const std::int32_t to = (comm.rank - distance + n) % n;
    const std::int32_t from = (comm.rank + distance) % n;
    channel.sendrecv(to, work.data(), blocks * bytes_each, from,
                     work.data() + static_cast<std::size_t>(distance) * bytes_each, blocks * bytes_each);
  }
  auto* out = static_cast<std::byte*>(recv);
  for (std::int32_t i = 0; i < n; ++i) {
    const auto owner = static_cast<std::size_t>((comm.rank + i) % n);
    std::memcpy(out + owner * bytes_each, work.data() + static_cast<std::size_t>(i) * bytes_each, bytes_each);
  }
}

}  // namespace shmpi::runtime
