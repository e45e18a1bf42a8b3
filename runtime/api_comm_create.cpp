// MPI entry points: communicators made from groups (MPI_Comm_create, also
// on intercommunicators, MPI_Comm_create_group), by hardware (MPI_Comm_split_type), and the
// duplicating variants (MPI_Comm_idup, MPI_Comm_dup_with_info,
// MPI_Comm_idup_with_info).
#include <algorithm>
#include <new>
#include <string>
#include <vector>

#include "runtime/api.hpp"
#include "runtime/collectives.hpp"
#include "runtime/comm_dup.hpp"
#include "runtime/comm_split.hpp"
#include "runtime/context_agreement.hpp"
#include "runtime/hardware_resource.hpp"
#include "runtime/intercomm.hpp"
#include "runtime/internal_channel.hpp"
#include "runtime/p2p.hpp"

using namespace shmpi::runtime;

namespace {

constexpr const char* kHwResourceKey = "mpi_hw_resource_type";
constexpr const char* kSharedMemory = "mpi_shared_memory";

// The communicator of `members` (world ranks, in rank order) if we are one
// of them, else nothing.
std::optional<Communicator> member_comm(Context& context, const Group& members, std::uint32_t id,
                                        MPI_Errhandler errhandler) {
  const int me = rank_in(members, context.rank());
  if (me == MPI_UNDEFINED) return std::nullopt;
  Communicator comm;
  comm.context = id;
  comm.rank = me;
  comm.size = static_cast<std::int32_t>(members.size());
  comm.world_ranks = members;
  comm.errhandler = errhandler;
  return comm;
}

// The group behind `handle` if it is a subset of `comm`; else raises.
const Group* subgroup_or_raise(Context& context, const char* call, const Communicator& comm, MPI_Group handle,
                               int& rc) {
  const Group* g = context.objects().groups.find(handle);
  if (g == nullptr) {
    rc = raise_error(context, &comm, call, MPI_ERR_GROUP, "invalid group " + std::to_string(handle));
    return nullptr;
  }
  for (std::uint32_t w : *g) {
    if (rank_in(comm.group(), w) != MPI_UNDEFINED) continue;
    rc = raise_error(context, &comm, call, MPI_ERR_GROUP,
                     "the group holds world rank " + std::to_string(w) + ", which is not in " + comm.name);
    return nullptr;
  }
  return g;
}

// The agreement's exchange among `members` only (we are number `me`):
// through the first member, on `comm`'s collective context with the
// user's tag.
//
// Every message carries its sender's rank in `comm`, and each receive names
// the one member it wants by that rank: a rank outside this group may
// already be in a later MPI_Comm_create_group with the same tag on a group
// overlapping this one (it skipped ours), and its messages to a member of
// both must wait there, unmatched, until that member gets to that call.
// A group's members call in the same order, so between any two ranks the
// messages of successive calls pair up in order (MPI's non-overtaking rule).
void max_among(Context& context, const Communicator& comm, const Group& members, int me, int tag,
               ContextProposal& value, const char* call) {
  const auto rank_of = [&](std::size_t i) { return static_cast<std::int32_t>(rank_in(comm.group(), members[i])); };
  InternalChannel channel(context, comm.collective_context(), comm.rank, internal_tag_for(tag), call);
  if (me != 0) {
    channel.send(members[0], &value, sizeof value);
    channel.recv(rank_of(0), members[0], &value, sizeof value);
    return;
  }
  for (std::size_t i = 1; i < members.size(); ++i) {
    ContextProposal theirs{0, 0};
    channel.recv(rank_of(i), members[i], &theirs, sizeof theirs);
    value = max_of(value, theirs);
  }
  for (std::size_t i = 1; i < members.size(); ++i) channel.send(members[i], &value, sizeof value);
}

int add_or_null(Context& context, std::optional<Communicator> comm, MPI_Comm* newcomm) {
  *newcomm = comm ? context.communicators().add(std::move(*comm)) : MPI_COMM_NULL;
  return MPI_SUCCESS;
}

// On an intercommunicator each group passes a subgroup of its own: the
// result joins the two (MPI_COMM_NULL if either is empty).
int create_on_intercomm(Context& context, const char* call, const Communicator& inter, const Group& members,
                        MPI_Comm* newcomm) {
  const int position = rank_in(members, context.rank());
  return add_or_null(context,
                     split_intercomm(context, inter, position == MPI_UNDEFINED ? MPI_UNDEFINED : 0, position, call),
                     newcomm);
}

// A copy of the hints of `info` (none for MPI_INFO_NULL) into `out`: a
// copy, since the attribute copy callbacks a duplicate runs may free `info`.
// MPI_SUCCESS, or MPI_ERR_INFO raised.
int hints_of(Context& context, const Communicator* c, const char* call, MPI_Info info, InfoStore& out) {
  if (info == MPI_INFO_NULL) return MPI_SUCCESS;
  const InfoStore* hints = context.objects().infos.find(info);
  if (hints == nullptr)
    return raise_error(context, c, call, MPI_ERR_INFO, "invalid info object " + std::to_string(info));
  out = *hints;
  return MPI_SUCCESS;
}

}  // namespace

// Collective over `comm`; every rank passes the same group (checked: the
// sizes must agree, which costs nothing in the allreduce of the context).
extern "C" int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  constexpr const char* kCall = "MPI_Comm_create";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (newcomm == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null newcomm pointer");
  int rc = MPI_SUCCESS;
  const Group* g = subgroup_or_raise(context, kCall, *c, group, rc);
  if (g == nullptr) return rc;
  try {
    const Group members = *g;
    if (c->inter) return create_on_intercomm(context, kCall, Communicator(*c), members, newcomm);
    const Communicator parent = *c;
    const auto n = static_cast<std::uint32_t>(members.size());
    ContextAgreement agreement(context, kIntraContexts);
    // The proposal, then the sizes: MAX of ~n is ~min(n).
    std::uint32_t first[4] = {agreement.proposal().id, agreement.proposal().shared, n, ~n};
    allreduce(context, parent, first, Reduction{MPI_MAX, MPI_UINT32_T, 4, sizeof first}, kCall);
    const std::uint32_t id = agreement.settle(
        ContextProposal{first[0], first[1]},
        [&](ContextProposal& value) { max_over(context, parent, value, kCall); });
    if (first[2] != ~first[3])
      return raise_error(context, context.communicator(comm), kCall, MPI_ERR_GROUP,
                         "the ranks passed groups of different sizes (" + std::to_string(~first[3]) + " to " +
                             std::to_string(first[2]) + ")");
    return add_or_null(context, member_comm(context, members, id, parent.errhandler), newcomm);
  } catch (const std::bad_alloc&) {
    return raise_error(context, context.communicator(comm), kCall, MPI_ERR_NO_MEM, "out of memory");
  }
}

// Collective over the group's members only; they agree through the first.
extern "C" int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
  constexpr const char* kCall = "MPI_Comm_create_group";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (c->inter) return unsupported_on_intercomm(context, *c, kCall);
  if (newcomm == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null newcomm pointer");
  if (int rc = raise_if(context, c, kCall, check_send_tag(tag))) return rc;
  int rc = MPI_SUCCESS;
  const Group* g = subgroup_or_raise(context, kCall, *c, group, rc);
  if (g == nullptr) return rc;
  try {
    const Group members = *g;
    const Communicator parent = *c;
    const int me = rank_in(members, context.rank());
    if (me == MPI_UNDEFINED) return add_or_null(context, std::nullopt, newcomm);
    const auto exchange = [&](ContextProposal& value) { max_among(context, parent, members, me, tag, value, kCall); };
    ContextAgreement agreement(context, kIntraContexts);
    ContextProposal agreed = agreement.proposal();
    exchange(agreed);
    const std::uint32_t id = agreement.settle(agreed, exchange);
    return add_or_null(context, member_comm(context, members, id, parent.errhandler), newcomm);
  } catch (const std::bad_alloc&) {
    return raise_error(context, context.communicator(comm), kCall, MPI_ERR_NO_MEM, "out of memory");
  }
}

namespace {

// MPI_COMM_TYPE_HW_GUIDED: the resource named by the info key; a name
// shmpi does not know, or a process not confined to one such resource,
// gets MPI_COMM_NULL (MPI-4.1 section 7.4.2).
int guided_color(const InfoStore& hints, std::string& resource) {
  resource = *hints.get(kHwResourceKey);
  if (resource == kSharedMemory) return 0;
  const std::optional<HardwareLevel> level = hardware_level(resource);
  if (!level) return MPI_UNDEFINED;
  return confining_resource(*level).value_or(MPI_UNDEFINED);
}

// MPI_COMM_TYPE_HW_UNGUIDED: the largest resource level that splits the
// communicator into strict subsets. Every rank's color at every level is
// gathered, so all ranks pick the same level; nothing if none splits.
std::optional<HardwareLevel> unguided_level(Context& context, const Communicator& comm, const char* call,
                                            int& color) {
  constexpr std::size_t kLevels = std::size(kHardwareLevels);
  std::int32_t mine[kLevels];
  for (std::size_t i = 0; i < kLevels; ++i) mine[i] = confining_resource(kHardwareLevels[i]).value_or(MPI_UNDEFINED);
  std::vector<std::int32_t> all(kLevels * static_cast<std::size_t>(comm.size));
  allgather(context, comm, mine, all.data(), sizeof mine, call);
  for (std::size_t i = 0; i < kLevels; ++i) {
    for (std::int32_t r = 1; r < comm.size; ++r) {
      if (all[static_cast<std::size_t>(r) * kLevels + i] == all[i]) continue;
      color = mine[i];
      return kHardwareLevels[i];
    }
  }
  return std::nullopt;
}

}  // namespace

extern "C" int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm) {
  constexpr const char* kCall = "MPI_Comm_split_type";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (c->inter) return unsupported_on_intercomm(context, *c, kCall);
  if (newcomm == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null newcomm pointer");
  const InfoStore* hints = info == MPI_INFO_NULL ? nullptr : context.objects().infos.find(info);
  if (info != MPI_INFO_NULL && hints == nullptr)
    return raise_error(context, c, kCall, MPI_ERR_INFO, "invalid info object " + std::to_string(info));
  if (split_type == MPI_COMM_TYPE_HW_GUIDED && (hints == nullptr || hints->get(kHwResourceKey) == nullptr))
    return raise_error(context, c, kCall, MPI_ERR_INFO_NOKEY,
                       std::string("MPI_COMM_TYPE_HW_GUIDED needs the info key ") + kHwResourceKey);
  if (split_type != MPI_UNDEFINED && split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_COMM_TYPE_HW_GUIDED &&
      split_type != MPI_COMM_TYPE_HW_UNGUIDED)
    return raise_error(context, c, kCall, MPI_ERR_ARG, "invalid split_type " + std::to_string(split_type));
  try {
    const Communicator parent = *c;
    std::string resource = kSharedMemory;  // every rank of a job shares this node's memory
    int color = split_type == MPI_UNDEFINED ? MPI_UNDEFINED : 0;
    if (split_type == MPI_COMM_TYPE_HW_GUIDED) color = guided_color(*hints, resource);
    if (split_type == MPI_COMM_TYPE_HW_UNGUIDED) {
      const std::optional<HardwareLevel> level = unguided_level(context, parent, kCall, color);
      if (!level) return add_or_null(context, std::nullopt, newcomm);
      resource = hardware_level_name(*level);
    }
    std::optional<Communicator> part = split(context, parent, color, key, kCall);
    if (part) part->hints.set(kHwResourceKey, resource);
    return add_or_null(context, std::move(part), newcomm);
  } catch (const std::bad_alloc&) {
    return raise_error(context, context.communicator(comm), kCall, MPI_ERR_NO_MEM, "out of memory");
  }
}

// The new communicator's handle is set at once; its context agreement runs
// in the background, the request completing once it is usable
// (runtime/comm_dup.hpp).
extern "C" int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
  constexpr const char* kCall = "MPI_Comm_idup";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (newcomm == nullptr || request == nullptr)
    return raise_error(context, c, kCall, MPI_ERR_ARG, "null newcomm or request pointer");
  return start_duplicate(context, kCall, comm, nullptr, newcomm, request);
}

extern "C" int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
  constexpr const char* kCall = "MPI_Comm_dup_with_info";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (newcomm == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null newcomm pointer");
  InfoStore hints;
  if (int rc = hints_of(context, c, kCall, info, hints)) return rc;
  return duplicate(context, kCall, comm, &hints, newcomm);
}

// MPI-4.0: MPI_Comm_idup whose new communicator gets the hints of `info`.
extern "C" int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm, MPI_Request* request) {
  constexpr const char* kCall = "MPI_Comm_idup_with_info";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (newcomm == nullptr || request == nullptr)
    return raise_error(context, c, kCall, MPI_ERR_ARG, "null newcomm or request pointer");
  InfoStore hints;
  if (int rc = hints_of(context, c, kCall, info, hints)) return rc;
  return start_duplicate(context, kCall, comm, &hints, newcomm, request);
}

SHMPI_PMPI_ALIAS(Comm_create)
SHMPI_PMPI_ALIAS(Comm_create_group)
SHMPI_PMPI_ALIAS(Comm_split_type)
SHMPI_PMPI_ALIAS(Comm_idup)
SHMPI_PMPI_ALIAS(Comm_dup_with_info)
SHMPI_PMPI_ALIAS(Comm_idup_with_info)
