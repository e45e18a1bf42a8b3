// MPI entry points: intercommunicators (runtime/intercomm.hpp).
//
// MPI_Intercomm_create: the local group agrees on its largest free context
// id (allreduce over local_comm); the two leaders swap it, their group's
// size and world ranks over peer_comm; each leader broadcasts what it got
// to its group. Both groups then use the larger id.
#include <algorithm>
#include <new>
#include <vector>

#include "runtime/api.hpp"
#include "runtime/collectives.hpp"
#include "runtime/internal_channel.hpp"
#include "runtime/intercomm.hpp"

using namespace shmpi::runtime;

namespace {

// What the leaders swap first.
struct LeaderHeader {
  std::uint32_t context;
  std::uint32_t size;
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
std::vector<std::uint32_t> swap_groups(Context& context, const Communicator& local, const Communicator& peer,
                                       int remote_leader, int tag, LeaderHeader& header, const char* call) {
  InternalChannel channel(context, peer.collective_context(), peer.rank, internal_tag_for(tag), call);
  const std::uint32_t to = peer.world_rank(remote_leader);
  header.size = static_cast<std::uint32_t>(local.world_ranks.size());
  LeaderHeader theirs{};
  channel.sendrecv(to, remote_leader, &header, sizeof header, &theirs, sizeof theirs);
  std::vector<std::uint32_t> remote(theirs.size);
  channel.sendrecv(to, remote_leader, local.world_ranks.data(), local.world_ranks.size() * sizeof(std::uint32_t),
                   remote.data(), remote.size() * sizeof(std::uint32_t));
  header = LeaderHeader{std::max(header.context, theirs.context), theirs.size};
  return remote;
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

int create(Context& context, const char* call, const Communicator& local, int local_leader, MPI_Comm peer_comm,
           int remote_leader, int tag, MPI_Comm* newintercomm) {
  LeaderHeader header{context.communicators().next_context(), 0};
  allreduce(context, local, &header.context, Reduction{MPI_MAX, MPI_UINT32_T, 1, sizeof header.context}, call);
  std::vector<std::uint32_t> remote;
  if (local.rank == local_leader)
    remote = swap_groups(context, local, *context.communicator(peer_comm), remote_leader, tag, header, call);
  bcast(context, local, &header, sizeof header, local_leader, call);
  remote.resize(header.size);
  bcast(context, local, remote.data(), remote.size() * sizeof(std::uint32_t), local_leader, call);
  reserve_inter_contexts(context, header.context);
  *newintercomm = context.communicators().add(intercomm_of(local, std::move(remote), header.context));
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
    const Communicator copy = *local;  // add() may move the table
    return create(context, kCall, copy, local_leader, peer_comm, remote_leader, tag, newintercomm);
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
