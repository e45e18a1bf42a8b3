#include "runtime/user_op.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>

#include "runtime/packing.hpp"
#include "runtime/reduce_op.hpp"

namespace shmpi::runtime {

// Two buffers each holding `capacity` elements of `layout` as a user's
// buffer does, element 0 at `origin` bytes in.
struct Operation::Unpacked {
  datatype::TypeRef layout;
  std::size_t capacity;
  std::size_t origin;
  std::unique_ptr<std::byte[]> in;
  std::unique_ptr<std::byte[]> inout;
};

void Operation::unpack_operands(datatype::TypeRef layout, std::size_t capacity) {
  const datatype::Type& t = *layout;
  // The bytes `capacity` elements touch, relative to element 0.
  const std::int64_t last = static_cast<std::int64_t>(capacity > 0 ? capacity - 1 : 0) * t.extent();
  const std::int64_t low = std::min<std::int64_t>(0, t.true_lb() + std::min<std::int64_t>(0, last));
  const std::int64_t high = std::max<std::int64_t>(0, t.true_ub() + std::max<std::int64_t>(0, last));
  const auto span = static_cast<std::size_t>(high - low);
  auto u = std::make_shared<Unpacked>(Unpacked{std::move(layout), capacity, static_cast<std::size_t>(-low),
                                               std::make_unique<std::byte[]>(span),
                                               std::make_unique<std::byte[]>(span)});
  unpacked = std::move(u);
}

namespace {

// The user function on packed operands (Operation::unpacked): a piece at a
// time, each unpacked, combined in the datatype's layout and packed back.
void apply_unpacked(const Operation& o, const std::byte* in, std::byte* inout, std::size_t count) noexcept {
  const Operation::Unpacked& u = *o.unpacked;
  const datatype::Type& layout = *u.layout;
  std::byte* in_at = u.in.get() + u.origin;
  std::byte* inout_at = u.inout.get() + u.origin;
  const std::size_t most = std::min<std::size_t>(u.capacity, INT_MAX);
  while (count > 0) {
    const std::size_t piece = std::min(count, most);
    const std::size_t bytes = piece * o.element_bytes;
    unpack_elements(layout, piece, in, bytes, in_at);
    unpack_elements(layout, piece, inout, bytes, inout_at);
    int len = static_cast<int>(piece);
    MPI_Datatype datatype = o.type;
    o.user(in_at, inout_at, &len, &datatype);
    pack_elements(layout, piece, inout_at, inout);
    in += bytes;
    inout += bytes;
    count -= piece;
  }
}

}  // namespace

void Operation::apply(const void* in, void* inout, std::size_t count) const noexcept {
  if (count == 0) return;
  if (user == nullptr) {
    apply_op(op, type, in, inout, count * per_element, pairs);
    return;
  }
  if (unpacked != nullptr) {
    apply_unpacked(*this, static_cast<const std::byte*>(in), static_cast<std::byte*>(inout), count);
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
