// MPI entry points: start-up, shut-down, threads, time, version.
//
// Thread support: every level up to MPI_THREAD_MULTIPLE. Under MULTIPLE
// each call holds the rank's lock (runtime/thread_support.hpp); below it
// the caller serialises calls and nothing is locked.
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <utility>

#include "runtime/api.hpp"
#include "runtime/attribute_hooks.hpp"

#ifndef SHMPI_VERSION_STRING
#define SHMPI_VERSION_STRING "unknown"
#endif

using namespace shmpi::runtime;

namespace {

constexpr const char* kLibraryVersion =
    "shmpi " SHMPI_VERSION_STRING " (MPI 3.1, shared-memory point-to-point for one node)";

int initialize(const char* call, int provided) {
  if (was_finalized()) fatal_without_context(call, "called after MPI_Finalize");
  if (was_initialized()) fatal_without_context(call, "called twice");
  ThreadSupport& threads = g_thread_support;
  threads.provided = provided;
  threads.main_thread = ::pthread_self();
  threads.shared.store(provided == MPI_THREAD_MULTIPLE, std::memory_order_relaxed);
  try {
    std::unique_ptr<KvStore> store = connect_to_launcher();
    auto context = std::make_unique<Context>(Config::from_environment(), std::move(store));
    if (provided == MPI_THREAD_MULTIPLE) context->share_between_threads(threads.lock);
    set_current_context(std::move(context));
  } catch (const std::exception& e) {
    fatal_without_context(call, e.what());
  }
  return MPI_SUCCESS;
}

double seconds(const timespec& ts) noexcept {
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

extern "C" int PMPI_Init(int*, char***) { return initialize("MPI_Init", MPI_THREAD_SINGLE); }

extern "C" int PMPI_Init_thread(int*, char***, int required, int* provided) {
  const int level = std::clamp(required, MPI_THREAD_SINGLE, MPI_THREAD_MULTIPLE);
  const int rc = initialize("MPI_Init_thread", level);
  if (provided != nullptr) *provided = level;
  return rc;
}

extern "C" int PMPI_Query_thread(int* provided) {
  constexpr const char* kCall = "MPI_Query_thread";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (provided == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null provided pointer");
  *provided = g_thread_support.provided;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Is_thread_main(int* flag) {
  constexpr const char* kCall = "MPI_Is_thread_main";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (flag == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null flag pointer");
  *flag = ::pthread_equal(::pthread_self(), g_thread_support.main_thread) ? 1 : 0;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Finalize(void) {
  const Entry entry = enter("MPI_Finalize");
  Context& context = entry.context();
  if (threads_share_rank()) {
    // Other threads' calls must have returned (MPI-4.1 section 11.2.2).
    if (const int refused = begin_shared_finalize(context); refused != MPI_SUCCESS) return refused;
  }
  // MPI_COMM_SELF's attributes are deleted first, as if it were freed
  // (MPI-4.1 section 11.2.4): libraries hang clean-up on it.
  erase_comm_attributes(context, MPI_COMM_SELF);
  context.finalize();
  take_current_context().reset();
  return MPI_SUCCESS;
}

extern "C" int PMPI_Initialized(int* flag) {
  if (flag != nullptr) *flag = was_initialized() ? 1 : 0;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Finalized(int* flag) {
  if (flag != nullptr) *flag = was_finalized() ? 1 : 0;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Abort(MPI_Comm comm, int errorcode) {
  Context* context = current_context();
  if (context == nullptr) std::exit(errorcode);
  (void)comm;  // every communicator spans the job's ranks that matter: stop them all
  // What the rank printed last is often why it aborts; through the
  // launcher's pipe it still sits in stdio's buffer, and neither the
  // launcher's kill nor _Exit would flush it.
  std::fflush(nullptr);
  context->store().abort(errorcode, "");  // shmpirun names the rank and the code
}

extern "C" int PMPI_Get_processor_name(char* name, int* resultlen) {
  constexpr const char* kCall = "MPI_Get_processor_name";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (name == nullptr || resultlen == nullptr)
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null name or resultlen pointer");
  if (::gethostname(name, MPI_MAX_PROCESSOR_NAME) != 0) std::snprintf(name, MPI_MAX_PROCESSOR_NAME, "localhost");
  name[MPI_MAX_PROCESSOR_NAME - 1] = '\0';
  *resultlen = static_cast<int>(std::strlen(name));
  return MPI_SUCCESS;
}

// MPI_Get_version and MPI_Get_library_version may be called at any time.
extern "C" int PMPI_Get_version(int* version, int* subversion) {
  if (version == nullptr || subversion == nullptr) return MPI_ERR_ARG;
  *version = MPI_VERSION;
  *subversion = MPI_SUBVERSION;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Get_library_version(char* version, int* resultlen) {
  if (version == nullptr || resultlen == nullptr) return MPI_ERR_ARG;
  std::snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING, "%s", kLibraryVersion);
  *resultlen = static_cast<int>(std::strlen(version));
  return MPI_SUCCESS;
}

extern "C" double PMPI_Wtime(void) {
  context_for("MPI_Wtime");
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return seconds(ts);
}

extern "C" double PMPI_Wtick(void) {
  context_for("MPI_Wtick");
  timespec ts{};
  ::clock_getres(CLOCK_MONOTONIC, &ts);
  return seconds(ts);
}

SHMPI_PMPI_ALIAS(Init)
SHMPI_PMPI_ALIAS(Init_thread)
SHMPI_PMPI_ALIAS(Query_thread)
SHMPI_PMPI_ALIAS(Is_thread_main)
SHMPI_PMPI_ALIAS(Get_processor_name)
SHMPI_PMPI_ALIAS(Get_version)
SHMPI_PMPI_ALIAS(Get_library_version)
SHMPI_PMPI_ALIAS(Finalize)
SHMPI_PMPI_ALIAS(Initialized)
SHMPI_PMPI_ALIAS(Finalized)
SHMPI_PMPI_ALIAS(Abort)
SHMPI_PMPI_ALIAS(Wtime)
SHMPI_PMPI_ALIAS(Wtick)
