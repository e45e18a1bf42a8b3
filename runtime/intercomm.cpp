#include "runtime/intercomm.hpp"

#include "runtime/collectives.hpp"
#include "runtime/context.hpp"
#include "runtime/context_agreement.hpp"
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

std::uint32_t agree_inter_context(Context& context, const Communicator& inter, const char* call,
                                  std::int32_t high, std::int32_t* remote_high) {
  const Communicator local = local_side(inter);
  ContextAgreement agreement(context, kInterContexts);
  ContextProposal ours = agreement.proposal();
  max_over(context, local, ours, call);
  // The first exchange between the groups carries `high` along.
  struct Swapped {
    ContextProposal proposal;
    std::int32_t high;
  };
  const Swapped out{ours, high};
  Swapped in{};
  swap_between_leaders(context, inter, &out, &in, sizeof out, kInterAgreeTag, call);
  bcast(context, local, &in, sizeof in, 0, call);
  if (remote_high != nullptr) *remote_high = in.high;
  return agreement.settle(max_of(ours, in.proposal), [&](ContextProposal& value) { max_over_both(context, inter, value, call); });
}

}  // namespace shmpi::runtime
