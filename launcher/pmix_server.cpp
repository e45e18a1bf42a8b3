#include "pmix_server.hpp"

#include <hwloc.h>
#include <pmix.h>
#include <pmix_server.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

#include "launch_error.hpp"
#include "pmix_info_list.hpp"

namespace shmpi::launcher {
namespace {

// ---- upcalls: PMIx's progress thread; push an event and return at once ----
// `server_object` is the ServerEvents* given to PMIx_server_register_client.

ServerEvents* events_of(void* server_object) { return static_cast<ServerEvents*>(server_object); }

pmix_status_t on_connected(const pmix_proc_t* proc, void* server_object, pmix_op_cbfunc_t cbfunc,
                           void* cbdata) {
  if (server_object != nullptr)
    events_of(server_object)->push({ServerEvent::Kind::Connected, static_cast<int>(proc->rank), 0, {}});
  if (cbfunc != nullptr) cbfunc(PMIX_SUCCESS, cbdata);
  return PMIX_SUCCESS;
}

pmix_status_t on_finalized(const pmix_proc_t* proc, void* server_object, pmix_op_cbfunc_t cbfunc,
                           void* cbdata) {
  // Pushed before the client is released, so before it can exit.
  if (server_object != nullptr)
    events_of(server_object)->push({ServerEvent::Kind::Finalized, static_cast<int>(proc->rank), 0, {}});
  if (cbfunc != nullptr) cbfunc(PMIX_SUCCESS, cbdata);
  return PMIX_SUCCESS;
}

pmix_status_t on_abort(const pmix_proc_t* proc, void* server_object, int status, const char msg[],
                       pmix_proc_t[], size_t, pmix_op_cbfunc_t cbfunc, void* cbdata) {
  // Whatever `procs` says, MPI_Abort semantics stop the whole job.
  if (server_object != nullptr)
    events_of(server_object)->push({ServerEvent::Kind::Aborted, static_cast<int>(proc->rank), status,
                                    msg != nullptr ? msg : ""});
  if (cbfunc != nullptr) cbfunc(PMIX_SUCCESS, cbdata);
  return PMIX_SUCCESS;
}

// Every participant is local (one node): the collected data is already the
// whole job's, so hand it straight back. libpmix does not even call this
// when all procs are local (DESIGN.md facts); it is here for completeness.
pmix_status_t on_fence(const pmix_proc_t[], size_t, const pmix_info_t[], size_t, char* data,
                       size_t ndata, pmix_modex_cbfunc_t cbfunc, void* cbdata) {
  if (cbfunc != nullptr) cbfunc(PMIX_SUCCESS, data, ndata, cbdata, nullptr, nullptr);
  return PMIX_SUCCESS;
}

// Waits in the main thread for a PMIx operation's completion callback.
struct OpWaiter {
  std::mutex mutex;
  std::condition_variable done_cv;
  bool done = false;
  pmix_status_t status = PMIX_SUCCESS;

  static void complete(pmix_status_t status, void* cbdata) {
    auto* self = static_cast<OpWaiter*>(cbdata);
    std::lock_guard lock(self->mutex);
    self->status = status;
    self->done = true;
    self->done_cv.notify_one();
  }
  // `rc` is what the non-blocking call returned.
  pmix_status_t wait(pmix_status_t rc) {
    if (rc == PMIX_OPERATION_SUCCEEDED) return PMIX_SUCCESS;
    if (rc != PMIX_SUCCESS) return rc;
    std::unique_lock lock(mutex);
    done_cv.wait(lock, [this] { return done; });
    return status;
  }
};

void check(pmix_status_t rc, const std::string& what) {
  if (rc != PMIX_SUCCESS) throw LaunchError(what + " failed: " + PMIx_Error_string(rc), kExitInternal);
}

pmix_server_module_t make_module() {
  pmix_server_module_t module;
  std::memset(&module, 0, sizeof module);
  module.client_connected = on_connected;
  module.client_finalized = on_finalized;
  module.abort = on_abort;
  module.fence_nb = on_fence;
  return module;
}

pmix_server_module_t g_module = make_module();  // libpmix keeps the pointer; immutable

}  // namespace

std::string local_peers(int size) {
  std::string peers;
  for (int r = 0; r < size; ++r) {
    if (r != 0) peers += ',';
    peers += std::to_string(r);
  }
  return peers;
}

HwlocTopology::HwlocTopology() {
  // hwloc's plugins (GL probes X11 displays, PCI) are of no use here; the
  // variable is read when hwloc first initialises its components, in this
  // process only (the ranks' environment was captured earlier).
  ::setenv("HWLOC_PLUGINS_PATH", "/nonexistent", 0);
  hwloc_topology_t topology = nullptr;
  if (hwloc_topology_init(&topology) != 0) throw LaunchError("hwloc_topology_init failed", kExitInternal);
  if (hwloc_topology_load(topology) != 0) {
    hwloc_topology_destroy(topology);
    throw LaunchError("hwloc_topology_load failed", kExitInternal);
  }
  topology_ = topology;
}

HwlocTopology::~HwlocTopology() { hwloc_topology_destroy(static_cast<hwloc_topology_t>(topology_)); }

PmixServer::PmixServer(const std::string& tmpdir, ServerEvents& events) : events_(events) {
  char source[] = "hwloc";
  pmix_topology_t topology{source, topology_.get()};
  InfoList info;
  info.add(PMIX_SERVER_TMPDIR, tmpdir)
      .add(PMIX_SYSTEM_TMPDIR, tmpdir)
      .add_bool(PMIX_SERVER_TOOL_SUPPORT, false)
      .add_bool(PMIX_SERVER_SYSTEM_SUPPORT, false)
      .add_topology(PMIX_TOPOLOGY2, topology);
  info.convert(init_info_);
  check(PMIx_server_init(&g_module, init_info_.data(), init_info_.size()), "PMIx_server_init");
}

namespace {
std::atomic<bool> g_finalize_abandoned{false};
}  // namespace

// libpmix 4.2 can deadlock in PMIx_server_finalize after a client's
// connection broke during the job (a rank killed while it connects: about
// one no-finalize run in 150 here, after "PMIX ERROR: UNREACHABLE" from its
// connection handler, which leaves a lock held). By now the job is over and
// reported, so finalize gets a bounded time on a thread of its own and is
// left blocked if it overruns; main() then ends the process with _Exit.
PmixServer::~PmixServer() {
  struct Finalize {
    std::mutex mutex;
    std::condition_variable done_cv;
    bool done = false;
  };
  auto state = std::make_shared<Finalize>();
  std::thread finalize([state] {
    // Test hook: stall as libpmix does when it deadlocks.
    if (std::getenv("SHMPIRUN_TEST_STALL_FINALIZE") != nullptr)
      for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
    PMIx_server_finalize();
    const std::lock_guard lock(state->mutex);
    state->done = true;
    state->done_cv.notify_one();
  });
  std::unique_lock lock(state->mutex);
  if (state->done_cv.wait_for(lock, kFinalizeTimeout, [&] { return state->done; })) {
    lock.unlock();
    finalize.join();
  } else {
    finalize.detach();
    g_finalize_abandoned.store(true);
  }
}

bool PmixServer::finalize_abandoned() noexcept { return g_finalize_abandoned.load(); }

namespace {

void add_rank_data(InfoList& job, const JobLayout& layout, int rank) {
  InfoList proc;
  proc.add_rank(PMIX_RANK, static_cast<pmix_rank_t>(rank))
      .add_rank(PMIX_GLOBAL_RANK, static_cast<pmix_rank_t>(rank))
      .add_u16(PMIX_LOCAL_RANK, static_cast<std::uint16_t>(rank))
      .add_u16(PMIX_NODE_RANK, static_cast<std::uint16_t>(rank))
      .add_u32(PMIX_APPNUM, 0)
      .add_u32(PMIX_NODEID, 0)
      .add(PMIX_HOSTNAME, layout.host_of(rank));
  const std::string& cpuset = layout.cpusets[static_cast<std::size_t>(rank)];
  if (!cpuset.empty()) proc.add(PMIX_CPUSET, cpuset);
  job.add_array(PMIX_PROC_DATA, proc);
}

}  // namespace

void PmixServer::register_job(const JobLayout& layout) {
  nspace_ = layout.nspace;
  auto size = static_cast<std::uint32_t>(layout.size());
  InfoList job;
  job.add_u32(PMIX_UNIV_SIZE, size)
      .add_u32(PMIX_JOB_SIZE, size)
      .add_u32(PMIX_LOCAL_SIZE, size)
      .add_u32(PMIX_NODE_SIZE, size)
      .add_u32(PMIX_MAX_PROCS, size)
      .add_u32(PMIX_NUM_NODES, 1)
      .add_u32(PMIX_JOB_NUM_APPS, 1)
      .add(PMIX_LOCAL_PEERS, local_peers(layout.size()))
      .add(PMIX_HOSTNAME, layout.hostname)
      .add_u32(PMIX_NODEID, 0)
      .add(PMIX_JOBID, layout.nspace);
  for (int rank = 0; rank < layout.size(); ++rank) add_rank_data(job, layout, rank);
  InfoArray array;
  job.convert(array);

  pmix_nspace_t nspace;
  PMIX_LOAD_NSPACE(nspace, layout.nspace.c_str());
  OpWaiter registered;
  check(registered.wait(PMIx_server_register_nspace(nspace, layout.size(), array.data(), array.size(),
                                                    OpWaiter::complete, &registered)),
        "PMIx_server_register_nspace");
  for (int rank = 0; rank < layout.size(); ++rank) {
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, nspace, static_cast<pmix_rank_t>(rank));
    OpWaiter client;
    check(client.wait(PMIx_server_register_client(&proc, ::getuid(), ::getgid(), &events_,
                                                  OpWaiter::complete, &client)),
          "PMIx_server_register_client");
  }
}

std::vector<std::string> PmixServer::client_env(int rank, const std::vector<std::string>& base) const {
  // PMIx reallocs the array: it must be a malloc'd, NULL-terminated copy.
  auto** env = static_cast<char**>(std::calloc(base.size() + 1, sizeof(char*)));
  if (env == nullptr) throw std::bad_alloc();
  for (std::size_t i = 0; i < base.size(); ++i) env[i] = ::strdup(base[i].c_str());
  pmix_proc_t proc;
  PMIX_LOAD_PROCID(&proc, nspace_.c_str(), static_cast<pmix_rank_t>(rank));
  pmix_status_t rc = PMIx_server_setup_fork(&proc, &env);
  std::vector<std::string> result;
  for (char** entry = env; entry != nullptr && *entry != nullptr; ++entry) {
    if (rc == PMIX_SUCCESS) result.emplace_back(*entry);
    std::free(*entry);
  }
  std::free(env);
  check(rc, "PMIx_server_setup_fork");
  return result;
}

}  // namespace shmpi::launcher
