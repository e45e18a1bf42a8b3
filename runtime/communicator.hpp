// Communicator: a group of ranks with its own matching context.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mpi.h"
#include "runtime/attributes.hpp"
#include "runtime/info.hpp"
#include "runtime/topology.hpp"

namespace shmpi::runtime {

// A communicator's state for the collectives through shared memory
// (runtime/shm_collectives.hpp). A copy starts afresh: a dup is a new
// communicator, numbered from its first call on all members alike.
struct ShmCollectiveState {
  std::uint32_t calls = 0;  // calls made so far: numbers their publications
  std::int8_t usable = -1;  // the slots serve it (ShmCollectives::usable): 1, 0, or -1 not known yet

  ShmCollectiveState() = default;
  ShmCollectiveState(const ShmCollectiveState& /*other*/) noexcept {}
  ShmCollectiveState& operator=(const ShmCollectiveState& /*other*/) noexcept {
    calls = 0;
    usable = -1;
    return *this;
  }
};

struct Communicator {
  std::uint32_t context = 0;   // user traffic; context + 1 carries internal collectives
  std::int32_t rank = 0;       // our rank in it
  std::int32_t size = 0;
  std::vector<std::uint32_t> world_ranks;  // comm rank -> world rank
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  std::string name;            // "MPI_COMM_WORLD"
  bool named = true;           // false: `name` is the default "communicator <handle>", MPI_Comm_get_name says ""
  MPI_Comm handle = MPI_COMM_NULL;  // its own handle (CommunicatorTable::add), for user callbacks

  // Intercommunicators: `size` and `world_ranks` describe the remote group,
  // the ranks point-to-point addresses, and `rank` is our rank in our own
  // group, `local_world_ranks`. Both groups share `context` (user traffic)
  // and context + 1 (collectives between the groups); context + 2 and + 3
  // are those of each group's own intracommunicator (runtime/intercomm.hpp).
  bool inter = false;
  std::vector<std::uint32_t> local_world_ranks;

  std::optional<Topology> topology;  // MPI_Cart_create, MPI_Graph_create, MPI_Dist_graph_create*
  AttributeList attributes;          // MPI_Comm_set_attr (runtime/api_attr.cpp)
  InfoStore hints;                   // MPI_Comm_set_info; what MPI_Comm_get_info returns
  mutable ShmCollectiveState shm;    // counts calls, even through a const view

  std::uint32_t world_rank(std::int32_t comm_rank) const noexcept { return world_ranks[comm_rank]; }
  std::uint32_t collective_context() const noexcept { return context + 1; }
  // Our own group: world ranks by rank (the local group of an intercommunicator).
  const std::vector<std::uint32_t>& group() const noexcept { return inter ? local_world_ranks : world_ranks; }
  std::int32_t group_size() const noexcept { return static_cast<std::int32_t>(group().size()); }
};

}  // namespace shmpi::runtime
