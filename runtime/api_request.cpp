// MPI entry points: completing, freeing and cancelling requests.
//
// Persistent and partitioned requests (MPI-3.1 3.9, MPI-4.1 4.2): an
// inactive one counts as complete for MPI_Waitall / MPI_Testall and as
// absent for the any / some calls, like MPI_REQUEST_NULL, and yields an
// empty status; one that completes becomes inactive instead of freed.
#include <vector>

#include "runtime/api.hpp"
#include "runtime/p2p.hpp"
#include "runtime/packed_transfer.hpp"
#include "runtime/status.hpp"

using namespace shmpi::runtime;

namespace {

// An empty status (MPI-3.1 3.7.3): what a null or inactive request yields,
// error field included (MPI_SUCCESS; MPICH's pt2pt/rqstatus checks it).
void fill_empty_status(MPI_Status* status) noexcept {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
  status->shmpi_cancelled = 0;
  set_status_bytes(*status, 0);
}

// Checks every handle of an array; MPI_SUCCESS or the raised error.
int check_requests(Context& context, const char* call, int count, const MPI_Request* requests) {
  if (count < 0) return raise_error(context, nullptr, call, MPI_ERR_COUNT, "negative count " + std::to_string(count));
  if (count > 0 && requests == nullptr) return raise_error(context, nullptr, call, MPI_ERR_REQUEST, "null request array");
  for (int i = 0; i < count; ++i) {
    if (requests[i] != MPI_REQUEST_NULL && context.requests().find(requests[i]) == nullptr)
      return raise_error(context, nullptr, call, MPI_ERR_REQUEST,
                         "invalid request " + std::to_string(requests[i]) + " at index " + std::to_string(i));
  }
  return MPI_SUCCESS;
}

// A partitioned request's parts complete one by one in the pml; polling
// moves it on and notices when all have.
bool settled(Context& context, MpiRequest& r) noexcept {
  return r.pml.complete || (r.life == RequestLife::Partitioned && poll_partitioned(context, r));
}

bool is_complete(Context& context, MPI_Request handle) noexcept {
  return handle != MPI_REQUEST_NULL && settled(context, *context.requests().find(handle));
}

// Null, or persistent and inactive: nothing to wait for.
bool is_idle(Context& context, MPI_Request handle) noexcept {
  return handle == MPI_REQUEST_NULL || context.requests().find(handle)->inactive;
}

// Retires the requests of a multiple completion one by one and remembers
// the first that failed, for MPI_ERR_IN_STATUS once all are retired.
// MPI-4.1 3.2.5: the statuses' error fields are written if and only if the
// call returns MPI_ERR_IN_STATUS, so the caller says beforehand whether
// one of the requests failed (any_failed).
class MultipleCompletion {
 public:
  explicit MultipleCompletion(bool errors_in_status) noexcept : errors_in_status_(errors_in_status) {}

  // Retires `requests[index]` (complete and valid) into `status`: one
  // lookup, status filled with its error (MPI_ERR_IN_STATUS points there),
  // request retired (RequestTable::retire).
  void retire(Context& context, MPI_Request* requests, int index, MPI_Status* status) noexcept {
    MpiRequest& r = *context.requests().find(requests[index]);
    if (r.inactive) {
      fill_empty_status(status);
      return;
    }
    finish_packed(r);
    const int error = completion_error(r);
    if (status != MPI_STATUS_IGNORE) {
      fill_request_status_of(r, *status);
      if (errors_in_status_) status->MPI_ERROR = error;
    }
    if (error != MPI_SUCCESS && failed_ < 0) {
      failed_ = index;
      failed_comm_ = r.comm;
    }
    context.requests().retire(r, requests[index]);
  }
  // MPI_SUCCESS, or MPI_ERR_IN_STATUS raised on the first failed request's communicator.
  int result(Context& context, const char* call) const {
    if (failed_ < 0) return MPI_SUCCESS;
    return raise_error(context, context.communicator(failed_comm_), call, MPI_ERR_IN_STATUS,
                       "request " + std::to_string(failed_) + " failed (see its status: message truncated)");
  }

 private:
  bool errors_in_status_;
  int failed_ = -1;
  MPI_Comm failed_comm_ = MPI_COMM_NULL;
};

// Whether the complete request `handle` (or a null one) failed.
bool failed(Context& context, MPI_Request handle) noexcept {
  if (handle == MPI_REQUEST_NULL) return false;
  const MpiRequest& r = *context.requests().find(handle);
  return !r.inactive && completion_error(r) != MPI_SUCCESS;
}

// Retires the completed requests among `indices`, their statuses in that
// order; MPI_ERR_IN_STATUS if any failed.
int retire_many(Context& context, const char* call, MPI_Request* requests, const std::vector<int>& indices,
                MPI_Status* statuses) {
  bool any_failed = false;
  for (const int i : indices) any_failed = any_failed || failed(context, requests[i]);
  MultipleCompletion completion(any_failed);
  for (std::size_t k = 0; k < indices.size(); ++k) {
    MPI_Status* s = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[k];
    completion.retire(context, requests, indices[k], s);
  }
  return completion.result(context, call);
}

// Indices of completed requests; kept between calls so that completing
// requests allocates nothing once warm (the runtime is single-threaded).
std::vector<int>& scratch_indices() noexcept {
  static std::vector<int> indices;
  indices.clear();
  return indices;
}

// The world rank a receive waits on, or -1 (any source, or no communicator).
std::int32_t source_world_rank(Context& context, const MpiRequest& r) noexcept {
  const Communicator* comm = context.communicator(r.comm);
  const std::int32_t source = r.pml.want.source;
  return comm != nullptr && source >= 0 ? static_cast<std::int32_t>(comm->world_rank(source)) : -1;
}

// A wait's fast path: `r`, the one receive posted, takes its message
// straight from the channel (Pml::try_finish_now), as MPI_Recv would.
bool finish_now(Context& context, MpiRequest& r) noexcept {
  if (r.life == RequestLife::Partitioned || r.pml.kind != shmpi::pml::RequestKind::Recv || r.pml.complete) return false;
  const std::int32_t peer = source_world_rank(context, r);
  return peer >= 0 && context.pml().try_finish_now(r.pml, static_cast<std::uint32_t>(peer));
}

// What a rank blocked on `r` waits for, for the hang report.
BlockedCall blocked_on(Context& context, const MpiRequest& r, const char* call) noexcept {
  if (r.pml.kind == shmpi::pml::RequestKind::Send)
    return BlockedCall{call, static_cast<std::int32_t>(r.pml.dest), r.pml.envelope.tag, r.pml.length,
                       r.pml.envelope.context};
  return BlockedCall{call, source_world_rank(context, r), r.pml.want.tag, r.pml.capacity, r.pml.want.context};
}

// Retires every request of an array (all complete or null, all valid) in
// one pass (MPI_Waitall retires a whole window of small messages at a time,
// so this is on the message-rate path).
int retire_all(Context& context, const char* call, int count, MPI_Request* requests, MPI_Status* statuses) {
  bool any_failed = false;
  for (int i = 0; i < count; ++i) any_failed = any_failed || failed(context, requests[i]);
  MultipleCompletion completion(any_failed);
  for (int i = 0; i < count; ++i) {
    MPI_Status* s = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
    if (requests[i] == MPI_REQUEST_NULL) {
      fill_empty_status(s);
    } else {
      completion.retire(context, requests, i, s);
    }
  }
  return completion.result(context, call);
}

}  // namespace

extern "C" int PMPI_Wait(MPI_Request* request, MPI_Status* status) {
  constexpr const char* kCall = "MPI_Wait";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (request == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_REQUEST, "null request pointer");
  if (int rc = check_requests(context, kCall, 1, request)) return rc;
  if (is_idle(context, *request)) {
    fill_empty_status(status);
    return MPI_SUCCESS;
  }
  MpiRequest& r = *context.requests().find(*request);
  if (r.life == RequestLife::Partitioned) {
    context.wait_until([&] { return settled(context, r); }, blocked_on(context, r, kCall));
  } else if (!finish_now(context, r)) {
    context.wait(r.pml, blocked_on(context, r, kCall));
  }
  context.reap();
  return retire_raising(context, kCall, request, status);
}

extern "C" int PMPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  constexpr const char* kCall = "MPI_Test";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (request == nullptr || flag == nullptr)
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null request or flag pointer");
  if (int rc = check_requests(context, kCall, 1, request)) return rc;
  if (is_idle(context, *request)) {
    *flag = 1;
    fill_empty_status(status);
    return MPI_SUCCESS;
  }
  if (!is_complete(context, *request)) context.progress();
  context.reap();
  *flag = is_complete(context, *request) ? 1 : 0;
  return *flag ? retire_raising(context, kCall, request, status) : MPI_SUCCESS;
}

extern "C" int PMPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  constexpr const char* kCall = "MPI_Waitall";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (int rc = check_requests(context, kCall, count, requests)) return rc;
  // Requests mostly complete in order: resume the scan where it stopped.
  int first_pending = 0;
  const auto over = [&](int i) { return requests[i] == MPI_REQUEST_NULL || is_complete(context, requests[i]); };
  const auto done = [&] {
    while (first_pending < count && over(first_pending)) ++first_pending;
    return first_pending == count;
  };
  if (!done()) {
    // One receive left to complete (a ping-pong's Irecv beside its Isend):
    // the fast path of MPI_Wait.
    int next = first_pending + 1;
    while (next < count && over(next)) ++next;
    if (next == count) finish_now(context, *context.requests().find(requests[first_pending]));
    context.wait_until(done, BlockedCall{kCall, -1, -1, 0, 0});
  }
  context.reap();
  return retire_all(context, kCall, count, requests, statuses);
}

extern "C" int PMPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  constexpr const char* kCall = "MPI_Testall";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (flag == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null flag pointer");
  if (int rc = check_requests(context, kCall, count, requests)) return rc;
  context.progress();
  context.reap();
  for (int i = 0; i < count; ++i) {
    if (requests[i] != MPI_REQUEST_NULL && !is_complete(context, requests[i])) {
      *flag = 0;
      return MPI_SUCCESS;
    }
  }
  *flag = 1;
  return retire_all(context, kCall, count, requests, statuses);
}

namespace {

// Index of the first complete request, MPI_UNDEFINED if none is active,
// -1 if some are active but none complete.
int first_complete(Context& context, int count, const MPI_Request* requests) noexcept {
  bool any_active = false;
  for (int i = 0; i < count; ++i) {
    if (is_idle(context, requests[i])) continue;
    any_active = true;
    if (is_complete(context, requests[i])) return i;
  }
  return any_active ? -1 : MPI_UNDEFINED;
}

}  // namespace

extern "C" int PMPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  constexpr const char* kCall = "MPI_Waitany";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (index == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null index pointer");
  if (int rc = check_requests(context, kCall, count, requests)) return rc;
  int found = -1;
  context.wait_until([&] { return (found = first_complete(context, count, requests)) != -1; },
                     BlockedCall{kCall, -1, -1, 0, 0});
  context.reap();
  *index = found;
  if (found == MPI_UNDEFINED) {
    fill_empty_status(status);
    return MPI_SUCCESS;
  }
  return retire_raising(context, kCall, &requests[found], status);
}

extern "C" int PMPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  constexpr const char* kCall = "MPI_Testany";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (index == nullptr || flag == nullptr)
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null index or flag pointer");
  if (int rc = check_requests(context, kCall, count, requests)) return rc;
  int found = first_complete(context, count, requests);
  if (found == -1) {
    context.progress();
    found = first_complete(context, count, requests);
  }
  context.reap();
  *flag = found != -1 ? 1 : 0;
  *index = found == -1 ? MPI_UNDEFINED : found;
  if (found == -1) return MPI_SUCCESS;
  if (found == MPI_UNDEFINED) {
    fill_empty_status(status);
    return MPI_SUCCESS;
  }
  return retire_raising(context, kCall, &requests[found], status);
}

namespace {

int some(Context& context, const char* call, int incount, MPI_Request* requests, int* outcount, int* indices,
         MPI_Status* statuses, bool block) {
  if (outcount == nullptr) return raise_error(context, nullptr, call, MPI_ERR_ARG, "null outcount pointer");
  if (int rc = check_requests(context, call, incount, requests)) return rc;
  auto state = [&] { return first_complete(context, incount, requests); };
  if (block) {
    context.wait_until([&] { return state() != -1; }, BlockedCall{call, -1, -1, 0, 0});
  } else if (state() == -1) {
    context.progress();
  }
  context.reap();
  if (state() == MPI_UNDEFINED) {
    *outcount = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  std::vector<int>& done = scratch_indices();
  for (int i = 0; i < incount; ++i)
    if (!is_idle(context, requests[i]) && is_complete(context, requests[i])) done.push_back(i);
  *outcount = static_cast<int>(done.size());
  for (std::size_t k = 0; k < done.size() && indices != nullptr; ++k) indices[k] = done[k];
  return retire_many(context, call, requests, done, statuses);
}

}  // namespace

extern "C" int PMPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  const Entry entry = enter("MPI_Waitsome");
  Context& context = entry.context();
  return some(context, "MPI_Waitsome", incount, requests, outcount, indices, statuses, true);
}

extern "C" int PMPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  const Entry entry = enter("MPI_Testsome");
  Context& context = entry.context();
  return some(context, "MPI_Testsome", incount, requests, outcount, indices, statuses, false);
}

extern "C" int PMPI_Request_free(MPI_Request* request) {
  constexpr const char* kCall = "MPI_Request_free";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  MpiRequest* r = request == nullptr ? nullptr : context.requests().find(*request);
  if (r == nullptr)
    return raise_error(context, nullptr, kCall, MPI_ERR_REQUEST,
                       request == nullptr ? "null request pointer" : "invalid request " + std::to_string(*request));
  if (r->life == RequestLife::Partitioned) {
    // Nobody could mark the partitions of a freed send ready (MPI-4.1 4.2).
    if (!r->inactive && !settled(context, *r))
      return raise_error(context, context.communicator(r->comm), kCall, MPI_ERR_REQUEST,
                         "request " + std::to_string(*request) + " is an active partitioned request: complete it first");
    context.requests().release(*r);
  } else {
    context.requests().orphan(*request);  // an active one completes on its own
  }
  *request = MPI_REQUEST_NULL;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Cancel(MPI_Request* request) {
  constexpr const char* kCall = "MPI_Cancel";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  MpiRequest* r = request == nullptr ? nullptr : context.requests().find(*request);
  if (r == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_REQUEST, "invalid request");
  if (r->collective)
    return raise_error(context, context.communicator(r->comm), kCall, MPI_ERR_REQUEST,
                       "a nonblocking collective cannot be cancelled");
  if (r->inactive || r->life == RequestLife::Partitioned)
    return raise_error(context, context.communicator(r->comm), kCall, MPI_ERR_REQUEST,
                       "request " + std::to_string(*request) +
                           (r->inactive ? " is inactive: there is nothing to cancel"
                                        : " is partitioned: an active partitioned request cannot be cancelled"));
  // A send that left, even one complete already, is withdrawn if it can be
  // (pml/withdrawal.cpp); too late, it completes normally.
  if (!r->proc_null) context.pml().cancel(r->pml);
  return MPI_SUCCESS;
}

// Like MPI_Test, but the request stays as it is (not freed, not made inactive).
extern "C" int PMPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  constexpr const char* kCall = "MPI_Request_get_status";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (flag == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null flag pointer");
  if (int rc = check_requests(context, kCall, 1, &request)) return rc;
  if (is_idle(context, request)) {
    *flag = 1;
    fill_empty_status(status);
    return MPI_SUCCESS;
  }
  if (!is_complete(context, request)) context.progress();
  context.reap();
  *flag = is_complete(context, request) ? 1 : 0;
  if (*flag) {
    const MpiRequest& r = *context.requests().find(request);
    fill_request_status(r, status);
  }
  return MPI_SUCCESS;
}

extern "C" int PMPI_Test_cancelled(const MPI_Status* status, int* flag) {
  const Entry entry = enter("MPI_Test_cancelled");
  Context& context = entry.context();
  if (status == nullptr || flag == nullptr)
    return raise_error(context, nullptr, "MPI_Test_cancelled", MPI_ERR_ARG, "null status or flag pointer");
  *flag = status->shmpi_cancelled ? 1 : 0;
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Wait)
SHMPI_PMPI_ALIAS(Test)
SHMPI_PMPI_ALIAS(Waitall)
SHMPI_PMPI_ALIAS(Testall)
SHMPI_PMPI_ALIAS(Waitany)
SHMPI_PMPI_ALIAS(Testany)
SHMPI_PMPI_ALIAS(Waitsome)
SHMPI_PMPI_ALIAS(Testsome)
SHMPI_PMPI_ALIAS(Request_free)
SHMPI_PMPI_ALIAS(Cancel)
SHMPI_PMPI_ALIAS(Test_cancelled)
SHMPI_PMPI_ALIAS(Request_get_status)
