// MPI entry points: persistent requests (MPI-3.1 3.9) and MPI_Start /
// MPI_Startall, which also start partitioned requests (MPI-4.1 chapter 4).
#include "runtime/api.hpp"
#include "runtime/p2p.hpp"
#include "runtime/partitioned.hpp"
#include "runtime/persistent.hpp"

using namespace shmpi::runtime;
using shmpi::pml::SendMode;
using Op = PersistentArgs::Op;

namespace {

// A new inactive persistent request for the checked transfer `t`.
MpiRequest& make_persistent(Context& context, const Transfer& t, MPI_Request* handle) {
  MpiRequest& r = context.requests().allocate(*handle);
  r.comm = t.handle;
  r.proc_null = t.proc_null();
  r.life = RequestLife::Persistent;
  r.inactive = true;
  r.pml.complete = true;
  return r;
}

// A non-contiguous type's layout goes with the request: every round moves
// its runs, and the user may free the type's handle meanwhile (MPI-4.1 5.1.9).
void keep_layout(Context& context, const Transfer& t, PersistentArgs& args) {
  if (!t.packed()) return;
  args.layout = context.datatypes().layout(t.packed_type);
  args.count = t.count;
}

int send_init(const char* call, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              Op op, SendMode mode, MPI_Request* request) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  if (request == nullptr) return raise_error(context, nullptr, call, MPI_ERR_REQUEST, "null request pointer");
  Transfer t;
  if (int rc = prepare_send(context, call, buf, count, type, dest, tag, comm, t)) return rc;
  MpiRequest& r = make_persistent(context, t, request);
  r.pml.kind = shmpi::pml::RequestKind::Send;
  const std::uint32_t to = t.proc_null() ? 0 : t.comm->world_rank(dest);
  r.persistent = PersistentArgs{op, mode, to, dest, shmpi::pml::Envelope{t.comm->context, t.comm->rank, tag},
                                const_cast<void*>(buf), t.bytes, {}, 0};
  keep_layout(context, t, r.persistent);
  return MPI_SUCCESS;
}

// Why `handle` (at `index` of an array, or -1) cannot be started: out of
// line, so a valid MPI_Start builds no message.
[[gnu::noinline, gnu::cold]] int refuse_start(Context& context, const char* call, MPI_Request handle, int index) {
  const std::string which =
      "request " + std::to_string(handle) + (index >= 0 ? " at index " + std::to_string(index) : std::string());
  const MpiRequest* r = context.requests().find(handle);
  if (r == nullptr) return raise_error(context, nullptr, call, MPI_ERR_REQUEST, "invalid " + which);
  if (r->life == RequestLife::Once)
    return raise_error(context, context.communicator(r->comm), call, MPI_ERR_REQUEST,
                       which + " is not persistent (made by MPI_Isend, MPI_Irecv or the like)");
  return raise_error(context, context.communicator(r->comm), call, MPI_ERR_REQUEST,
                     which + " is already active: complete it (MPI_Wait, MPI_Test, ...) before starting it again");
}

// MPI_SUCCESS if `handle` names an inactive persistent or partitioned
// request; the raised error otherwise.
inline int check_startable(Context& context, const char* call, MPI_Request handle, int index) {
  const MpiRequest* r = context.requests().find(handle);
  if (r != nullptr && r->life != RequestLife::Once && r->inactive) return MPI_SUCCESS;
  return refuse_start(context, call, handle, index);
}

int start_one(Context& context, const char* call, MpiRequest& r) {
  return r.life == RequestLife::Persistent ? start_persistent(context, r, call) : start_partitioned(context, r, call);
}

}  // namespace

extern "C" int PMPI_Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                              MPI_Request* request) {
  return send_init("MPI_Send_init", buf, count, type, dest, tag, comm, Op::Send, SendMode::Standard, request);
}

extern "C" int PMPI_Ssend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                               MPI_Request* request) {
  return send_init("MPI_Ssend_init", buf, count, type, dest, tag, comm, Op::Send, SendMode::Synchronous, request);
}

// Ready mode: the receive is known to be posted; a standard send is correct.
extern "C" int PMPI_Rsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                               MPI_Request* request) {
  return send_init("MPI_Rsend_init", buf, count, type, dest, tag, comm, Op::Send, SendMode::Standard, request);
}

extern "C" int PMPI_Bsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                               MPI_Request* request) {
  return send_init("MPI_Bsend_init", buf, count, type, dest, tag, comm, Op::Bsend, SendMode::Standard, request);
}

extern "C" int PMPI_Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                              MPI_Request* request) {
  constexpr const char* kCall = "MPI_Recv_init";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (request == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_REQUEST, "null request pointer");
  Transfer t;
  if (int rc = prepare_recv(context, kCall, buf, count, type, source, tag, comm, t)) return rc;
  MpiRequest& r = make_persistent(context, t, request);
  r.pml.kind = shmpi::pml::RequestKind::Recv;
  r.persistent = PersistentArgs{Op::Recv, SendMode::Standard, 0, source,
                                shmpi::pml::Envelope{t.comm->context, source, tag}, buf, t.bytes, {}, 0};
  keep_layout(context, t, r.persistent);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Start(MPI_Request* request) {
  constexpr const char* kCall = "MPI_Start";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (request == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_REQUEST, "null request pointer");
  if (int rc = check_startable(context, kCall, *request, -1)) return rc;
  return start_one(context, kCall, *context.requests().find(*request));
}

// Every request is checked before any starts, so a bad one starts none
// (but one named twice is found only when its second start comes).
extern "C" int PMPI_Startall(int count, MPI_Request requests[]) {
  constexpr const char* kCall = "MPI_Startall";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (count < 0) return raise_error(context, nullptr, kCall, MPI_ERR_COUNT, "negative count " + std::to_string(count));
  if (count > 0 && requests == nullptr)
    return raise_error(context, nullptr, kCall, MPI_ERR_REQUEST, "null request array");
  for (int i = 0; i < count; ++i)
    if (int rc = check_startable(context, kCall, requests[i], i)) return rc;
  for (int i = 0; i < count; ++i) {
    MpiRequest& r = *context.requests().find(requests[i]);
    if (!r.inactive)
      return raise_error(context, context.communicator(r.comm), kCall, MPI_ERR_REQUEST,
                         "request " + std::to_string(requests[i]) + " appears twice (again at index " +
                             std::to_string(i) + ")");
    if (int rc = start_one(context, kCall, r)) return rc;
  }
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Send_init)
SHMPI_PMPI_ALIAS(Ssend_init)
SHMPI_PMPI_ALIAS(Rsend_init)
SHMPI_PMPI_ALIAS(Bsend_init)
SHMPI_PMPI_ALIAS(Recv_init)
SHMPI_PMPI_ALIAS(Start)
SHMPI_PMPI_ALIAS(Startall)
