// Internal collectives over point-to-point, on each communicator's
// collective context so they never match user messages. Each collective has
// its own tag, so a message of one can never be taken by another even when
// different collectives follow each other closely; within one collective,
// every receive names its source, so MPI's non-overtaking order keeps
// consecutive calls apart.
//
// All of them must be called by every rank of the communicator, in the same
// order, with matching sizes (MPI's rules for collectives).
#pragma once

#include <cstddef>
#include <cstdint>

#include "mpi.h"
#include "runtime/coll_schedules.hpp"
#include "runtime/communicator.hpp"
#include "runtime/reduce_op.hpp"

namespace shmpi::runtime {

class Context;

// What a reduction combines: `count` elements of the predefined datatype
// `type` (a contiguous derived type reduces as its base elements), `bytes`
// bytes in all. The op must apply to the type (op_applies) and, like every
// predefined op, be commutative.
struct Reduction {
  MPI_Op op;
  MPI_Datatype type;
  std::size_t count;
  std::size_t bytes;
  PairLayout pairs = PairLayout::CStruct;  // how a padded pair is laid out (runtime/reduce_op.hpp)
};

// Dissemination barrier: ceil(log2 n) rounds of one send and one receive.
void barrier(Context& context, const Communicator& comm, const char* call = "MPI_Barrier") noexcept;

// Binomial tree from `root`: ceil(log2 n) rounds; a parent starts the sends
// to all its children at once, the largest subtree first.
void bcast(Context& context, const Communicator& comm, void* buffer, std::size_t bytes, std::int32_t root,
           const char* call = "MPI_Bcast");

// Binomial tree towards `root`. `send` holds our contribution; at the root
// `recv` receives the result and may equal `send` (MPI_IN_PLACE). `recv` is
// unused elsewhere. Throws std::bad_alloc (temporary buffers).
void reduce(Context& context, const Communicator& comm, const void* send, void* recv, const Reduction& reduction,
            std::int32_t root, const char* call = "MPI_Reduce");

// Recursive doubling, with the usual fix for sizes that are not a power of
// two (the first 2*rem ranks pair up first; the odd one of each pair takes
// part and hands the result back). `buffer` holds our contribution and
// receives the result. Every partial result is computed as lower-rank
// operand op higher-rank operand, so every rank ends with the same bits.
// Throws std::bad_alloc.
void allreduce(Context& context, const Communicator& comm, void* buffer, const Reduction& reduction,
               const char* call = "MPI_Allreduce");

// Two ranks: each combines one half of the vector (rank 0 the lower) and
// they swap the combined halves, so each moves the vector once but
// combines only half of it, where recursive doubling combines all of it.
// Each element is combined on one rank only, so both end with the same
// bits. For vectors of at least kPairHalvesFrom bytes and two elements.
// `send` may equal `recv` (MPI_IN_PLACE). Throws std::bad_alloc.
void allreduce_pair_halves(Context& context, const Communicator& comm, const void* send, void* recv,
                           const Reduction& reduction, const char* call = "MPI_Allreduce");
// Below it the second round costs more than the halved combining saves
// (osu_allreduce at 2 ranks; the runs are in the commit that set it).
inline constexpr std::size_t kPairHalvesFrom = 16 * 1024;

// A 2-rank communicator's blocking allgather(v) and alltoall(v,w): our
// `out_bytes` at `out` go to the other rank, its block comes back into
// block `1 - rank` of `recv` (unpacked there if its datatype is not
// contiguous). One exchange, no schedule: the schedule's set-up cost as
// much as the exchange at small sizes (osu_allgather 2 ranks 4 B: 1.0 us
// against 0.55 for Open MPI). Up to kPairExchangeMax bytes a block, both
// ways (a choice both ranks make alike): above, a block packed or copied
// aside would take fresh pages on every call (a buffer past malloc's mmap
// threshold), which fault at ~15 us a page on these VMs (osu_alltoall 2
// ranks 256 KiB: 1.6 ms), and the schedule is as fast as Open MPI anyway.
// Throws std::bad_alloc.
inline constexpr std::size_t kPairExchangeMax = 64 * 1024;
void exchange_with_peer(Context& context, const Communicator& comm, const void* out, std::size_t out_bytes,
                        const Blocks& recv, const char* call);
// The same into `in_bytes` at `in`.
void exchange_with_peer(Context& context, const Communicator& comm, const void* out, std::size_t out_bytes, void* in,
                        std::size_t in_bytes, const char* call) noexcept;

// A 2-rank communicator's blocking gather(v), up to kPairExchangeMax bytes
// (a choice both ranks make alike, by the non-root's block): one message,
// no schedule. The non-root sends its `bytes` at `out`; the root receives
// them into block `1 - root` of `recv` (unpacked there if its datatype is
// not contiguous). Throws std::bad_alloc.
void send_to_root(Context& context, const Communicator& comm, const void* out, std::size_t bytes, const char* call);
void receive_from_peer(Context& context, const Communicator& comm, const Blocks& recv, const char* call);

// The same for a 2-rank scatter(v): the root sends block `1 - root` of
// `send` (packed first if its datatype is not contiguous); the other rank
// receives `bytes` into `in`, a contiguous buffer. Throws std::bad_alloc.
void send_to_peer(Context& context, const Communicator& comm, const Blocks& send, const char* call);
void receive_from_root(Context& context, const Communicator& comm, void* in, std::size_t bytes, const char* call);

// Bruck's allgather: ceil(log2 n) rounds. `recv` receives n blocks of
// `bytes_each` bytes, block i from rank i. Throws std::bad_alloc.
void allgather(Context& context, const Communicator& comm, const void* send, void* recv, std::size_t bytes_each,
               const char* call);

}  // namespace shmpi::runtime
