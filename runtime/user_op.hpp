// Reduction operations as collectives apply them: the predefined MPI_Op
// handles (kernels in runtime/reduce_op.cpp) and the operations a program
// creates with MPI_Op_create, kept in a per-process table (UserOps).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "datatype/type.hpp"
#include "mpi.h"
#include "runtime/reduce_op.hpp"
#include "runtime/stable_slots.hpp"

namespace shmpi::runtime {

// A user function and whether the program declared it commutative.
struct UserOp {
  MPI_User_function* function = nullptr;
  bool commutative = true;
};

// How one collective call combines elements of its datatype: either a
// predefined op applied to the datatype's base elements, or the user's
// function called with the call's own datatype handle.
struct Operation {
  MPI_Op op = MPI_OP_NULL;
  MPI_User_function* user = nullptr;  // nullptr: predefined `op`
  MPI_Datatype type = MPI_DATATYPE_NULL;  // user: the call's datatype; predefined: its base type
  std::size_t per_element = 1;     // predefined: base elements in one element of the call's type
  std::size_t element_bytes = 0;   // bytes of one element of the call's datatype
  bool commutative = true;
  // A user op on a datatype that is not contiguous, whose elements a
  // schedule holds packed: apply() unpacks both operands into buffers laid
  // out as the datatype, calls the user function there (it reads the
  // datatype's layout) and packs the result back. Null otherwise.
  struct Unpacked;
  std::shared_ptr<const Unpacked> unpacked;
  // Predefined: how the operands hold a padded pair (packed for a derived
  // type of MPI_DOUBLE_INT, as the C struct for MPI_DOUBLE_INT itself).
  PairLayout pairs = PairLayout::CStruct;

  // inout[i] = in[i] op inout[i] for `count` elements of the call's type
  // (MPI's operand order: `in` holds the lower ranks' contribution).
  void apply(const void* in, void* inout, std::size_t count) const noexcept;
  // For a user op: operands come packed, `layout` is the datatype's, and
  // apply() is given at most `capacity` elements at a time. Throws
  // std::bad_alloc.
  void unpack_operands(datatype::TypeRef layout, std::size_t capacity);
};

// The operations MPI_Op_create made. Handles start at kFirstUserOp and are
// reused once freed.
class UserOps {
 public:
  static constexpr MPI_Op kFirstUserOp = SHMPI_FIRST_USER_OP;

  MPI_Op create(MPI_User_function* function, bool commutative);
  // Frees a user op; false if `op` is not one.
  bool free(MPI_Op op) noexcept;
  // The user op behind `op`, or nullptr.
  const UserOp* find(MPI_Op op) const noexcept {
    if (op < kFirstUserOp) return nullptr;
    const auto i = static_cast<std::size_t>(op - kFirstUserOp);
    return i < ops_.size() && ops_[i] ? &*ops_[i] : nullptr;
  }

 private:
  StableSlots<std::optional<UserOp>> ops_;  // index = handle - kFirstUserOp; never moves (runtime/stable_slots.hpp)
};

}  // namespace shmpi::runtime
