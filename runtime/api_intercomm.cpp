// MPI entry points: intercommunicators (runtime/intercomm.hpp).
//
// MPI_Intercomm_create: the local group agrees on its proposal for the
// context id (allreduce over local_comm); the two leaders swap it, their
// group's size and world ranks over peer_comm; each leader broadcasts what
// it got to its group. Both groups then settle on the larger id
// (runtime/context_agreement.hpp), exchanging the same way.
#include <algorithm>
#include <new>
#include <optional>
#include <vector>

#include "runtime/api.hpp"
#include "runtime/collectives.hpp"
#include "runtime/context_agreement.hpp"
#include "runtime/internal_channel.hpp"
#include "runtime/intercomm.hpp"

using namespace shmpi::runtime;

namespace {

// What the leaders swap first.
struct LeaderHeader {
  ContextProposal proposal;
  std::uint32_t size;
};

// Where the local group meets the remote one: its leader talks to the
// remote leader over peer_comm, with the user's tag.
struct Bridge {
  const Communicator& local;
  int local_leader;
  const Communicator* peer;  // significant at the leader only
  int remote_leader;
  int tag;
};

// At the local leader: the checks only it can make (peer_comm and the
// remote leader are significant there only).
int check_leader_args(Context& context, const char* call, const Communicator& local, MPI_Comm peer_comm,
                      int remote_leader) {
  const Communicator* peer = context.communicator(peer_comm);
  if (peer == nullptr) return invalid_communicator(context, call, peer_comm);
  if (peer->inter) return raise_error(context, &local, call, MPI_ERR_COMM, "peer_comm is an intercommunicator");
  if (remote_leader < 0 || remote_leader >= peer->size)
    return raise_error(context, &local, call, MPI_ERR_RANK,
                       "invalid remote_leader " + std::to_string(remote_leader) + " (" + peer->name + " has " +
                           std::to_string(peer->size) + " ranks)");
  const std::uint32_t remote_world = peer->world_rank(remote_leader);
  if (std::find(local.world_ranks.begin(), local.world_ranks.end(), remote_world) != local.world_ranks.end())
    return raise_error(context, &local, call, MPI_ERR_RANK,
                       "remote_leader " + std::to_string(remote_leader) + " is in the local group");
  return MPI_SUCCESS;
}

// The leader's swap with the remote leader: header, then world ranks.
std::vector<std::uint32_t> swap_groups(Context& context, const Bridge& bridge, LeaderHeader& header,
                                       const char* call) {
  const Communicator& peer = *bridge.peer;
  InternalChannel channel(context, peer.collective_context(), peer.rank, internal_tag_for(bridge.tag), call);
  const std::uint32_t to = peer.world_rank(bridge.remote_leader);
  header.size = static_cast<std::uint32_t>(bridge.local.world_ranks.size());
  LeaderHeader theirs{};
  channel.sendrecv(to, bridge.remote_leader, &header, sizeof header, &theirs, sizeof theirs);
  std::vector<std::uint32_t> remote(theirs.size);
  channel.sendrecv(to, bridge.remote_leader, bridge.local.world_ranks.data(),
                   bridge.local.world_ranks.size() * sizeof(std::uint32_t), remote.data(),
                   remote.size() * sizeof(std::uint32_t));
  header = LeaderHeader{max_of(header.proposal, theirs.proposal), theirs.size};
  return remote;
}

// The agreement's later exchanges, over both groups through the leaders.
void max_across(Context& context, const Bridge& bridge, ContextProposal& value, const char* call) {
  max_over(context, bridge.local, value, call);
  if (bridge.local.rank == bridge.local_leader) {
    const Communicator& peer = *bridge.peer;
    InternalChannel channel(context, peer.collective_context(), peer.rank, internal_tag_for(bridge.tag), call);
    ContextProposal theirs{0, 0};
    channel.sendrecv(peer.world_rank(bridge.remote_leader), bridge.remote_leader, &value, sizeof value, &theirs,
                     sizeof theirs);
    value = max_of(value, theirs);
  }
  bcast(context, bridge.local, &value, sizeof value, bridge.local_leader, call);
}

Communicator intercomm_of(const Communicator& local, std::vector<std::uint32_t> remote, std::uint32_t context_id) {
  Communicator inter;
  inter.context = context_id;
  inter.rank = local.rank;
  inter.size = static_cast<std::int32_t>(remote.size());
  inter.world_ranks = std::move(remote);
  inter.inter = true;
  inter.local_world_ranks = local.world_ranks;
  inter.errhandler = local.errhandler;
  return inter;
}

int create(Context& context, const char* call, const Bridge& bridge, MPI_Comm* newintercomm) {
  ContextAgreement agreement(context, kInterContexts);
  LeaderHeader header{agreement.proposal(), 0};
  max_over(context, bridge.local, header.proposal, call);
  std::vector<std::uint32_t> remote;
  if (bridge.local.rank == bridge.local_leader) remote = swap_groups(context, bridge, header, call);
  bcast(context, bridge.local, &header, sizeof header, bridge.local_leader, call);
  remote.resize(header.size);
  bcast(context, bridge.local, remote.data(), remote.size() * sizeof(std::uint32_t), bridge.local_leader, call);
  const std::uint32_t id = agreement.settle(
      header.proposal, [&](ContextProposal& value) { max_across(context, bridge, value, call); });
  *newintercomm = context.communicators().add(intercomm_of(bridge.local, std::move(remote), id));
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader,
                                     int tag, MPI_Comm* newintercomm) {
  constexpr const char* kCall = "MPI_Intercomm_create";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* local = context.communicator(local_comm);
  if (local == nullptr) return invalid_communicator(context, kCall, local_comm);
  if (local->inter) return raise_error(context, local, kCall, MPI_ERR_COMM, "local_comm is an intercommunicator");
  if (newintercomm == nullptr) return raise_error(context, local, kCall, MPI_ERR_ARG, "null newintercomm pointer");
  if (local_leader < 0 || local_leader >= local->size)
    return raise_error(context, local, kCall, MPI_ERR_RANK,
                       "invalid local_leader " + std::to_string(local_leader) + " (" + local->name + " has " +
                           std::to_string(local->size) + " ranks)");
  if (int rc = raise_if(context, local, kCall, check_send_tag(tag))) return rc;
  if (local->rank == local_leader)
    if (int rc = check_leader_args(context, kCall, *local, peer_comm, remote_leader)) return rc;
  try {
    const Communicator copy = *local;  // the call's own view, whatever other threads do meanwhile
    const Communicator* peer = copy.rank == local_leader ? context.communicator(peer_comm) : nullptr;
    std::optional<Communicator> peer_copy;
    if (peer != nullptr) peer_copy = *peer;
    const Bridge bridge{copy, local_leader, peer_copy ? &*peer_copy : nullptr, remote_leader, tag};
    return create(context, kCall, bridge, newintercomm);
  } catch (const std::bad_alloc&) {
    return raise_error(context, context.communicator(local_comm), kCall, MPI_ERR_NO_MEM, "out of memory");
  }
}

// The group that passes high = false comes first; if both pass the same,
// the group holding the lower world rank among the leaders does.
extern "C" int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newintracomm) {
  constexpr const char* kCall = "MPI_Intercomm_merge";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(intercomm);
  if (c == nullptr) return invalid_communicator(context, kCall, intercomm);
  if (!c->inter) return raise_error(context, c, kCall, MPI_ERR_COMM, c->name + " is not an intercommunicator");
  if (newintracomm == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null newintracomm pointer");
  try {
    const Communicator inter = *c;
    std::int32_t remote_high = 0;
    const std::uint32_t id = agree_inter_context(context, inter, kCall, high != 0, &remote_high);
    const bool we_first = (high != 0) != (remote_high != 0) ? high == 0
                                                             : inter.local_world_ranks[0] < inter.world_ranks[0];
    Communicator merged;
    merged.context = id;
    merged.errhandler = inter.errhandler;
    const auto& first = we_first ? inter.local_world_ranks : inter.world_ranks;
    const auto& second = we_first ? inter.world_ranks : inter.local_world_ranks;
    merged.world_ranks = first;
    merged.world_ranks.insert(merged.world_ranks.end(), second.begin(), second.end());
    merged.size = static_cast<std::int32_t>(merged.world_ranks.size());
    merged.rank = inter.rank + (we_first ? 0 : static_cast<std::int32_t>(first.size()));
    *newintracomm = context.communicators().add(std::move(merged));
  } catch (const std::bad_alloc&) {
    return raise_error(context, context.communicator(intercomm), kCall, MPI_ERR_NO_MEM, "out of memory");
  }
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_test_inter(MPI_Comm comm, int* flag) {
  constexpr const char* kCall = "MPI_Comm_test_inter";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (flag == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null flag pointer");
  *flag = c->inter;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Comm_remote_size(MPI_Comm comm, int* size) {
  constexpr const char* kCall = "MPI_Comm_remote_size";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (!c->inter) return raise_error(context, c, kCall, MPI_ERR_COMM, c->name + " is not an intercommunicator");
  if (size == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null size pointer");
  *size = c->size;
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Intercomm_create)
SHMPI_PMPI_ALIAS(Intercomm_merge)
SHMPI_PMPI_ALIAS(Comm_test_inter)
SHMPI_PMPI_ALIAS(Comm_remote_size)
