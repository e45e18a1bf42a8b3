// The MPI objects of a process beyond communicators, datatypes and
// requests: groups, info objects, attribute keyvals, datatype attributes,
// user error handlers and error codes. One member of Context holds them
// all, so adding an object kind does not touch Context.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "mpi.h"
#include "runtime/attributes.hpp"
#include "runtime/error_codes.hpp"
#include "runtime/group.hpp"
#include "runtime/info.hpp"
#include "runtime/stable_slots.hpp"

namespace shmpi::runtime {

// MPI_Group handles: MPI_GROUP_NULL is 0, MPI_GROUP_EMPTY is 1.
class GroupTable {
 public:
  GroupTable() : slots_(2) { slots_[MPI_GROUP_EMPTY] = Group{}; }
  const Group* find(MPI_Group handle) const noexcept {
    if (handle <= MPI_GROUP_NULL || static_cast<std::size_t>(handle) >= slots_.size()) return nullptr;
    const auto& slot = slots_[static_cast<std::size_t>(handle)];
    return slot ? &*slot : nullptr;
  }
  MPI_Group add(Group group) {
    if (group.empty()) return MPI_GROUP_EMPTY;
    std::size_t i = MPI_GROUP_EMPTY + 1;
    while (i < slots_.size() && slots_[i]) ++i;
    if (i == slots_.size()) slots_.emplace_back();
    slots_[i] = std::move(group);
    return static_cast<MPI_Group>(i);
  }
  // Frees `handle` (MPI_GROUP_EMPTY stays: it is shared); false if unknown.
  bool free(MPI_Group handle) noexcept {
    if (find(handle) == nullptr) return false;
    if (handle != MPI_GROUP_EMPTY) slots_[static_cast<std::size_t>(handle)].reset();
    return true;
  }

 private:
  StableSlots<std::optional<Group>> slots_;  // index = handle; never moves (runtime/stable_slots.hpp)
};

// The values behind the predefined communicator attributes (MPI_TAG_UB ...):
// MPI_Comm_get_attr hands out pointers to them.
struct PredefinedAttributes {
  int tag_ub = MPI_TAG_UB_VALUE;
  int host = MPI_PROC_NULL;
  int io = MPI_ANY_SOURCE;         // every rank can do I/O
  int wtime_is_global = 1;         // one node: every rank reads the same CLOCK_MONOTONIC
  int appnum = 0;
  int universe_size = 0;           // the job's size
  int lastusedcode = MPI_ERR_LASTCODE;
};

struct ObjectTables {
  explicit ObjectTables(InfoStore env) : infos(std::move(env)) {}
  GroupTable groups;
  InfoTable infos;
  KeyvalTable keyvals;
  TypeAttributes type_attributes;
  std::unordered_map<MPI_Datatype, std::string> type_names;  // set by MPI_Type_set_name
  ErrhandlerTable errhandlers;
  ErrorCodes error_codes;
  PredefinedAttributes predefined;
  std::unordered_set<void*> allocated_memory;  // MPI_Alloc_mem blocks not yet given to MPI_Free_mem
};

}  // namespace shmpi::runtime
