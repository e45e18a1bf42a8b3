// Splitting an intercommunicator: every rank's (color, key) is gathered in
// its group, the leaders swap their groups' lists, and each rank picks its
// color's ranks from both. Every resulting intercommunicator takes the same
// context ids, agreed over both groups (runtime/context_agreement.hpp; the
// proposals ride along in the lists): they are disjoint.
#include <algorithm>
#include <vector>

#include "runtime/collectives.hpp"
#include "runtime/context.hpp"
#include "runtime/context_agreement.hpp"
#include "runtime/internal_channel.hpp"
#include "runtime/intercomm.hpp"

namespace shmpi::runtime {
namespace {

struct SplitEntry {
  std::int32_t color;
  std::int32_t key;
  ContextProposal proposal;
};

// World ranks of the ranks with `color`, by key, ties by rank.
std::vector<std::uint32_t> members_of(const std::vector<SplitEntry>& entries, const std::vector<std::uint32_t>& world,
                                      int color) {
  std::vector<std::size_t> picked;
  for (std::size_t r = 0; r < entries.size(); ++r)
    if (entries[r].color == color) picked.push_back(r);
  std::stable_sort(picked.begin(), picked.end(),
                   [&](std::size_t a, std::size_t b) { return entries[a].key < entries[b].key; });
  std::vector<std::uint32_t> out;
  for (std::size_t r : picked) out.push_back(world[r]);
  return out;
}

}  // namespace

std::optional<Communicator> split_intercomm(Context& context, const Communicator& inter, int color, int key,
                                            const char* call) {
  const Communicator local = local_side(inter);
  ContextAgreement agreement(context, kInterContexts);
  const SplitEntry mine{color, key, agreement.proposal()};
  std::vector<SplitEntry> ours(static_cast<std::size_t>(local.size));
  allgather(context, local, &mine, ours.data(), sizeof mine, call);
  std::vector<SplitEntry> theirs(static_cast<std::size_t>(inter.size));
  if (inter.rank == 0) {
    InternalChannel channel(context, inter.collective_context(), 0, kInterAgreeTag, call);
    channel.sendrecv(inter.world_rank(0), 0, ours.data(), ours.size() * sizeof(SplitEntry), theirs.data(),
                     theirs.size() * sizeof(SplitEntry));
  }
  bcast(context, local, theirs.data(), theirs.size() * sizeof(SplitEntry), 0, call);
  ContextProposal agreed{0, 0};
  for (const SplitEntry& e : ours) agreed = max_of(agreed, e.proposal);
  for (const SplitEntry& e : theirs) agreed = max_of(agreed, e.proposal);
  const std::uint32_t id =
      agreement.settle(agreed, [&](ContextProposal& value) { max_over_both(context, inter, value, call); });
  if (color == MPI_UNDEFINED) return std::nullopt;
  Communicator part;
  part.inter = true;
  part.context = id;
  part.errhandler = inter.errhandler;
  part.local_world_ranks = members_of(ours, inter.local_world_ranks, color);
  part.world_ranks = members_of(theirs, inter.world_ranks, color);
  if (part.world_ranks.empty()) return std::nullopt;
  part.size = static_cast<std::int32_t>(part.world_ranks.size());
  const auto me = std::find(part.local_world_ranks.begin(), part.local_world_ranks.end(), context.rank());
  part.rank = static_cast<std::int32_t>(me - part.local_world_ranks.begin());
  return part;
}

}  // namespace shmpi::runtime
