// MPI entry points: communicators (construction beyond dup and split in
// api_comm_create.cpp, intercommunicators in api_intercomm.cpp).
//
// A new communicator's context id is agreed over the parent
// (runtime/context_agreement.hpp; MPI_Comm_split gathers the proposals
// together with color and key). Disjoint communicators made by one split
// share the id, which is safe: messages are addressed to world ranks, and a
// rank is in only one of them.
#include <algorithm>
#include <new>
#include <vector>

#include "runtime/api.hpp"
#include "runtime/attribute_hooks.hpp"
#include "runtime/collectives.hpp"
#include "runtime/comm_dup.hpp"
#include "runtime/comm_split.hpp"
#include "runtime/context_agreement.hpp"
#include "runtime/intercomm.hpp"

using namespace shmpi::runtime;

namespace {

// What each rank contributes to MPI_Comm_split.
struct SplitEntry {
  std::int32_t color;
  std::int32_t key;
  ContextProposal proposal;
};

// The communicator of the parent's ranks `members` (parent ranks, in new
// rank order), with the parent's error handler; our new rank is `rank`.
Communicator derived_from(const Communicator& parent, const std::vector<std::int32_t>& members, std::int32_t rank,
                          std::uint32_t context) {
  Communicator comm;
  comm.context = context;
  comm.rank = rank;
  comm.size = static_cast<std::int32_t>(members.size());
  comm.world_ranks.reserve(members.size());
  for (std::int32_t m : members) comm.world_ranks.push_back(parent.world_rank(m));
  comm.errhandler = parent.errhandler;
  return comm;
}

bool same_members(std::vector<std::uint32_t> a, std::vector<std::uint32_t> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

}  // namespace

namespace shmpi::runtime {

std::optional<Communicator> split(Context& context, const Communicator& parent, int color, int key, const char* call) {
  ContextAgreement agreement(context, kIntraContexts);
  const SplitEntry mine{color, key, agreement.proposal()};
  std::vector<SplitEntry> all(static_cast<std::size_t>(parent.size));
  allgather(context, parent, &mine, all.data(), sizeof(SplitEntry), call);
  ContextProposal agreed{0, 0};
  for (const SplitEntry& e : all) agreed = max_of(agreed, e.proposal);
  const std::uint32_t new_context =
      agreement.settle(agreed, [&](ContextProposal& value) { max_over(context, parent, value, call); });
  if (color == MPI_UNDEFINED) return std::nullopt;
  std::vector<std::int32_t> members;
  for (std::int32_t r = 0; r < parent.size; ++r)
    if (all[static_cast<std::size_t>(r)].color == color) members.push_back(r);
  // By key, ties by parent rank (members is already in parent rank order).
  std::stable_sort(members.begin(), members.end(), [&](std::int32_t a, std::int32_t b) {
    return all[static_cast<std::size_t>(a)].key < all[static_cast<std::size_t>(b)].key;
  });
  const auto me = std::find(members.begin(), members.end(), parent.rank) - members.begin();
  return derived_from(parent, members, static_cast<std::int32_t>(me), new_context);
}

}  // namespace shmpi::runtime

extern "C" int PMPI_Comm_rank(MPI_Comm comm, int* rank) {
  const Entry entry = enter("MPI_Comm_rank");
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, "MPI_Comm_rank", comm);
  if (rank == nullptr) return raise_error(context, c, "MPI_Comm_rank", MPI_ERR_ARG, "null rank pointer");
  *rank = c->rank;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_size(MPI_Comm comm, int* size) {
  const Entry entry = enter("MPI_Comm_size");
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, "MPI_Comm_size", comm);
  if (size == nullptr) return raise_error(context, c, "MPI_Comm_size", MPI_ERR_ARG, "null size pointer");
  *size = c->group_size();
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  constexpr const char* kCall = "MPI_Comm_dup";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (newcomm == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null newcomm pointer");
  return duplicate(context, kCall, comm, nullptr, newcomm);
}

extern "C" int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  constexpr const char* kCall = "MPI_Comm_split";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (newcomm == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null newcomm pointer");
  if (color < 0 && color != MPI_UNDEFINED)
    return raise_error(context, c, kCall, MPI_ERR_ARG,
                       "invalid color " + std::to_string(color) + " (must be >= 0 or MPI_UNDEFINED)");
  try {
    std::optional<Communicator> part =
        c->inter ? split_intercomm(context, *c, color, key, kCall) : split(context, *c, color, key, kCall);
    *newcomm = part ? context.communicators().add(std::move(*part)) : MPI_COMM_NULL;
  } catch (const std::bad_alloc&) {
    return raise_error(context, context.communicator(comm), kCall, MPI_ERR_NO_MEM, "out of memory");
  }
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_free(MPI_Comm* comm) {
  constexpr const char* kCall = "MPI_Comm_free";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (comm == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null comm pointer");
  const Communicator* c = context.communicator(*comm);
  if (c == nullptr) return invalid_communicator(context, kCall, *comm);
  if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
    return raise_error(context, c, kCall, MPI_ERR_COMM, c->name + " cannot be freed");
  if (int rc = erase_comm_attributes(context, *comm); rc != MPI_SUCCESS)
    return raise_error(context, context.communicator(*comm), kCall, rc,
                       "an attribute delete callback returned error " + std::to_string(rc));
  context.communicators().free(*comm);
  context.send_targets().forget();  // the handle may name another communicator
  *comm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int* result) {
  constexpr const char* kCall = "MPI_Comm_compare";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* a = context.communicator(comm1);
  if (a == nullptr) return invalid_communicator(context, kCall, comm1);
  const Communicator* b = context.communicator(comm2);
  if (b == nullptr) return invalid_communicator(context, kCall, comm2);
  if (result == nullptr) return raise_error(context, a, kCall, MPI_ERR_ARG, "null result pointer");
  // Intercommunicators compare both groups; never equal to an intracommunicator.
  const bool same_kind = a->inter == b->inter;
  const bool same_local = !a->inter || a->local_world_ranks == b->local_world_ranks;
  const bool similar_local = !a->inter || same_members(a->local_world_ranks, b->local_world_ranks);
  if (comm1 == comm2)
    *result = MPI_IDENT;
  else if (same_kind && same_local && a->world_ranks == b->world_ranks)
    *result = MPI_CONGRUENT;
  else if (same_kind && similar_local && same_members(a->world_ranks, b->world_ranks))
    *result = MPI_SIMILAR;
  else
    *result = MPI_UNEQUAL;
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Comm_rank)
SHMPI_PMPI_ALIAS(Comm_size)
SHMPI_PMPI_ALIAS(Comm_dup)
SHMPI_PMPI_ALIAS(Comm_split)
SHMPI_PMPI_ALIAS(Comm_free)
SHMPI_PMPI_ALIAS(Comm_compare)
