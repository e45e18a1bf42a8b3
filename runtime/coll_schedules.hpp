// The collective algorithms, each written once as a Schedule builder
// (runtime/schedule.hpp): blocking calls run the schedule to completion,
// nonblocking ones hand it to Schedules. Builders append rounds, so one
// schedule can hold several phases (reduce, then scatter).
//
// Buffers are bytes: an argument whose datatype is not contiguous reaches
// them packed (runtime/coll_packing.hpp). Reductions combine elements of
// the schedule's Operation, always as lower rank op higher rank, so
// non-commutative user operations get MPI's canonical order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "datatype/type.hpp"
#include "runtime/inline_vector.hpp"
#include "runtime/schedule.hpp"

namespace shmpi::runtime {

// One block per rank in a buffer: block i is bytes[i] bytes at base + offset[i].
// In a user's buffer whose datatype is not contiguous, block i instead holds
// counts[i] elements of layouts[i] (null: a contiguous one) from base +
// offset[i], bytes[i] once packed; `layouts` is empty when every block is
// contiguous, and always in the blocks a schedule sees.
// Up to kInlineRanks blocks, the arrays take no allocation.
struct Blocks {
  static constexpr std::size_t kInlineRanks = 8;
  std::byte* base = nullptr;
  InlineVector<std::size_t, kInlineRanks> bytes;
  InlineVector<std::size_t, kInlineRanks> offset;
  std::vector<datatype::TypeRef> layouts;
  std::vector<std::size_t> counts;

  bool direct() const noexcept { return layouts.empty(); }
  // Block i lies in the buffer as its packed bytes (no datatype layout).
  bool contiguous(std::size_t i) const noexcept { return direct() || layouts[i] == nullptr; }

  std::byte* at(std::int32_t i) const noexcept { return base + offset[static_cast<std::size_t>(i)]; }
  std::size_t size_of(std::int32_t i) const noexcept { return bytes[static_cast<std::size_t>(i)]; }
  // n blocks of `each` bytes, one after another.
  static Blocks uniform(const void* base, std::size_t each, std::int32_t n);
};

// Dissemination: ceil(log2 n) rounds of one send and one receive.
void build_barrier(Schedule& s);
// Binomial tree from the root: ceil(log2 n) rounds.
void build_bcast(Schedule& s, void* buffer, std::size_t bytes, std::int32_t root);
// Linear: every rank's block goes straight to (comes straight from) the
// root, all in one round; in shared memory the root's receives overlap.
// At the root `send` may be recv.at(root) (MPI_IN_PLACE).
void build_gather(Schedule& s, const void* send, std::size_t send_bytes, const Blocks& recv, std::int32_t root);
void build_scatter(Schedule& s, const Blocks& send, void* recv, std::size_t recv_bytes, std::int32_t root);
// Up to 8 ranks every block goes straight to every rank in one round;
// larger communicators take recursive doubling (log2 n rounds, straight
// into place) on a power-of-two number of ranks, otherwise Bruck (ceil(log2
// n) rounds) for equal blocks up to kBruckLimit bytes in all and a ring
// (n - 1 rounds, each rank sending every block once) for larger ones.
// `send` may be recv.at(rank) (MPI_IN_PLACE).
void build_allgather(Schedule& s, const void* send, const Blocks& recv);
// Every exchange in one round while the largest block is up to 1 MiB (one
// round's wait instead of n - 1); pairwise exchange (n - 1 rounds, one peer
// each) for larger blocks.
void build_alltoall(Schedule& s, const Blocks& send, const Blocks& recv);

// Binomial tree: over ranks relative to the root for commutative ops, over
// ranks from 0 (then one message to the root) otherwise. `send` may equal
// `recv` at the root; `recv` is unused elsewhere.
void build_reduce(Schedule& s, const void* send, void* recv, std::size_t count, std::int32_t root);
// Recursive doubling (pairs folded first when n is not a power of two) for
// small vectors and non-commutative ops; for large commutative ones a
// reduce-scatter then an allgather (each rank moves 2(n-1)/n of the vector
// instead of log2 n whole vectors): by recursive halving and doubling on a
// power-of-two number of ranks (Rabenseifner), by rings otherwise. `send`
// may equal `recv`.
void build_allreduce(Schedule& s, const void* send, void* recv, std::size_t count);
// Whether build_allreduce takes Rabenseifner's algorithm (reduce-scatter by
// recursive halving, allgather by recursive doubling) for `count` elements
// of `op` over `n` ranks: commutative ops on a power-of-two number of ranks,
// large vectors. The blocking MPI_Allreduce takes the schedule then.
bool allreduce_halves(const Operation& op, std::int32_t n, std::size_t count);
// Reduce to rank 0, then scatter the blocks (`counts` elements each);
// `send` may equal `recv` (MPI_IN_PLACE: the input is in `recv`).
void build_reduce_scatter(Schedule& s, const void* send, void* recv, const std::vector<std::size_t>& counts);
// Recursive doubling (Hillis-Steele): log2 n rounds. Exclusive leaves
// rank 0's `recv` untouched. `send` may equal `recv`.
void build_scan(Schedule& s, const void* send, void* recv, std::size_t count, bool exclusive);

}  // namespace shmpi::runtime
