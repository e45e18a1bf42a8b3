// MPI entry points: partitioned communication (MPI-4.1 chapter 4). How it
// travels: runtime/partitioned.hpp. MPI_Start, MPI_Wait and the rest are
// shared with the other requests.
#include <climits>
#include <memory>
#include <utility>

#include "runtime/api.hpp"
#include "runtime/p2p.hpp"
#include "runtime/packed_transfer.hpp"
#include "runtime/partitioned.hpp"

using namespace shmpi::runtime;

namespace {

// Checks the arguments of MPI_Psend_init / MPI_Precv_init and makes the
// inactive request. MPI_SUCCESS or the raised error.
int partitioned_init(const char* call, bool send, const void* buf, int partitions, MPI_Count count,
                     MPI_Datatype type, int peer, int tag, MPI_Comm comm, MPI_Request* request) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  if (request == nullptr) return raise_error(context, nullptr, call, MPI_ERR_REQUEST, "null request pointer");
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, call, comm);
  if (partitions < 0)
    return raise_error(context, c, call, MPI_ERR_ARG, "negative partition count " + std::to_string(partitions));
  if (count > INT_MAX)
    return raise_error(context, c, call, MPI_ERR_COUNT, "count " + std::to_string(count) + " per partition is too large");
  if (!send && (peer == MPI_ANY_SOURCE || tag == MPI_ANY_TAG))
    return raise_error(context, c, call, peer == MPI_ANY_SOURCE ? MPI_ERR_RANK : MPI_ERR_TAG,
                       "a partitioned receive takes no wildcard (MPI_ANY_SOURCE, MPI_ANY_TAG)");
  // The whole buffer is checked as one transfer of one partition's count.
  Transfer t;
  const int n = static_cast<int>(count);
  if (int rc = send ? prepare_send(context, call, buf, n, type, peer, tag, comm, t)
                    : prepare_recv(context, call, buf, n, type, peer, tag, comm, t))
    return rc;
  // ... and, for a receive, all its partitions' elements must be receivable together.
  const std::int64_t elements = static_cast<std::int64_t>(count) * partitions;
  if (!send && t.packed() && partitions > 1 && elements <= INT_MAX)
    if (int rc =
            raise_if(context, t.comm, call, check_receivable(context.datatypes(), type, static_cast<int>(elements))))
      return rc;
  auto op = std::make_unique<PartitionedOp>();
  op->send = send;
  op->partitions = partitions;
  op->partition_bytes = t.bytes;
  op->buffer = static_cast<std::byte*>(const_cast<void*>(buf));
  op->internal_context = t.comm->collective_context();
  op->self = t.comm->rank;
  op->peer = peer;
  op->world_peer = t.proc_null() ? 0 : t.comm->world_rank(peer);
  op->tag = tag;
  if (t.packed() && t.element != 0) {  // partitions are not byte ranges of the buffer
    op->type = context.datatypes().layout(type);
    op->count = static_cast<std::uint64_t>(count);
  }
  MpiRequest& r = context.requests().allocate(*request);
  r.comm = comm;
  r.proc_null = t.proc_null();
  // What the hang report shows while the rank waits for it.
  const std::size_t total = t.bytes * static_cast<std::size_t>(partitions);
  r.pml.kind = send ? shmpi::pml::RequestKind::Send : shmpi::pml::RequestKind::Recv;
  r.pml.dest = op->world_peer;
  r.pml.envelope = shmpi::pml::Envelope{t.comm->context, t.comm->rank, tag};
  r.pml.length = total;
  r.pml.want = shmpi::pml::Envelope{t.comm->context, peer, tag};
  r.pml.capacity = total;
  if (int rc = init_partitioned(context, r, std::move(op), call)) {
    context.requests().release(r);
    *request = MPI_REQUEST_NULL;
    return rc;
  }
  return MPI_SUCCESS;
}

[[gnu::noinline, gnu::cold]] int refuse_request(Context& context, const char* call, MPI_Request request, bool send) {
  const MpiRequest* r = context.requests().find(request);
  const std::string which = "request " + std::to_string(request);
  if (r == nullptr) return raise_error(context, nullptr, call, MPI_ERR_REQUEST, "invalid " + which);
  return raise_error(context, context.communicator(r->comm), call, MPI_ERR_REQUEST,
                     which + " is not a partitioned " + (send ? "send (MPI_Psend_init)" : "receive (MPI_Precv_init)"));
}

// The partitioned request of `kind` (send or receive) behind `request`;
// nullptr after raising the error into `rc` otherwise.
MpiRequest* checked(Context& context, const char* call, MPI_Request request, bool send, int& rc) {
  MpiRequest* r = context.requests().find(request);
  if (r != nullptr && r->life == RequestLife::Partitioned && r->partitioned->send == send) return r;
  rc = refuse_request(context, call, request, send);
  return nullptr;
}

int check_partition(Context& context, const char* call, const MpiRequest& r, int partition) {
  const int partitions = r.partitioned->partitions;
  if (partition >= 0 && partition < partitions) return MPI_SUCCESS;
  return raise_error(context, context.communicator(r.comm), call, MPI_ERR_ARG,
                     "partition " + std::to_string(partition) + " out of range: request " + std::to_string(r.handle) +
                         " has " + std::to_string(partitions) + " (0 to " + std::to_string(partitions - 1) + ")");
}

int check_active(Context& context, const char* call, const MpiRequest& r) {
  if (!r.inactive) return MPI_SUCCESS;
  return raise_error(context, context.communicator(r.comm), call, MPI_ERR_REQUEST,
                     "request " + std::to_string(r.handle) + " is inactive: MPI_Start it before marking partitions ready");
}

// The partitioned send behind `request`, active, or nullptr with the error in `rc`.
MpiRequest* active_send(Context& context, const char* call, MPI_Request request, int& rc) {
  MpiRequest* r = checked(context, call, request, true, rc);
  if (r != nullptr && (rc = check_active(context, call, *r)) != MPI_SUCCESS) return nullptr;
  return r;
}

}  // namespace

extern "C" int PMPI_Psend_init(const void* buf, int partitions, MPI_Count count, MPI_Datatype type, int dest,
                               int tag, MPI_Comm comm, MPI_Info /*info*/, MPI_Request* request) {
  return partitioned_init("MPI_Psend_init", true, buf, partitions, count, type, dest, tag, comm, request);
}

extern "C" int PMPI_Precv_init(void* buf, int partitions, MPI_Count count, MPI_Datatype type, int source, int tag,
                               MPI_Comm comm, MPI_Info /*info*/, MPI_Request* request) {
  return partitioned_init("MPI_Precv_init", false, buf, partitions, count, type, source, tag, comm, request);
}

extern "C" int PMPI_Pready(int partition, MPI_Request request) {
  constexpr const char* kCall = "MPI_Pready";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  MpiRequest* r = active_send(context, kCall, request, rc);
  if (r == nullptr) return rc;
  if ((rc = check_partition(context, kCall, *r, partition))) return rc;
  return mark_ready(context, *r, partition, partition, kCall);
}

extern "C" int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request) {
  constexpr const char* kCall = "MPI_Pready_range";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  MpiRequest* r = active_send(context, kCall, request, rc);
  if (r == nullptr) return rc;
  if ((rc = check_partition(context, kCall, *r, partition_low)) ||
      (rc = check_partition(context, kCall, *r, partition_high)))
    return rc;
  if (partition_low > partition_high)
    return raise_error(context, context.communicator(r->comm), kCall, MPI_ERR_ARG,
                       "empty range: low " + std::to_string(partition_low) + " > high " +
                           std::to_string(partition_high));
  return mark_ready(context, *r, partition_low, partition_high, kCall);
}

extern "C" int PMPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request) {
  constexpr const char* kCall = "MPI_Pready_list";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  MpiRequest* r = active_send(context, kCall, request, rc);
  if (r == nullptr) return rc;
  if (length < 0) return raise_error(context, context.communicator(r->comm), kCall, MPI_ERR_ARG, "negative length");
  if (length > 0 && array_of_partitions == nullptr)
    return raise_error(context, context.communicator(r->comm), kCall, MPI_ERR_ARG, "null partition array");
  for (int i = 0; i < length; ++i)
    if ((rc = check_partition(context, kCall, *r, array_of_partitions[i]))) return rc;
  // Each run of consecutive partitions in the list goes as one message.
  for (int i = 0, end = 0; i < length; i = end) {
    for (end = i + 1; end < length && array_of_partitions[end] == array_of_partitions[end - 1] + 1;) ++end;
    if ((rc = mark_ready(context, *r, array_of_partitions[i], array_of_partitions[end - 1], kCall))) return rc;
  }
  return MPI_SUCCESS;
}

// An inactive request has nothing pending: every partition counts as
// arrived (MPI-4.1 4.2.2).
extern "C" int PMPI_Parrived(MPI_Request request, int partition, int* flag) {
  constexpr const char* kCall = "MPI_Parrived";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (flag == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null flag pointer");
  int rc = MPI_SUCCESS;
  MpiRequest* r = checked(context, kCall, request, false, rc);
  if (r == nullptr) return rc;
  if ((rc = check_partition(context, kCall, *r, partition))) return rc;
  *flag = r->inactive || partition_arrived(context, *r, partition) ? 1 : 0;
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Psend_init)
SHMPI_PMPI_ALIAS(Precv_init)
SHMPI_PMPI_ALIAS(Pready)
SHMPI_PMPI_ALIAS(Pready_range)
SHMPI_PMPI_ALIAS(Pready_list)
SHMPI_PMPI_ALIAS(Parrived)
