#include "runtime/collectives.hpp"

#include "runtime/context.hpp"

namespace shmpi::runtime {
namespace {

constexpr std::int32_t kBarrierTag = 1;

}  // namespace

void barrier(Context& context, const Communicator& comm) noexcept {
  const std::int32_t n = comm.size;
  const std::uint32_t ctx = comm.collective_context();
  for (std::int32_t distance = 1; distance < n; distance <<= 1) {
    const std::int32_t to = (comm.rank + distance) % n;
    const std::int32_t from = (comm.rank - distance + n) % n;
    pml::Request send;
    pml::Request recv;
    context.pml().start_recv(recv, pml::Envelope{ctx, from, kBarrierTag}, nullptr, 0);
    context.pml().start_send(send, comm.world_rank(to), pml::Envelope{ctx, comm.rank, kBarrierTag}, nullptr, 0);
    context.wait(send, BlockedCall{"MPI_Barrier", static_cast<std::int32_t>(comm.world_rank(to)), kBarrierTag, 0, ctx});
    context.wait(recv, BlockedCall{"MPI_Barrier", static_cast<std::int32_t>(comm.world_rank(from)), kBarrierTag, 0, ctx});
  }
}

}  // namespace shmpi::runtime
