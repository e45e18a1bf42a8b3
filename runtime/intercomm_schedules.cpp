// Intercommunicator schedules: direct exchanges with the remote group.
#include "runtime/intercomm_schedules.hpp"

#include "mpi.h"

namespace shmpi::runtime {
namespace {

// Receives `bytes` from every remote rank, remote rank i's at i * bytes of
// a scratch buffer; returns the buffer.
std::byte* receive_from_each(Schedule& s, std::size_t bytes) {
  const auto n = static_cast<std::size_t>(s.size());
  std::byte* all = s.scratch(bytes * n);
  if (bytes != 0)
    for (std::size_t i = 0; i < n; ++i) s.recv(static_cast<std::int32_t>(i), all + i * bytes, bytes);
  return all;
}

// out = v0 op (v1 op (... op vn-1)) for the `count` elements at
// `first` + i * stride (remote rank i's operand), as local steps of the
// round being built: they run once its transfers have completed.
void fold_in_rank_order(Schedule& s, const std::byte* first, std::size_t stride, void* out, std::size_t count) {
  const std::int32_t n = s.size();
  const std::size_t bytes = count * s.operation().element_bytes;
  s.copy(first + static_cast<std::size_t>(n - 1) * stride, out, bytes);
  for (std::int32_t i = n - 2; i >= 0; --i) s.reduce(first + static_cast<std::size_t>(i) * stride, out, count);
}

}  // namespace

void build_inter_barrier(Schedule& s) {
  for (std::int32_t i = 0; i < s.size(); ++i) {
    s.recv(i, nullptr, 0);
    s.send(i, nullptr, 0);
  }
  s.end_round();
}

void build_inter_bcast(Schedule& s, void* buffer, std::size_t bytes, std::int32_t root) {
  if (bytes == 0 || root == MPI_PROC_NULL) return;
  if (root == MPI_ROOT)
    for (std::int32_t i = 0; i < s.size(); ++i) s.send(i, buffer, bytes);
  else
    s.recv(root, buffer, bytes);
  s.end_round();
}

void build_inter_gather(Schedule& s, const void* send, std::size_t send_bytes, const Blocks& recv, std::int32_t root) {
  if (root == MPI_ROOT) {
    for (std::int32_t i = 0; i < s.size(); ++i)
      if (recv.size_of(i) != 0) s.recv(i, recv.at(i), recv.size_of(i));
  } else if (root != MPI_PROC_NULL && send_bytes != 0) {
    s.send(root, send, send_bytes);
  }
  s.end_round();
}

void build_inter_scatter(Schedule& s, const Blocks& send, void* recv, std::size_t recv_bytes, std::int32_t root) {
  if (root == MPI_ROOT) {
    for (std::int32_t i = 0; i < s.size(); ++i)
      if (send.size_of(i) != 0) s.send(i, send.at(i), send.size_of(i));
  } else if (root != MPI_PROC_NULL && recv_bytes != 0) {
    s.recv(root, recv, recv_bytes);
  }
  s.end_round();
}

void build_inter_allgather(Schedule& s, const void* send, std::size_t send_bytes, const Blocks& recv) {
  for (std::int32_t i = 0; i < s.size(); ++i) {
    if (recv.size_of(i) != 0) s.recv(i, recv.at(i), recv.size_of(i));
    if (send_bytes != 0) s.send(i, send, send_bytes);
  }
  s.end_round();
}

void build_inter_alltoall(Schedule& s, const Blocks& send, const Blocks& recv) {
  for (std::int32_t i = 0; i < s.size(); ++i) {
    if (recv.size_of(i) != 0) s.recv(i, recv.at(i), recv.size_of(i));
    if (send.size_of(i) != 0) s.send(i, send.at(i), send.size_of(i));
  }
  s.end_round();
}

void build_inter_reduce(Schedule& s, const void* send, void* recv, std::size_t count, std::int32_t root) {
  const std::size_t bytes = count * s.operation().element_bytes;
  if (bytes == 0 || root == MPI_PROC_NULL) return;
  if (root == MPI_ROOT) {
    fold_in_rank_order(s, receive_from_each(s, bytes), bytes, recv, count);
  } else {
    s.send(root, send, bytes);
  }
  s.end_round();
}

void build_inter_allreduce(Schedule& s, const void* send, void* recv, std::size_t count) {
  const std::size_t bytes = count * s.operation().element_bytes;
  if (bytes == 0) return;
  const bool leader = s.rank() == 0;
  // What our leader folds is the remote group's reduction, the result our
  // group wants; it reaches us through the remote leader (the only way back
  // to our own group on this communicator).
  std::byte* folded = leader ? s.scratch(bytes) : nullptr;
  std::byte* relay = leader ? s.scratch(bytes) : nullptr;
  s.send(0, send, bytes);
  if (leader) fold_in_rank_order(s, receive_from_each(s, bytes), bytes, folded, count);
  s.end_round();
  if (leader) {
    s.recv(0, relay, bytes);
    s.send(0, folded, bytes);
    s.end_round();
  }
  s.recv(0, recv, bytes);
  if (leader)
    for (std::int32_t i = 0; i < s.size(); ++i) s.send(i, relay, bytes);
  s.end_round();
}

void build_inter_reduce_scatter(Schedule& s, const void* send, std::size_t count, void* recv, std::size_t first,
                                std::size_t mine) {
  const std::size_t element = s.operation().element_bytes;
  const std::size_t bytes = count * element;
  if (bytes == 0) return;
  for (std::int32_t i = 0; i < s.size(); ++i) s.send(i, send, bytes);
  const std::byte* all = receive_from_each(s, bytes);
  if (mine != 0) fold_in_rank_order(s, all + first * element, bytes, recv, mine);
  s.end_round();
}

void build_inter_reduce_scatter_block(Schedule& s, const void* send, std::size_t each_remote, void* recv,
                                      std::size_t mine) {
  const std::size_t element = s.operation().element_bytes;
  const auto* vector = static_cast<const std::byte*>(send);
  if (each_remote != 0)
    for (std::int32_t i = 0; i < s.size(); ++i)
      s.send(i, vector + static_cast<std::size_t>(i) * each_remote * element, each_remote * element);
  if (mine != 0) fold_in_rank_order(s, receive_from_each(s, mine * element), mine * element, recv, mine);
  s.end_round();
}

}  // namespace shmpi::runtime
