// Collectives on intercommunicators (MPI-4.1 section 6.2.2) as Schedule
// builders (runtime/schedule.hpp). A schedule built on an intercommunicator
// addresses the remote group: s.size() is the remote group's size, s.rank()
// our rank in our own group, every peer a remote rank. So each algorithm
// here is a direct exchange with the remote group, linear in its size:
// intercommunicator collectives are rare and small, and a schedule cannot
// reach our own group to build trees there.
//
// `root` of a rooted call is MPI_ROOT at the root, MPI_PROC_NULL at the
// rest of its group (an empty schedule: it still takes its tag, so the tag
// sequence stays the same on every rank), and the root's rank in the remote
// group in the other group. Buffers are bytes (packed for a datatype that is
// not contiguous, as for the intracommunicator builders); transfers of zero
// bytes are left out on both sides (MPI makes the sizes agree).
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/coll_schedules.hpp"

namespace shmpi::runtime {

// An empty message to and from every remote rank: we leave once all of
// the remote group has entered.
void build_inter_barrier(Schedule& s);
// The root sends `bytes` to every remote rank.
void build_inter_bcast(Schedule& s, void* buffer, std::size_t bytes, std::int32_t root);
// The root receives block i from remote rank i (`send` is unused there).
void build_inter_gather(Schedule& s, const void* send, std::size_t send_bytes, const Blocks& recv, std::int32_t root);
// The root sends block i to remote rank i (`recv` is unused there).
void build_inter_scatter(Schedule& s, const Blocks& send, void* recv, std::size_t recv_bytes, std::int32_t root);
// Our block to every remote rank; block i of `recv` from remote rank i.
void build_inter_allgather(Schedule& s, const void* send, std::size_t send_bytes, const Blocks& recv);
// Block i of `send` to remote rank i, block i of `recv` from it.
void build_inter_alltoall(Schedule& s, const Blocks& send, const Blocks& recv);

// Reductions combine the remote group's vectors in remote-rank order
// (r0 op (r1 op (... op rn-1))), so non-commutative user ops get MPI's
// canonical order. `count` is in elements of the schedule's Operation.
// The root receives every remote vector and folds them into `recv`.
void build_inter_reduce(Schedule& s, const void* send, void* recv, std::size_t count, std::int32_t root);
// Each group's result is the other group's reduction: every rank sends to
// the remote leader, which folds; the leaders swap what they folded; each
// leader sends what it got to every remote rank. Three rounds, n + m
// vectors each way.
void build_inter_allreduce(Schedule& s, const void* send, void* recv, std::size_t count);
// MPI_Reduce_scatter: `recvcounts` are the receiving group's, which the
// sending group does not know, so every rank sends its whole vector
// (`count` elements, the same in both groups) to every remote rank, and
// folds elements [first, first + mine) of the vectors it receives.
void build_inter_reduce_scatter(Schedule& s, const void* send, std::size_t count, void* recv, std::size_t first,
                                std::size_t mine);
// MPI_Reduce_scatter_block: block k (`each_remote` elements) of our vector
// goes to remote rank k; we fold the `mine` elements each remote rank sends.
void build_inter_reduce_scatter_block(Schedule& s, const void* send, std::size_t each_remote, void* recv,
                                      std::size_t mine);

}  // namespace shmpi::runtime
