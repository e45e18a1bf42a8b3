// Collective arguments whose datatype is not contiguous, as the schedules
// see them: bytes in the schedule's scratch. An input is packed while the
// schedule is built (MPI lets a call read its send buffer at any time until
// it completes); an output is received into scratch and unpacked into the
// user's buffer by the schedule's last round (Schedule::unpack_at_end), so
// the gaps between its elements are never written. A contiguous argument
// passes through untouched: one branch, no copy, no allocation.
#pragma once

#include <cstdint>

#include "runtime/coll_call.hpp"

namespace shmpi::runtime {

// Block i of `user` (user layout) packed into `to`, and back.
void pack_block(const Blocks& user, std::size_t i, std::byte* to);
void unpack_block(const Blocks& user, std::size_t i, const std::byte* from);

namespace detail {
const void* pack_input(Schedule& s, const void* buffer, const Typed& t);
void* unpack_output(Schedule& s, void* buffer, const Typed& t);
void* pack_inout(Schedule& s, void* buffer, const Typed& t);
void pack_blocks(Schedule& s, Blocks& b);
void unpack_blocks(Schedule& s, Blocks& b, std::int32_t in_block);
}  // namespace detail

// The bytes to send for `t`'s elements at `buffer`.
inline const void* packed_input(Schedule& s, const void* buffer, const Typed& t) {
  return t.direct() ? buffer : detail::pack_input(s, buffer, t);
}
// Where to receive the bytes of `t`'s elements for `buffer`.
inline void* packed_output(Schedule& s, void* buffer, const Typed& t) {
  return t.direct() ? buffer : detail::unpack_output(s, buffer, t);
}
// Both at once (MPI_IN_PLACE, a broadcast's root): packed now, unpacked at
// the end.
inline void* packed_inout(Schedule& s, void* buffer, const Typed& t) {
  return t.direct() ? buffer : detail::pack_inout(s, buffer, t);
}

// The same for per-rank blocks, replaced by packed blocks one after another
// in scratch. For an output, block `in_block` (>= 0) also holds this rank's
// input (MPI_IN_PLACE) and is packed now.
inline void packed_input(Schedule& s, Blocks& b) {
  if (!b.direct()) detail::pack_blocks(s, b);
}
inline void packed_output(Schedule& s, Blocks& b, std::int32_t in_block = -1) {
  if (!b.direct()) detail::unpack_blocks(s, b, in_block);
}

}  // namespace shmpi::runtime
