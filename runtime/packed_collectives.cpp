#include "runtime/packed_collectives.hpp"

#include <vector>

#include "runtime/packing.hpp"

namespace shmpi::runtime {

void bcast_packed(Context& context, const Communicator& comm, void* buffer, int count, MPI_Datatype type,
                  std::int32_t root) {
  const datatype::Type& layout = *context.datatypes().layout(type);
  const auto n = static_cast<std::uint64_t>(count);
  std::vector<std::byte> bytes(n * static_cast<std::uint64_t>(layout.size()));
  if (bytes.empty()) return;
  if (comm.rank == root) pack_elements(layout, n, buffer, bytes.data());
  bcast(context, comm, bytes.data(), bytes.size(), root);
  if (comm.rank != root) unpack_elements(layout, n, bytes.data(), bytes.size(), buffer);
}

void reduce_packed(Context& context, const Communicator& comm, const void* send, void* recv, int count,
                   MPI_Datatype type, const Reduction& reduction, std::int32_t root) {
  const datatype::Type& layout = *context.datatypes().layout(type);
  const auto n = static_cast<std::uint64_t>(count);
  std::vector<std::byte> mine(reduction.bytes), result;
  pack_elements(layout, n, send, mine.data());
  const bool at_root = comm.rank == root;
  if (at_root) result.resize(reduction.bytes);
  reduce(context, comm, mine.data(), at_root ? result.data() : nullptr, reduction, root);
  if (at_root) unpack_elements(layout, n, result.data(), result.size(), recv);
}

void allreduce_packed(Context& context, const Communicator& comm, const void* send, void* recv, int count,
                      MPI_Datatype type, const Reduction& reduction) {
  const datatype::Type& layout = *context.datatypes().layout(type);
  const auto n = static_cast<std::uint64_t>(count);
  std::vector<std::byte> bytes(reduction.bytes);
  pack_elements(layout, n, send, bytes.data());
  allreduce(context, comm, bytes.data(), reduction);
  unpack_elements(layout, n, bytes.data(), bytes.size(), recv);
}

}  // namespace shmpi::runtime
