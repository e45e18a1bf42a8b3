// Reduce, allreduce and reduce-scatter schedules.
#include <algorithm>
#include <utility>

#include "runtime/coll_schedules.hpp"

namespace shmpi::runtime {
namespace {

// Commutative allreduces of at least this many bytes (and one element per
// rank) take the ring.
constexpr std::size_t kRingAllreduceFrom = 64 * 1024;
// Commutative allreduces of at least this many bytes on a power-of-two
// number of ranks (and one element per rank) take Rabenseifner's algorithm.
// osu_allreduce (MPI_FLOAT sums), against recursive doubling: equal at
// 32-64 KiB, 1.2-2.8x faster from 128 KiB at 2 ranks; at 8 ranks (on 2
// cores) equal at 16-32 KiB, 4-6x at 64 KiB, 1.3x at 1 MiB.
constexpr std::size_t kHalvingAllreduceFrom = 64 * 1024;

// Block b of a vector of `count` elements cut into n nearly equal blocks.
struct Partition {
  std::size_t count;
  std::size_t n;
  std::size_t start(std::size_t b) const noexcept { return b * (count / n) + std::min(b, count % n); }
  std::size_t length(std::size_t b) const noexcept { return start(b + 1) - start(b); }
};

void recursive_doubling_allreduce(Schedule& s, const void* send, void* recv, std::size_t count) {
  const std::size_t bytes = count * s.operation().element_bytes;
  const std::int32_t n = s.size();
  const std::int32_t rank = s.rank();
  s.copy(send, recv, bytes);
  s.end_round();
  auto* mine = static_cast<std::byte*>(recv);
  std::byte* theirs = s.scratch(bytes);
  std::int32_t pof2 = 1;
  while (pof2 * 2 <= n) pof2 *= 2;
  const std::int32_t rem = n - pof2;
  // The first 2*rem ranks fold in pairs: the odd one carries the pair on.
  std::int32_t newrank = rank - rem;
  if (rank < 2 * rem) {
    if (rank % 2 == 0) {
      s.send(rank + 1, recv, bytes);
      newrank = -1;
    } else {
      s.recv(rank - 1, theirs, bytes);
      s.reduce(theirs, mine, count);
      newrank = rank / 2;
    }
    s.end_round();
  }
  if (newrank >= 0) {
    for (std::int32_t mask = 1; mask < pof2; mask <<= 1) {
      const std::int32_t partner_new = newrank ^ mask;
      const std::int32_t partner = partner_new < rem ? partner_new * 2 + 1 : partner_new + rem;
      s.recv(partner, theirs, bytes);
      s.send(partner, mine, bytes);
      if (partner < rank) {
        s.reduce(theirs, mine, count);
      } else {
        s.reduce(mine, theirs, count);
        std::swap(mine, theirs);
      }
      s.end_round();
    }
    s.copy(mine, recv, bytes);
    s.end_round();
  }
  if (rank < 2 * rem) {
    if (rank % 2 == 1)
      s.send(rank - 1, recv, bytes);
    else
      s.recv(rank + 1, recv, bytes);
    s.end_round();
  }
}

// Rabenseifner, for a power-of-two number of ranks: recursive halving
// (each round sends the half of its window the partner keeps and reduces
// the half it keeps, so rank r ends with block r of n blocks reduced),
// then recursive doubling of the reduced blocks, received straight into
// place. Each rank moves and reduces 2(n-1)/n of the vector, as in the
// ring, in 2 log2 n rounds instead of 2(n-1). Commutative ops only: a
// block's operands are combined in the order the halving brings them.
void rabenseifner_allreduce(Schedule& s, const void* send, void* recv, std::size_t count) {
  const std::size_t eb = s.operation().element_bytes;
  const auto n = static_cast<std::size_t>(s.size());
  const auto rank = static_cast<std::size_t>(s.rank());
  const Partition part{count, n};
  const auto elements = [&](std::size_t lo, std::size_t hi) { return part.start(hi) - part.start(lo); };
  auto* out = static_cast<std::byte*>(recv);
  s.copy(send, recv, count * eb);
  s.end_round();
  // The first round receives the larger half at most.
  std::byte* tmp = s.scratch(std::max(elements(0, n / 2), elements(n / 2, n)) * eb);
  std::size_t lo = 0;  // our window of blocks: [lo, hi)
  std::size_t hi = n;
  for (std::size_t mask = n / 2; mask > 0; mask >>= 1) {
    const auto partner = static_cast<std::int32_t>(rank ^ mask);
    const std::size_t mid = lo + (hi - lo) / 2;
    const bool upper = (rank & mask) != 0;
    const std::size_t keep_lo = upper ? mid : lo;
    const std::size_t keep_hi = upper ? hi : mid;
    const std::size_t give_lo = upper ? lo : mid;
    const std::size_t give_hi = upper ? mid : hi;
    s.recv(partner, tmp, elements(keep_lo, keep_hi) * eb);
    s.send(partner, out + part.start(give_lo) * eb, elements(give_lo, give_hi) * eb);
    s.reduce(tmp, out + part.start(keep_lo) * eb, elements(keep_lo, keep_hi));
    s.end_round();
    lo = keep_lo;
    hi = keep_hi;
  }
  for (std::size_t mask = 1; mask < n; mask <<= 1) {
    const auto partner = static_cast<std::int32_t>(rank ^ mask);
    const std::size_t their_lo = (rank & mask) != 0 ? lo - mask : hi;
    const std::size_t their_hi = their_lo + mask;
    s.recv(partner, out + part.start(their_lo) * eb, elements(their_lo, their_hi) * eb);
    s.send(partner, out + part.start(lo) * eb, elements(lo, hi) * eb);
    s.end_round();
    lo = std::min(lo, their_lo);
    hi = std::max(hi, their_hi);
  }
}

// Ring reduce-scatter (after n - 1 rounds rank r holds block r + 1 reduced),
// then ring allgather of the reduced blocks. Commutative ops only: each
// block is combined starting from a different rank.
void ring_allreduce(Schedule& s, const void* send, void* recv, std::size_t count) {
  const std::size_t eb = s.operation().element_bytes;
  const auto n = static_cast<std::size_t>(s.size());
  const auto rank = static_cast<std::size_t>(s.rank());
  const Partition part{count, n};
  auto* out = static_cast<std::byte*>(recv);
  s.copy(send, recv, count * eb);
  s.end_round();
  std::byte* tmp = s.scratch(part.length(0) * eb);
  const auto right = static_cast<std::int32_t>((rank + 1) % n);
  const auto left = static_cast<std::int32_t>((rank + n - 1) % n);
  for (std::size_t k = 0; k + 1 < n; ++k) {
    const std::size_t give = (rank + n - k) % n;
    const std::size_t take = (rank + 2 * n - k - 1) % n;
    s.recv(left, tmp, part.length(take) * eb);
    s.send(right, out + part.start(give) * eb, part.length(give) * eb);
    s.reduce(tmp, out + part.start(take) * eb, part.length(take));
    s.end_round();
  }
  for (std::size_t k = 0; k + 1 < n; ++k) {
    const std::size_t give = (rank + 1 + n - k) % n;
    const std::size_t take = (rank + n - k) % n;
    s.recv(left, out + part.start(take) * eb, part.length(take) * eb);
    s.send(right, out + part.start(give) * eb, part.length(give) * eb);
    s.end_round();
  }
}

}  // namespace

void build_reduce(Schedule& s, const void* send, void* recv, std::size_t count, std::int32_t root) {
  const Operation& op = s.operation();
  const std::size_t bytes = count * op.element_bytes;
  const std::int32_t n = s.size();
  const std::int32_t tree_root = op.commutative ? root : 0;
  const std::int32_t me = (s.rank() - tree_root + n) % n;
  const auto actual = [&](std::int32_t relative) { return (relative + tree_root) % n; };
  // `acc` holds the reduction of our subtree so far, always the lower
  // ranks' part: a child's arriving block is combined as acc op block.
  const auto* acc = static_cast<const std::byte*>(send);
  std::byte* spare[2] = {nullptr, nullptr};
  for (std::int32_t mask = 1; mask < n; mask <<= 1) {
    if (me & mask) {
      s.send(actual(me - mask), acc, bytes);
      s.end_round();
      break;
    }
    if (me + mask >= n) continue;
    if (spare[0] == nullptr) {
      spare[0] = s.scratch(bytes);
      spare[1] = s.scratch(bytes);
    }
    std::byte* incoming = acc == spare[0] ? spare[1] : spare[0];
    s.recv(actual(me + mask), incoming, bytes);
    s.reduce(acc, incoming, count);
    s.end_round();
    acc = incoming;
  }
  if (me == 0) {
    if (tree_root == root)
      s.copy(acc, recv, bytes);
    else
      s.send(root, acc, bytes);
    s.end_round();
  }
  if (s.rank() == root && tree_root != root) {
    s.recv(tree_root, recv, bytes);
    s.end_round();
  }
}

bool allreduce_halves(const Operation& op, std::int32_t n, std::size_t count) {
  const auto size = static_cast<std::size_t>(n);
  return op.commutative && n > 1 && (size & (size - 1)) == 0 && count >= size &&
         count * op.element_bytes >= kHalvingAllreduceFrom;
}

void build_allreduce(Schedule& s, const void* send, void* recv, std::size_t count) {
  const Operation& op = s.operation();
  const auto n = static_cast<std::size_t>(s.size());
  if (allreduce_halves(op, s.size(), count))
    rabenseifner_allreduce(s, send, recv, count);
  else if (op.commutative && n > 2 && count >= n && count * op.element_bytes >= kRingAllreduceFrom)
    ring_allreduce(s, send, recv, count);
  else
    recursive_doubling_allreduce(s, send, recv, count);
}

void build_reduce_scatter(Schedule& s, const void* send, void* recv, const std::vector<std::size_t>& counts) {
  const std::size_t eb = s.operation().element_bytes;
  std::size_t total = 0;
  Blocks blocks;
  for (std::size_t c : counts) {
    blocks.offset.push_back(total * eb);
    blocks.bytes.push_back(c * eb);
    total += c;
  }
  blocks.base = s.rank() == 0 ? s.scratch(total * eb) : nullptr;
  build_reduce(s, send, blocks.base, total, 0);
  build_scatter(s, blocks, recv, counts[static_cast<std::size_t>(s.rank())] * eb, 0);
}

}  // namespace shmpi::runtime
