#include "runtime/coll_call.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "runtime/collectives.hpp"
#include "runtime/packed_transfer.hpp"
#include "runtime/reduce_op.hpp"

namespace shmpi::runtime {

namespace {

// For a datatype that is not contiguous: its layout, once checked for `use`
// with up to `count` elements.
Check check_layout(const DatatypeTable& types, MPI_Datatype type, int count, Use use, datatype::TypeRef& out) {
  if (use == Use::Receive)
    if (Check c = check_receivable(types, type, count)) return c;
  out = types.layout(type);
  return std::nullopt;
}

}  // namespace

Check check_typed_elements(const DatatypeTable& types, int count, MPI_Datatype type, Typed& out, Use use) {
  std::size_t element = 0;
  if (Check c = first_error({check_count(count), check_datatype(types, type, element)})) return c;
  out = Typed{element, element * static_cast<std::size_t>(count), nullptr, 0};
  if (types.find(type)->direct) return std::nullopt;
  out.count = static_cast<std::size_t>(count);
  return check_layout(types, type, count, use, out.layout);
}

Check check_typed(const DatatypeTable& types, const void* buffer, int count, MPI_Datatype type, Typed& out,
                  Use use) {
  if (Check c = check_typed_elements(types, count, type, out, use)) return c;
  return check_buffer(types, buffer, count, type);
}

Blocks uniform_blocks(const void* buffer, const Typed& t, std::int32_t n) {
  if (t.direct()) return Blocks::uniform(buffer, t.bytes, n);
  Blocks b = Blocks::uniform(buffer, t.bytes, n);
  const auto stride = static_cast<std::size_t>(static_cast<std::int64_t>(t.count) * t.layout->extent());
  for (std::size_t i = 0; i < b.offset.size(); ++i) b.offset[i] = i * stride;  // wraps for a negative extent
  b.layouts.assign(b.bytes.size(), t.layout);
  b.counts.assign(b.bytes.size(), t.count);
  return b;
}

namespace {

Check check_arrays(const int* counts, const int* displs, std::int32_t n) {
  if (n > 0 && (counts == nullptr || displs == nullptr))
    return ArgError{MPI_ERR_ARG, "null counts or displacements array"};
  for (std::int32_t i = 0; i < n; ++i) {
    if (counts[i] < 0)
      return ArgError{MPI_ERR_COUNT, "negative count " + std::to_string(counts[i]) + " for rank " + std::to_string(i)};
    if (displs[i] < 0 && counts[i] > 0)
      return ArgError{MPI_ERR_ARG, "negative displacement " + std::to_string(displs[i]) + " for rank " +
                                       std::to_string(i)};
  }
  return std::nullopt;
}

Check check_blocks_buffer(const void* buffer, const Blocks& b) {
  for (std::size_t bytes : b.bytes)
    if (bytes != 0 && buffer == nullptr) return ArgError{MPI_ERR_BUFFER, "null buffer with a nonzero count"};
  return std::nullopt;
}

}  // namespace

Check check_typed_blocks(const DatatypeTable& types, const void* buffer, const int* counts, const int* displs,
                         MPI_Datatype type, std::int32_t n, Blocks& out, Use use) {
  std::size_t element = 0;
  if (Check c = first_error({check_datatype(types, type, element), check_arrays(counts, displs, n)})) return c;
  out.base = static_cast<std::byte*>(const_cast<void*>(buffer));
  out.bytes.resize(static_cast<std::size_t>(n));
  out.offset.resize(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < out.bytes.size(); ++i) {
    out.bytes[i] = static_cast<std::size_t>(counts[i]) * element;
    out.offset[i] = counts[i] == 0 ? 0 : static_cast<std::size_t>(displs[i]) * element;
  }
  if (!types.find(type)->direct) {
    const int most = n > 0 ? *std::max_element(counts, counts + n) : 0;
    datatype::TypeRef layout;
    if (Check c = check_layout(types, type, most, use, layout)) return c;
    for (std::size_t i = 0; i < out.bytes.size(); ++i)
      out.offset[i] = static_cast<std::size_t>(static_cast<std::int64_t>(displs[i]) * layout->extent());
    out.layouts.assign(out.bytes.size(), layout);
    out.counts.assign(counts, counts + n);
  }
  return check_blocks_buffer(buffer, out);
}

Check check_typed_blocks_w(const DatatypeTable& types, const void* buffer, const int* counts, const int* displs,
                           const MPI_Datatype* types_of, std::int32_t n, Blocks& out, Use use) {
  if (Check c = check_arrays(counts, displs, n)) return c;
  if (n > 0 && types_of == nullptr) return ArgError{MPI_ERR_ARG, "null datatypes array"};
  out.base = static_cast<std::byte*>(const_cast<void*>(buffer));
  out.bytes.resize(static_cast<std::size_t>(n));
  out.offset.resize(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < out.bytes.size(); ++i) {
    std::size_t element = 0;
    if (Check c = check_datatype(types, types_of[i], element)) return c;
    out.bytes[i] = static_cast<std::size_t>(counts[i]) * element;
    out.offset[i] = counts[i] == 0 ? 0 : static_cast<std::size_t>(displs[i]);
    if (types.find(types_of[i])->direct) continue;
    // One block not contiguous: every block gets an entry (null: contiguous).
    out.layouts.resize(out.bytes.size());
    out.counts.resize(out.bytes.size());
    if (Check c = check_layout(types, types_of[i], counts[i], use, out.layouts[i])) return c;
    out.counts[i] = static_cast<std::size_t>(counts[i]);
  }
  return check_blocks_buffer(buffer, out);
}

Check check_root(int root, const Communicator& comm) {
  if (root >= 0 && root < comm.size) return std::nullopt;
  return ArgError{MPI_ERR_ROOT, "invalid root " + std::to_string(root) + " (" + comm.name + " has " +
                                    std::to_string(comm.size) + " ranks)"};
}

Check check_data_blocks(const DatatypeTable& types, const DataArgs& args, std::int32_t n, Blocks& out, Use use) {
  if (args.types != nullptr)
    return check_typed_blocks_w(types, args.buffer, args.counts, args.displs, args.types, n, out, use);
  if (args.counts != nullptr)
    return check_typed_blocks(types, args.buffer, args.counts, args.displs, args.type, n, out, use);
  Typed t;
  if (Check c = check_typed(types, args.buffer, args.count, args.type, t, use)) return c;
  out = uniform_blocks(args.buffer, t, n);
  return std::nullopt;
}

std::optional<int> contiguous_pair_exchange(Context& context, const Communicator& c, const DataArgs& send_side,
                                            const DataArgs& recv_side, SendBlocks send_blocks, const char* call) {
  Typed send;
  Typed recv;
  if (int rc = raise_if(
          context, &c, call,
          first_error({check_not_in_place(recv_side.buffer, "recvbuf"),
                       check_typed(context.datatypes(), send_side.buffer, send_side.count, send_side.type, send),
                       check_typed(context.datatypes(), recv_side.buffer, recv_side.count, recv_side.type, recv,
                                   Use::Receive)})))
    return rc;
  if (!send.direct() || !recv.direct() || std::max(send.bytes, recv.bytes) > kPairExchangeMax) return std::nullopt;
  const auto me = static_cast<std::size_t>(c.rank);
  const std::size_t peer = 1 - me;
  const std::size_t stride = send_blocks == SendBlocks::PerRank ? send.bytes : 0;
  const auto* from = static_cast<const std::byte*>(send_side.buffer);
  auto* to = static_cast<std::byte*>(const_cast<void*>(recv_side.buffer));  // the receive side is written
  exchange_with_peer(context, c, from + peer * stride, send.bytes, to + peer * recv.bytes, recv.bytes, call);
  if (recv.bytes != 0) std::memcpy(to + me * recv.bytes, from + me * stride, recv.bytes);
  return MPI_SUCCESS;
}

Check check_inter_root(int root, const Communicator& comm) {
  if (root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < comm.size)) return std::nullopt;
  return ArgError{MPI_ERR_ROOT, "invalid root " + std::to_string(root) + " (MPI_ROOT, MPI_PROC_NULL or a rank of " +
                                    "the remote group of " + std::to_string(comm.size) + ")"};
}

Check check_not_in_place_inter(const void* sendbuf, const void* recvbuf) {
  if (sendbuf != MPI_IN_PLACE && recvbuf != MPI_IN_PLACE) return std::nullopt;
  return ArgError{MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed on an intercommunicator"};
}

Check check_operation(Context& context, MPI_Op op, MPI_Datatype type, Operation& out) {
  const DatatypeInfo* info = context.datatypes().find(type);
  if (const UserOp* user = context.user_ops().find(op)) {
    if (info != nullptr) out = Operation{op, user->function, type, info->base_count, info->size, user->commutative, nullptr};
    return std::nullopt;
  }
  const char* name = op_name(op);
  if (name == nullptr) return ArgError{MPI_ERR_OP, "invalid reduce operation " + std::to_string(op)};
  if (op == MPI_REPLACE || op == MPI_NO_OP)
    return ArgError{MPI_ERR_OP, std::string(name) + " is valid only in one-sided accumulate operations"};
  if (info == nullptr) return std::nullopt;  // a bad type is reported elsewhere
  if (op_applies(op, info->base)) {
    out = Operation{op, nullptr, info->base, info->base_count, info->size, true, nullptr, pairs_in(type, *info)};
    return std::nullopt;
  }
  const DatatypeInfo* base = context.datatypes().find(info->base);
  std::string reason = std::string(name) + " is not defined for " + (base != nullptr ? base->name : "this datatype");
  if (type != info->base) reason += " (the element type of datatype " + std::to_string(type) + ")";
  return ArgError{MPI_ERR_OP, reason};
}

Check check_reduce_buffers(const void* sendbuf, const void* recvbuf, int count) {
  if (recvbuf == MPI_IN_PLACE) return ArgError{MPI_ERR_BUFFER, "recvbuf cannot be MPI_IN_PLACE"};
  if (count > 0 && sendbuf == recvbuf)
    return ArgError{MPI_ERR_BUFFER, "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)"};
  return first_error({sendbuf == MPI_IN_PLACE ? std::nullopt : check_buffer(sendbuf, count),
                      check_buffer(recvbuf, count)});
}

Check check_reduction(Context& context, int count, MPI_Datatype datatype, MPI_Op op, const MPI_Request* request,
                      bool nonblocking, Operation& op_out, Typed& t, Use use) {
  if (Check c = first_error({check_request_pointer(request, nonblocking),
                             check_typed_elements(context.datatypes(), count, datatype, t, use),
                             check_operation(context, op, datatype, op_out)}))
    return c;
  return std::nullopt;
}

void set_operation(Schedule& s, Operation operation, const Typed& t, std::size_t count) {
  if (!t.direct() && operation.user != nullptr) operation.unpack_operands(t.layout, count);
  s.set_operation(operation);
}

Check check_request_pointer(const MPI_Request* request, bool nonblocking) {
  if (nonblocking && request == nullptr) return ArgError{MPI_ERR_REQUEST, "null request pointer"};
  return std::nullopt;
}

Check check_not_in_place(const void* buffer, const char* which) {
  if (buffer != MPI_IN_PLACE) return std::nullopt;
  return ArgError{MPI_ERR_BUFFER, std::string(which) + " cannot be MPI_IN_PLACE here"};
}

std::unique_ptr<Schedule> new_schedule(Context& context, const Communicator& comm) {
  return std::make_unique<Schedule>(comm, context.schedules().next_tag(comm.collective_context()));
}

namespace {

int truncated(Context& context, const Communicator& comm, const char* call) {
  return raise_error(context, &comm, call, MPI_ERR_TRUNCATE,
                     "a collective message was longer than its receive buffer (counts or datatypes differ "
                     "between ranks)");
}

}  // namespace

int launch(Context& context, const Communicator& comm, MPI_Comm handle, std::unique_ptr<Schedule> schedule,
           MPI_Request* request, const char* call) {
  pml::Pml& pml = context.pml();
  if (request == nullptr) {
    Schedule& s = *schedule;
    if (!s.start(pml)) context.wait_until([&] { return s.progress(pml); }, s.blocked_call(call));
    return s.truncated() ? truncated(context, comm, call) : MPI_SUCCESS;
  }
  MpiRequest& r = context.requests().allocate(*request);
  r.comm = handle;
  r.collective = true;
  r.pml.kind = pml::RequestKind::Send;
  r.pml.capacity = 0;
  if (!schedule->start(pml)) {
    context.schedules().add(std::move(schedule), r);
    return MPI_SUCCESS;
  }
  if (schedule->truncated()) r.pml.status.result = pml::Completion::Truncated;
  r.pml.complete = true;
  return MPI_SUCCESS;
}

int out_of_memory(Context& context, const Communicator& comm, const char* call) {
  return raise_error(context, &comm, call, MPI_ERR_NO_MEM, "out of memory for a collective's temporary buffers");
}

}  // namespace shmpi::runtime
