// Communicator: a group of ranks with its own matching context.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mpi.h"

namespace shmpi::runtime {

struct Communicator {
  std::uint32_t context = 0;   // user traffic; context + 1 carries internal collectives
  std::int32_t rank = 0;       // our rank in it
  std::int32_t size = 0;
  std::vector<std::uint32_t> world_ranks;  // comm rank -> world rank
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  std::string name;            // "MPI_COMM_WORLD"

  std::uint32_t world_rank(std::int32_t comm_rank) const noexcept { return world_ranks[comm_rank]; }
  std::uint32_t collective_context() const noexcept { return context + 1; }
};

}  // namespace shmpi::runtime
