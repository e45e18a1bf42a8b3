#include "runtime/thread_support.hpp"

#include <cstdio>
#include <string>

#include "runtime/context.hpp"
#include "runtime/errors.hpp"

namespace shmpi::runtime {

ThreadSupport g_thread_support;

namespace {

// This thread holds g_thread_support.lock for a call (also while that call
// waits with the lock handed on: it still owns the call).
thread_local bool t_in_call = false;

// "send to world rank 1, tag 7", "receive from any rank, tag 3"
std::string operation(const MpiRequest& r) {
  if (r.collective) return "nonblocking collective";
  if (r.life == RequestLife::Partitioned) return "partitioned transfer";
  const auto tag = [](std::int32_t t) { return t == MPI_ANY_TAG ? std::string("any tag") : "tag " + std::to_string(t); };
  if (r.pml.kind == pml::RequestKind::Send)
    return "send to world rank " + std::to_string(r.pml.dest) + ", " + tag(r.pml.envelope.tag);
  const std::int32_t source = r.pml.want.source;
  return std::string("receive from ") + (source == MPI_ANY_SOURCE ? "any rank" : "rank " + std::to_string(source)) +
         ", " + tag(r.pml.want.tag);
}

std::string comm_name(Context& context, MPI_Comm handle) {
  const Communicator* comm = context.communicator(handle);
  return comm != nullptr ? comm->name : "communicator " + std::to_string(handle);
}

// One line per operation pending in other threads; their number.
std::uint32_t report_pending(Context& context) {
  std::uint32_t count = 0;
  for (const BlockedCall* call : context.waiting()) {
    std::fprintf(stderr, "shmpi: rank %u: MPI_Finalize: a thread is blocked in %s (peer %d, tag %d, context %u)\n",
                 context.rank(), call->call, call->peer, call->tag, call->context);
    ++count;
  }
  context.requests().for_each_pending([&](MPI_Request handle, const MpiRequest& r) {
    std::fprintf(stderr, "shmpi: rank %u: MPI_Finalize: request %d pending: %s, on %s\n", context.rank(), handle,
                 operation(r).c_str(), comm_name(context, r.comm).c_str());
    ++count;
  });
  return count;
}

}  // namespace

void Entry::leave(EntryLock& lock) noexcept {
  if (Context* context = current_context(); context != nullptr) context->call_leaving();
  t_in_call = false;
  lock.unlock();
}

Entry enter_shared(const char* call) {
  ThreadSupport& threads = g_thread_support;
  if (t_in_call) {
    Context* context = current_context();
    if (context == nullptr) fatal_without_context(call, "called after MPI_Finalize");
    return Entry{*context, nullptr};
  }
  threads.lock.lock();
  Context* context = current_context();
  if (context == nullptr || threads.finalizing) {
    const bool before_init = context == nullptr && !was_finalized();
    threads.lock.unlock();
    fatal_without_context(call, before_init ? "called before MPI_Init"
                                            : "called after MPI_Finalize (by another thread)");
  }
  t_in_call = true;
  context->call_entered();
  return Entry{*context, &threads.lock};
}

int begin_shared_finalize(Context& context) {
  const std::uint32_t pending = report_pending(context);
  if (pending != 0)
    return raise_error(context, nullptr, "MPI_Finalize", MPI_ERR_PENDING,
                       std::to_string(pending) +
                           " operation(s) of other threads still pending (listed above): not finalizing");
  g_thread_support.finalizing = true;
  return MPI_SUCCESS;
}

}  // namespace shmpi::runtime
