#include "runtime/communicator_table.hpp"

#include <string>
#include <utility>

namespace shmpi::runtime {

CommunicatorTable::CommunicatorTable(std::uint32_t world_rank, std::uint32_t world_size) : slots_(3) {
  Communicator world;
  world.context = 0;
  world.rank = static_cast<std::int32_t>(world_rank);
  world.size = static_cast<std::int32_t>(world_size);
  for (std::uint32_t r = 0; r < world_size; ++r) world.world_ranks.push_back(r);
  world.name = "MPI_COMM_WORLD";
  Communicator self;
  self.context = 2;
  self.rank = 0;
  self.size = 1;
  self.world_ranks = {world_rank};
  self.name = "MPI_COMM_SELF";
  world.handle = MPI_COMM_WORLD;
  self.handle = MPI_COMM_SELF;
  slots_[MPI_COMM_WORLD] = std::move(world);
  slots_[MPI_COMM_SELF] = std::move(self);
}

MPI_Comm CommunicatorTable::add(Communicator comm) {
  reserve_context(comm.context);
  std::size_t i = MPI_COMM_SELF + 1;
  while (i < slots_.size() && slots_[i]) ++i;
  if (i == slots_.size()) slots_.emplace_back();
  comm.named = !comm.name.empty();
  if (!comm.named) comm.name = "communicator " + std::to_string(i);
  comm.handle = static_cast<MPI_Comm>(i);
  slots_[i] = std::move(comm);
  return static_cast<MPI_Comm>(i);
}

bool CommunicatorTable::free(MPI_Comm handle) noexcept {
  if (handle <= MPI_COMM_SELF || find(handle) == nullptr) return false;
  slots_[static_cast<std::size_t>(handle)].reset();
  return true;
}

}  // namespace shmpi::runtime
