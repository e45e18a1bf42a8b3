// Internal collectives over point-to-point, on each communicator's
// collective context so they never match user messages.
#pragma once

#include "runtime/communicator.hpp"

namespace shmpi::runtime {

class Context;

// Dissemination barrier: ceil(log2 n) rounds of one send and one receive.
void barrier(Context& context, const Communicator& comm) noexcept;

}  // namespace shmpi::runtime
