// SendTargetCache: what the last standard send resolved its (communicator,
// destination, datatype) to, so that the next send naming the same three
// skips the lookups and checks they need: the communicator table, the
// datatype table, the translation to a world rank. Only the arguments that
// change from call to call (count, tag, buffer) are checked again.
//
// Why: on a ping-pong of small messages everything after the receive's
// last poll is on the critical path, and those lookups were a chain of
// dependent loads, about half of MPI_Send's instructions.
//
// A freed communicator's or datatype's handle may name another one later:
// MPI_Comm_free and MPI_Type_free call forget(). Nothing else changes what
// a handle resolves to (communicators and committed datatypes are
// immutable; error handlers do not matter on a path that raises no error).
#pragma once

#include <cstddef>
#include <cstdint>

#include "mpi.h"

namespace shmpi::runtime {

struct SendTarget {
  std::uint32_t world_dest = 0;  // the destination's world rank
  std::uint32_t context = 0;     // the communicator's context id
  std::int32_t source = 0;       // our rank in the communicator
  std::size_t element = 0;       // bytes per datatype element
};

class SendTargetCache {
 public:
  // The target of (comm, dest, type), if it is the one remembered.
  const SendTarget* find(MPI_Comm comm, int dest, MPI_Datatype type) const noexcept {
    return comm == comm_ && dest == dest_ && type == type_ ? &target_ : nullptr;
  }

  // Remembers the target of a send that passed every check.
  void remember(MPI_Comm comm, int dest, MPI_Datatype type, const SendTarget& target) noexcept {
    comm_ = comm;
    dest_ = dest;
    type_ = type;
    target_ = target;
  }

  void forget() noexcept { comm_ = MPI_COMM_NULL; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;  // never a valid send's
  int dest_ = 0;
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
  SendTarget target_;
};

}  // namespace shmpi::runtime
