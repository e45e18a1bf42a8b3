#include "runtime/user_op.hpp"

#include <climits>

#include "runtime/reduce_op.hpp"

namespace shmpi::runtime {

void Operation::apply(const void* in, void* inout, std::size_t count) const noexcept {
  if (count == 0) return;
  if (user == nullptr) {
    apply_op(op, type, in, inout, count * per_element);
    return;
  }
  // The user function takes an int count: hand it pieces that fit.
  const auto* from = static_cast<const unsigned char*>(in);
  auto* to = static_cast<unsigned char*>(inout);
  while (count > 0) {
    const int piece = count > static_cast<std::size_t>(INT_MAX) ? INT_MAX : static_cast<int>(count);
    int len = piece;
    MPI_Datatype datatype = type;
    user(const_cast<unsigned char*>(from), to, &len, &datatype);  // MPI's signature takes void*
    const std::size_t done = static_cast<std::size_t>(piece) * element_bytes;
    from += done;
    to += done;
    count -= static_cast<std::size_t>(piece);
  }
}

MPI_Op UserOps::create(MPI_User_function* function, bool commutative) {
  for (std::size_t i = 0; i < ops_.size(); ++i) {
    if (!ops_[i]) {
      ops_[i] = UserOp{function, commutative};
      return kFirstUserOp + static_cast<MPI_Op>(i);
    }
  }
  ops_.push_back(UserOp{function, commutative});
  return kFirstUserOp + static_cast<MPI_Op>(ops_.size() - 1);
}

bool UserOps::free(MPI_Op op) noexcept {
  if (find(op) == nullptr) return false;
  ops_[static_cast<std::size_t>(op - kFirstUserOp)].reset();
  return true;
}

}  // namespace shmpi::runtime
