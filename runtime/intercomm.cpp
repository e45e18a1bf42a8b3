#include "runtime/intercomm.hpp"

#include <algorithm>

#include "runtime/collectives.hpp"
#include "runtime/context.hpp"
#include "runtime/internal_channel.hpp"

namespace shmpi::runtime {

Communicator local_side(const Communicator& inter) {
  Communicator local;
  local.context = inter.context + 2;
  local.rank = inter.rank;
  local.size = inter.group_size();
  local.world_ranks = inter.local_world_ranks;
  local.errhandler = inter.errhandler;
  local.name = inter.name;
  local.handle = inter.handle;
  return local;
}

void swap_between_leaders(Context& context, const Communicator& inter, const void* out, void* in, std::size_t bytes,
                          std::int32_t tag, const char* call) {
  if (inter.rank != 0) return;
  InternalChannel channel(context, inter.collective_context(), 0, tag, call);
  channel.sendrecv(inter.world_rank(0), 0, out, bytes, in, bytes);
}

void reserve_inter_contexts(Context& context, std::uint32_t first) noexcept {
  context.communicators().reserve_context(first);
  context.communicators().reserve_context(first + 2);
}

std::uint32_t agree_inter_context(Context& context, const Communicator& inter, const char* call,
                                  std::int32_t high, std::int32_t* remote_high) {
  const Communicator local = local_side(inter);
  std::uint32_t mine = context.communicators().next_context();
  allreduce(context, local, &mine, Reduction{MPI_MAX, MPI_UINT32_T, 1, sizeof mine}, call);
  // Leaders swap (context, high); each then tells its group.
  std::int32_t out[2] = {static_cast<std::int32_t>(mine), high};
  std::int32_t in[2] = {0, 0};
  swap_between_leaders(context, inter, out, in, sizeof out, kInterAgreeTag, call);
  bcast(context, local, in, sizeof in, 0, call);
  const std::uint32_t agreed = std::max(mine, static_cast<std::uint32_t>(in[0]));
  reserve_inter_contexts(context, agreed);
  if (remote_high != nullptr) *remote_high = in[1];
  return agreed;
}

}  // namespace shmpi::runtime
