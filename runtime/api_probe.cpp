// MPI entry points: probes and matched probes.
#include "runtime/api.hpp"
#include "runtime/p2p.hpp"
#include "runtime/packed_transfer.hpp"
#include "runtime/status.hpp"

using namespace shmpi::runtime;
using shmpi::pml::Envelope;
using shmpi::pml::ProbeResult;

namespace {

void fill_probe_status(MPI_Status* status, const ProbeResult& found) noexcept {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = found.source;
  status->MPI_TAG = found.tag;
  status->shmpi_cancelled = 0;
  set_status_bytes(*status, found.bytes);
}

// Checks (source, tag, comm) of a probe; MPI_SUCCESS or the raised error.
int prepare_probe(Context& context, const char* call, int source, int tag, MPI_Comm comm, Transfer& t) {
  return prepare_recv(context, call, nullptr, 0, MPI_BYTE, source, tag, comm, t);
}

}  // namespace

extern "C" int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  constexpr const char* kCall = "MPI_Iprobe";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  Transfer t;
  if (int rc = prepare_probe(context, kCall, source, tag, comm, t)) return rc;
  if (flag == nullptr) return raise_error(context, t.comm, kCall, MPI_ERR_ARG, "null flag pointer");
  if (t.proc_null()) {
    *flag = 1;
    fill_null_status(status);
    return MPI_SUCCESS;
  }
  ProbeResult found{};
  *flag = context.pml().probe(Envelope{t.comm->context, source, tag}, found) ? 1 : 0;
  if (*flag) fill_probe_status(status, found);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  constexpr const char* kCall = "MPI_Probe";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  Transfer t;
  if (int rc = prepare_probe(context, kCall, source, tag, comm, t)) return rc;
  if (t.proc_null()) {
    fill_null_status(status);
    return MPI_SUCCESS;
  }
  ProbeResult found{};
  const Envelope want{t.comm->context, source, tag};
  context.wait_until([&] { return context.pml().probe(want, found); },
                     BlockedCall{kCall, t.world_peer(), tag, 0, t.comm->context});
  fill_probe_status(status, found);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message,
                            MPI_Status* status) {
  constexpr const char* kCall = "MPI_Improbe";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  Transfer t;
  if (int rc = prepare_probe(context, kCall, source, tag, comm, t)) return rc;
  if (flag == nullptr || message == nullptr)
    return raise_error(context, t.comm, kCall, MPI_ERR_ARG, "null flag or message pointer");
  if (t.proc_null()) {
    *flag = 1;
    *message = MPI_MESSAGE_NO_PROC;
    fill_null_status(status);
    return MPI_SUCCESS;
  }
  ProbeResult found{};
  shmpi::pml::Unexpected* taken = context.pml().take_message(Envelope{t.comm->context, source, tag}, found);
  *flag = taken != nullptr ? 1 : 0;
  if (taken != nullptr) {
    *message = context.messages().add(MatchedMessage{taken, comm});
    fill_probe_status(status, found);
  }
  return MPI_SUCCESS;
}

extern "C" int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  constexpr const char* kCall = "MPI_Mprobe";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  Transfer t;
  if (int rc = prepare_probe(context, kCall, source, tag, comm, t)) return rc;
  if (message == nullptr) return raise_error(context, t.comm, kCall, MPI_ERR_ARG, "null message pointer");
  if (t.proc_null()) {
    *message = MPI_MESSAGE_NO_PROC;
    fill_null_status(status);
    return MPI_SUCCESS;
  }
  ProbeResult found{};
  shmpi::pml::Unexpected* taken = nullptr;
  const Envelope want{t.comm->context, source, tag};
  context.wait_until([&] { return (taken = context.pml().take_message(want, found)) != nullptr; },
                     BlockedCall{kCall, t.world_peer(), tag, 0, t.comm->context});
  *message = context.messages().add(MatchedMessage{taken, comm});
  fill_probe_status(status, found);
  return MPI_SUCCESS;
}

namespace {

// Starts receiving matched message `*message` into a new request.
int start_mrecv(Context& context, const char* call, void* buf, int count, MPI_Datatype type, MPI_Message* message,
                MPI_Request* handle) {
  if (message == nullptr) return raise_error(context, nullptr, call, MPI_ERR_ARG, "null message pointer");
  if (*message == MPI_MESSAGE_NO_PROC) {
    *handle = completed_request(context, MPI_COMM_WORLD, true);
    *message = MPI_MESSAGE_NULL;
    return MPI_SUCCESS;
  }
  const MatchedMessage* m = context.messages().find(*message);
  if (m == nullptr)
    return raise_error(context, nullptr, call, MPI_ERR_ARG, "invalid message handle " + std::to_string(*message));
  Transfer t;
  if (int rc = prepare_recv(context, call, buf, count, type, MPI_ANY_SOURCE, MPI_ANY_TAG, m->comm, t)) return rc;
  MpiRequest& r = context.requests().allocate(*handle);
  r.comm = m->comm;
  if (t.packed())
    start_packed_mrecv(context, r, t, context.datatypes().layout(t.packed_type), *m->message, buf);
  else
    context.pml().start_mrecv(r.pml, *m->message, buf, t.bytes);
  context.messages().remove(*message);
  *message = MPI_MESSAGE_NULL;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Imrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Request* request) {
  constexpr const char* kCall = "MPI_Imrecv";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (request == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_REQUEST, "null request pointer");
  return start_mrecv(context, kCall, buf, count, type, message, request);
}

extern "C" int PMPI_Mrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Status* status) {
  constexpr const char* kCall = "MPI_Mrecv";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  MPI_Request request = MPI_REQUEST_NULL;
  if (int rc = start_mrecv(context, kCall, buf, count, type, message, &request)) return rc;
  MpiRequest& r = *context.requests().find(request);
  context.wait(r.pml, BlockedCall{kCall, -1, r.pml.status.tag, r.pml.capacity, 0});
  return retire_raising(context, kCall, &request, status);
}

SHMPI_PMPI_ALIAS(Iprobe)
SHMPI_PMPI_ALIAS(Probe)
SHMPI_PMPI_ALIAS(Improbe)
SHMPI_PMPI_ALIAS(Mprobe)
SHMPI_PMPI_ALIAS(Imrecv)
SHMPI_PMPI_ALIAS(Mrecv)
