// Intercommunicators: two disjoint groups joined by one communicator
// (runtime/communicator.hpp says how one is stored). What creating,
// duplicating and merging them share: each group's own intracommunicator,
// and exchanges between the two groups' leaders (local rank 0 of each).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "runtime/communicator.hpp"

namespace shmpi::runtime {

class Context;

// The intracommunicator of our own group of `inter` (contexts
// inter.context + 2 and + 3), for collectives within the group.
Communicator local_side(const Communicator& inter);

// The leaders swap `bytes` bytes over inter's collective context (with
// `tag`); every other rank does nothing.
void swap_between_leaders(Context& context, const Communicator& inter, const void* out, void* in, std::size_t bytes,
                          std::int32_t tag, const char* call);

// A context id no rank of either group has used, agreed over both groups
// (runtime/context_agreement.hpp); every member reserves four ids from it
// (enough for an intercommunicator). `high` is exchanged along:
// `remote_high` gets the other group's value (for MPI_Intercomm_merge).
// Throws std::bad_alloc.
std::uint32_t agree_inter_context(Context& context, const Communicator& inter, const char* call,
                                  std::int32_t high = 0, std::int32_t* remote_high = nullptr);

}  // namespace shmpi::runtime

namespace shmpi::runtime {

// MPI_Comm_split / MPI_Comm_create on an intercommunicator (collective over
// both groups): the local ranks with our `color`, ordered by key (ties by
// rank), joined to the remote ranks with the same color; nothing for
// MPI_UNDEFINED or when either side is empty. Throws std::bad_alloc.
std::optional<Communicator> split_intercomm(Context& context, const Communicator& inter, int color, int key,
                                            const char* call);

}  // namespace shmpi::runtime
