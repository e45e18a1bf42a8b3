// MPI entry points: receives, send-receive, and counting what arrived.
#include <cstring>
#include <vector>

#include "runtime/api.hpp"
#include "runtime/p2p.hpp"
#include "runtime/packed_transfer.hpp"
#include "runtime/packing.hpp"
#include "runtime/status.hpp"

using namespace shmpi::runtime;
using shmpi::pml::Completion;
using shmpi::pml::Envelope;

namespace {

// Waits for a started receive and completes the status; the error as raised.
int finish_recv(Context& context, const char* call, const Transfer& t, shmpi::pml::Request& request,
                MPI_Status* status) {
  context.wait(request, BlockedCall{call, t.world_peer(), t.tag, t.bytes, t.comm->context});
  if (request.status.result == Completion::Truncated) {
    fill_status(status, request.status);
    return raise_error(context, t.comm, call, MPI_ERR_TRUNCATE, truncation_reason(*t.comm, request.status, t.bytes));
  }
  fill_status(status, request.status);
  return MPI_SUCCESS;
}

// Receives into `buf` and completes the status; the error as raised.
int blocking_recv(Context& context, const char* call, const Transfer& t, void* buf, MPI_Status* status) {
  if (t.proc_null()) {
    fill_null_status(status);
    return MPI_SUCCESS;
  }
  const Envelope want{t.comm->context, t.peer, t.tag};
  // The fast path first (Pml::try_receive_now into `where`, the buffer or
  // its runs), else a request.
  const auto receive = [&](const auto& where, const shmpi::pml::RunLayout* runs) {
    shmpi::pml::Status at_once;
    if (t.peer != MPI_ANY_SOURCE &&
        context.pml().try_receive_now(t.comm->world_rank(t.peer), want, where, t.bytes, at_once)) {
      fill_status(status, at_once);
      return MPI_SUCCESS;
    }
    shmpi::pml::Request request;
    context.pml().start_recv(request, want, buf, t.bytes, runs);
    return finish_recv(context, call, t, request, status);
  };
  if (t.packed()) {
    if (!context.pml().moves_runs()) return recv_packed(context, call, t, buf, status);
    // Straight into the runs, without a request. The layout is held: under
    // MPI_THREAD_MULTIPLE another thread may free the datatype meanwhile.
    const shmpi::datatype::TypeRef layout = context.datatypes().layout(t.packed_type);
    const shmpi::pml::RunLayout runs = runs_of(*layout, t, buf);
    return receive(runs, &runs);
  }
  return receive(buf, nullptr);
}

// Sendrecv through requests, for packed datatypes (their buffers live in
// the requests and are unpacked when the receive is retired).
int exchange(Context& context, const char* call, const Transfer& out, const void* sendbuf, const Transfer& in,
             void* recvbuf, MPI_Status* status) {
  MPI_Request recv = MPI_REQUEST_NULL, send = MPI_REQUEST_NULL;
  start_recv(context, in, recvbuf, &recv);  // posted first, as in MPI_Sendrecv
  start_send(context, out, sendbuf, shmpi::pml::SendMode::Standard, &send);
  MpiRequest& s = *context.requests().find(send);
  context.wait(s.pml, BlockedCall{call, out.proc_null() ? -1 : out.world_peer(), out.tag, out.bytes, out.comm->context});
  retire_raising(context, call, &send, MPI_STATUS_IGNORE);  // a send completes without error
  MpiRequest& r = *context.requests().find(recv);
  context.wait(r.pml, BlockedCall{call, in.proc_null() ? -1 : in.world_peer(), in.tag, in.bytes, in.comm->context});
  return retire_raising(context, call, &recv, status);
}

}  // namespace

// Starts on a cache line: see blocking_send in runtime/api_send.cpp.
extern "C" [[gnu::aligned(64)]] int PMPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag,
                                               MPI_Comm comm, MPI_Status* status) {
  constexpr const char* kCall = "MPI_Recv";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  Transfer t;
  if (int rc = prepare_recv(context, kCall, buf, count, type, source, tag, comm, t)) return rc;
  return blocking_recv(context, kCall, t, buf, status);
}

extern "C" int PMPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                          MPI_Request* request) {
  constexpr const char* kCall = "MPI_Irecv";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (request == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_REQUEST, "null request pointer");
  Transfer t;
  if (int rc = prepare_recv(context, kCall, buf, count, type, source, tag, comm, t)) return rc;
  start_recv(context, t, buf, request);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                             MPI_Comm comm, MPI_Status* status) {
  constexpr const char* kCall = "MPI_Sendrecv";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  Transfer out, in;
  if (int rc = prepare_send(context, kCall, sendbuf, sendcount, sendtype, dest, sendtag, comm, out)) return rc;
  if (int rc = prepare_recv(context, kCall, recvbuf, recvcount, recvtype, source, recvtag, comm, in)) return rc;
  if (out.packed() || in.packed()) return exchange(context, kCall, out, sendbuf, in, recvbuf, status);
  // Receive posted first, so two ranks exchanging large messages never wait on each other.
  shmpi::pml::Request recv;
  if (!in.proc_null()) context.pml().start_recv(recv, Envelope{in.comm->context, in.peer, in.tag}, recvbuf, in.bytes);
  if (!out.proc_null()) {
    shmpi::pml::Request send;
    context.pml().start_send(send, out.comm->world_rank(out.peer), Envelope{out.comm->context, out.comm->rank, sendtag},
                             sendbuf, out.bytes);
    context.wait(send, BlockedCall{kCall, out.world_peer(), sendtag, out.bytes, out.comm->context});
  }
  if (in.proc_null()) {
    fill_null_status(status);
    return MPI_SUCCESS;
  }
  return finish_recv(context, kCall, in, recv, status);
}

extern "C" int PMPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source,
                                     int recvtag, MPI_Comm comm, MPI_Status* status) {
  constexpr const char* kCall = "MPI_Sendrecv_replace";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  Transfer out;
  if (int rc = prepare_send(context, kCall, buf, count, type, dest, sendtag, comm, out)) return rc;
  if (out.packed()) {  // send a packed copy as plain bytes, receive through the type
    Transfer in;
    if (int rc = prepare_recv(context, kCall, buf, count, type, source, recvtag, comm, in)) return rc;
    std::vector<std::byte> copy(out.bytes);
    pack_elements(*context.datatypes().layout(type), static_cast<std::uint64_t>(count), buf, copy.data());
    out.packed_type = MPI_DATATYPE_NULL;
    return exchange(context, kCall, out, copy.data(), in, buf, status);
  }
  // Send from a copy so the buffer can receive while the message leaves.
  std::vector<std::byte> copy(out.bytes);
  if (out.bytes != 0) std::memcpy(copy.data(), buf, out.bytes);
  return PMPI_Sendrecv(copy.data(), count, type, dest, sendtag, buf, count, type, source, recvtag, comm, status);
}

extern "C" int PMPI_Get_count(const MPI_Status* status, MPI_Datatype type, int* count) {
  constexpr const char* kCall = "MPI_Get_count";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  std::size_t element = 0;
  if (int rc = raise_if(context, nullptr, kCall, check_datatype(context.datatypes(), type, element))) return rc;
  if (status == nullptr || count == nullptr)
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null status or count pointer");
  const std::uint64_t bytes = status_bytes(*status);
  if (element == 0) {
    *count = 0;
  } else if (bytes % element != 0 || bytes / element > 0x7fffffffu) {
    *count = MPI_UNDEFINED;
  } else {
    *count = static_cast<int>(bytes / element);
  }
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Recv)
SHMPI_PMPI_ALIAS(Irecv)
SHMPI_PMPI_ALIAS(Sendrecv)
SHMPI_PMPI_ALIAS(Sendrecv_replace)
SHMPI_PMPI_ALIAS(Get_count)
