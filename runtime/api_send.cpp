// MPI entry points: the send modes, blocking and nonblocking, and the
// MPI_Bsend buffer.
#include "runtime/api.hpp"
#include "runtime/p2p.hpp"
#include "runtime/packed_transfer.hpp"

using namespace shmpi::runtime;
using shmpi::pml::SendMode;

namespace {

// Starts on a cache line, as PMPI_Send and PMPI_Recv do: where the hot path
// of a 0-byte message falls within its lines moved osu_latency_floor by 7%
// when unrelated code grew (0.0776 -> 0.0823 us; aligned: 0.0754 us, 15
// interleaved runs each at a 0.08 us hand-off).
[[gnu::aligned(64)]] int blocking_send(const char* call, const void* buf, int count, MPI_Datatype type, int dest,
                                       int tag, MPI_Comm comm, SendMode mode) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  Transfer t;
  if (int rc = prepare_send(context, call, buf, count, type, dest, tag, comm, t)) return rc;
  if (t.proc_null()) return MPI_SUCCESS;
  if (t.packed()) {
    if (mode == SendMode::Standard && send_packed_now(context, t, buf)) return MPI_SUCCESS;
    return send_packed(context, call, t, buf, mode);
  }
  const std::uint32_t to = t.comm->world_rank(dest);
  const shmpi::pml::Envelope envelope{t.comm->context, t.comm->rank, tag};
  if (mode == SendMode::Standard) {
    context.send_targets().remember(comm, dest, type, SendTarget{to, t.comm->context, t.comm->rank, t.element});
    if (context.pml().try_send_eager_now(to, envelope, buf, t.bytes)) return MPI_SUCCESS;
  }
  shmpi::pml::Request request;
  context.pml().start_send(request, to, envelope, buf, t.bytes, mode);
  context.wait(request, BlockedCall{call, static_cast<std::int32_t>(to), tag, t.bytes, t.comm->context});
  return MPI_SUCCESS;
}

int nonblocking_send(const char* call, const void* buf, int count, MPI_Datatype type, int dest, int tag,
                     MPI_Comm comm, SendMode mode, MPI_Request* request) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  if (request == nullptr) return raise_error(context, nullptr, call, MPI_ERR_REQUEST, "null request pointer");
  Transfer t;
  if (int rc = prepare_send(context, call, buf, count, type, dest, tag, comm, t)) return rc;
  start_send(context, t, buf, mode, request);
  return MPI_SUCCESS;
}

}  // namespace

// A send to the same communicator, destination and datatype as the last
// one checks only its count, tag and buffer, and goes at once if it can
// (runtime/send_target.hpp); anything else takes blocking_send(), as does
// every send under MPI_THREAD_MULTIPLE (this path takes no lock).
extern "C" [[gnu::aligned(64)]] int PMPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                                               MPI_Comm comm) {
  if (Context* context = current_context(); context != nullptr && !threads_share_rank()) {
    const SendTarget* target = context->send_targets().find(comm, dest, type);
    if (target != nullptr && count >= 0 && (buf != nullptr || count == 0) && tag >= 0 && tag <= MPI_TAG_UB_VALUE &&
        context->pml().try_send_eager_now(target->world_dest,
                                          shmpi::pml::Envelope{target->context, target->source, tag}, buf,
                                          target->element * static_cast<std::size_t>(count)))
      return MPI_SUCCESS;
  }
  return blocking_send("MPI_Send", buf, count, type, dest, tag, comm, SendMode::Standard);
}

extern "C" int PMPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return blocking_send("MPI_Ssend", buf, count, type, dest, tag, comm, SendMode::Synchronous);
}

// Ready mode: the receive is known to be posted; a standard send is correct.
extern "C" int PMPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return blocking_send("MPI_Rsend", buf, count, type, dest, tag, comm, SendMode::Standard);
}

extern "C" int PMPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                          MPI_Request* request) {
  return nonblocking_send("MPI_Isend", buf, count, type, dest, tag, comm, SendMode::Standard, request);
}

extern "C" int PMPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                           MPI_Request* request) {
  return nonblocking_send("MPI_Issend", buf, count, type, dest, tag, comm, SendMode::Synchronous, request);
}

extern "C" int PMPI_Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                           MPI_Request* request) {
  return nonblocking_send("MPI_Irsend", buf, count, type, dest, tag, comm, SendMode::Standard, request);
}

extern "C" int PMPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  constexpr const char* kCall = "MPI_Bsend";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  Transfer t;
  if (int rc = prepare_send(context, kCall, buf, count, type, dest, tag, comm, t)) return rc;
  return buffered_send(context, kCall, t, buf);
}

extern "C" int PMPI_Ibsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                           MPI_Request* request) {
  constexpr const char* kCall = "MPI_Ibsend";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (request == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_REQUEST, "null request pointer");
  Transfer t;
  if (int rc = prepare_send(context, kCall, buf, count, type, dest, tag, comm, t)) return rc;
  if (int rc = buffered_send(context, kCall, t, buf)) return rc;
  *request = completed_request(context, comm, false);  // the copy is made: buf is free
  return MPI_SUCCESS;
}

extern "C" int PMPI_Buffer_attach(void* buffer, int size) {
  constexpr const char* kCall = "MPI_Buffer_attach";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (size < 0) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "negative size " + std::to_string(size));
  if (buffer == nullptr && size > 0) return raise_error(context, nullptr, kCall, MPI_ERR_BUFFER, "null buffer");
  if (context.bsend_buffer().attached())
    return raise_error(context, nullptr, kCall, MPI_ERR_BUFFER, "a buffer is already attached");
  context.bsend_buffer().attach(buffer, static_cast<std::size_t>(size));
  return MPI_SUCCESS;
}

extern "C" int PMPI_Buffer_detach(void* buffer_addr, int* size) {
  constexpr const char* kCall = "MPI_Buffer_detach";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  // Blocks until every buffered message has left (MPI-3.1 3.6.1).
  context.wait_until(
      [&context] {
        context.reap();
        return context.bsend_buffer().in_use() == 0;
      },
      BlockedCall{kCall, -2, -1, 0, 0});
  auto [base, bytes] = context.bsend_buffer().detach();
  if (buffer_addr != nullptr) *static_cast<void**>(buffer_addr) = base;
  if (size != nullptr) *size = static_cast<int>(bytes);
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Send)
SHMPI_PMPI_ALIAS(Ssend)
SHMPI_PMPI_ALIAS(Rsend)
SHMPI_PMPI_ALIAS(Isend)
SHMPI_PMPI_ALIAS(Issend)
SHMPI_PMPI_ALIAS(Irsend)
SHMPI_PMPI_ALIAS(Bsend)
SHMPI_PMPI_ALIAS(Ibsend)
SHMPI_PMPI_ALIAS(Buffer_attach)
SHMPI_PMPI_ALIAS(Buffer_detach)
