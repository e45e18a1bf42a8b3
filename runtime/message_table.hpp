// MessageTable: the MPI_Message handles of matched probes (MPI_Mprobe):
// each names a message taken out of matching, waiting for MPI_Mrecv.
#pragma once

#include <vector>

#include "mpi.h"
#include "pml/unexpected_store.hpp"

namespace shmpi::runtime {

struct MatchedMessage {
  pml::Unexpected* message = nullptr;
  MPI_Comm comm = MPI_COMM_NULL;
};

class MessageTable {
 public:
  MPI_Message add(const MatchedMessage& m) {
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i].message == nullptr) {
        slots_[i] = m;
        return static_cast<MPI_Message>(i + 1);
      }
    }
    slots_.push_back(m);
    return static_cast<MPI_Message>(slots_.size());
  }
  // The message behind `handle`, or nullptr.
  const MatchedMessage* find(MPI_Message handle) const noexcept {
    if (handle <= MPI_MESSAGE_NULL || static_cast<std::size_t>(handle) > slots_.size()) return nullptr;
    const MatchedMessage& m = slots_[static_cast<std::size_t>(handle) - 1];
    return m.message != nullptr ? &m : nullptr;
  }
  void remove(MPI_Message handle) noexcept { slots_[static_cast<std::size_t>(handle) - 1] = MatchedMessage{}; }

 private:
  std::vector<MatchedMessage> slots_;
};

}  // namespace shmpi::runtime
