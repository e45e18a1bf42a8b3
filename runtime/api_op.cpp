// MPI entry points: user-defined reduction operations and MPI_Reduce_local.
#include <vector>

#include "runtime/coll_call.hpp"
#include "runtime/packing.hpp"
#include "runtime/reduce_op.hpp"

using namespace shmpi::runtime;

extern "C" int PMPI_Op_create(MPI_User_function* user_fn, int commute, MPI_Op* op) {
  constexpr const char* kCall = "MPI_Op_create";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (user_fn == nullptr || op == nullptr)
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null function or op pointer");
  *op = context.user_ops().create(user_fn, commute != 0);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Op_free(MPI_Op* op) {
  constexpr const char* kCall = "MPI_Op_free";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (op == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null op pointer");
  if (!context.user_ops().free(*op))
    return raise_error(context, nullptr, kCall, MPI_ERR_OP,
                       op_name(*op) != nullptr ? std::string(op_name(*op)) + " is predefined and cannot be freed"
                                               : "invalid reduce operation " + std::to_string(*op));
  *op = MPI_OP_NULL;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Op_commutative(MPI_Op op, int* commute) {
  constexpr const char* kCall = "MPI_Op_commutative";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (commute == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null commute pointer");
  if (const UserOp* user = context.user_ops().find(op)) {
    *commute = user->commutative ? 1 : 0;
    return MPI_SUCCESS;
  }
  if (op == MPI_OP_NULL || op_name(op) == nullptr)
    return raise_error(context, nullptr, kCall, MPI_ERR_OP, "invalid reduce operation " + std::to_string(op));
  *commute = 1;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype, MPI_Op op) {
  constexpr const char* kCall = "MPI_Reduce_local";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  Operation operation;
  Typed t;
  if (int rc = raise_if(context, nullptr, kCall,
                        first_error({check_typed_elements(context.datatypes(), count, datatype, t, Use::Receive),
                                     check_operation(context, op, datatype, operation),
                                     check_not_in_place(inbuf, "inbuf"), check_not_in_place(inoutbuf, "inoutbuf"),
                                     check_buffer(inbuf, count), check_buffer(inoutbuf, count)})))
    return rc;
  // A user op reads the datatype's layout: it gets the user's buffers as
  // they are; a predefined op applies to the packed base elements.
  if (t.direct() || operation.user != nullptr) {
    operation.apply(inbuf, inoutbuf, static_cast<std::size_t>(count));
    return MPI_SUCCESS;
  }
  try {
    std::vector<std::byte> in(t.bytes);
    std::vector<std::byte> inout(t.bytes);
    pack_elements(*t.layout, t.count, inbuf, in.data());
    pack_elements(*t.layout, t.count, inoutbuf, inout.data());
    operation.apply(in.data(), inout.data(), t.count);
    unpack_elements(*t.layout, t.count, inout.data(), t.bytes, inoutbuf);
  } catch (const std::bad_alloc&) {
    return raise_error(context, nullptr, kCall, MPI_ERR_NO_MEM, "out of memory for MPI_Reduce_local's packed copies");
  }
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Op_create)
SHMPI_PMPI_ALIAS(Op_free)
SHMPI_PMPI_ALIAS(Op_commutative)
SHMPI_PMPI_ALIAS(Reduce_local)
