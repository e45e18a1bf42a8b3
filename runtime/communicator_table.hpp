// CommunicatorTable: the communicators of this process, by MPI_Comm handle,
// and the allocation of context ids.
//
// Context ids: every communicator uses two (context for user messages,
// context + 1 for internal collectives). MPI_COMM_WORLD has 0, MPI_COMM_SELF
// has 2. A new communicator's members agree on ids none of them uses
// (runtime/context_agreement.hpp), each reserving them with
// reserve_context(). An intercommunicator takes four (runtime/intercomm.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "mpi.h"
#include "runtime/communicator.hpp"
#include "runtime/stable_slots.hpp"

namespace shmpi::runtime {

class ContextAgreement;

class CommunicatorTable {
 public:
  CommunicatorTable(std::uint32_t world_rank, std::uint32_t world_size);

  // The communicator behind `handle`, or nullptr if it names none.
  Communicator* find(MPI_Comm handle) noexcept {
    if (handle <= MPI_COMM_NULL || static_cast<std::size_t>(handle) >= slots_.size()) return nullptr;
    auto& slot = slots_[static_cast<std::size_t>(handle)];
    return slot ? &*slot : nullptr;
  }

  // Adds `comm` and returns its new handle (reusing freed ones). A
  // communicator without a name is called "communicator <handle>". Adding
  // moves no other communicator (another thread may hold one across a wait).
  MPI_Comm add(Communicator comm);
  // Frees `handle`; false for the predefined communicators or unknown ones.
  bool free(MPI_Comm handle) noexcept;

  // The smallest context id this process has never used.
  std::uint32_t next_context() const noexcept { return next_context_; }
  // Marks `context` and `context + 1` as used.
  void reserve_context(std::uint32_t context) noexcept {
    if (context + 2 > next_context_) next_context_ = context + 2;
  }

  // Context agreements running in the background (MPI_Comm_idup), which
  // may reserve ids whenever the rank waits (runtime/context_agreement.hpp).
  const std::vector<ContextAgreement*>& background_agreements() const noexcept { return background_; }
  void add_background_agreement(ContextAgreement* agreement) { background_.push_back(agreement); }
  void remove_background_agreement(ContextAgreement* agreement) noexcept { std::erase(background_, agreement); }

 private:
  StableSlots<std::optional<Communicator>> slots_;  // index = handle; 0 = MPI_COMM_NULL
  std::uint32_t next_context_ = 4;
  std::vector<ContextAgreement*> background_;
};

}  // namespace shmpi::runtime
