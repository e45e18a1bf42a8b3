// PmixServer: shmpirun's side of the PMIx wire-up (DESIGN.md, "Wire-up").
//
// The one owner of libpmix's server state: PMIx_server_init in the
// constructor, PMIx_server_finalize in the destructor (libpmix allows one
// server per process, so only one PmixServer may exist at a time). Upcalls
// run on PMIx's progress thread and only push ServerEvents.
//
// Start-up cost: left alone, PMIx_server_init discovers the hwloc topology
// including PCI devices (config-space reads of every device) and loads
// hwloc's GL/OpenCL plugins: ~100 ms here. We hand it a topology loaded
// without I/O objects and without plugins (PMIX_TOPOLOGY2) instead.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "pmix_info_list.hpp"
#include "server_events.hpp"

namespace shmpi::launcher {

// What the namespace says about the job (one node, every rank local).
struct JobLayout {
  std::string nspace;                // also PMIX_JOBID
  std::string hostname;
  std::vector<std::string> cpusets;  // per rank, "0-3,8" list; "" = not bound
  int fake_nodes = 0;                // > 0: rank r's PMIX_HOSTNAME is hostname-node<r % fake_nodes>
  std::string host_of(int rank) const {
    return fake_nodes > 0 ? hostname + "-node" + std::to_string(rank % fake_nodes) : hostname;
  }
  int size() const noexcept { return static_cast<int>(cpusets.size()); }
};

// An hwloc topology of this machine without I/O devices (owner).
class HwlocTopology {
 public:
  HwlocTopology();  // throws LaunchError
  HwlocTopology(const HwlocTopology&) = delete;
  HwlocTopology& operator=(const HwlocTopology&) = delete;
  ~HwlocTopology();
  void* get() const noexcept { return topology_; }  // hwloc_topology_t

 private:
  void* topology_ = nullptr;
};

class PmixServer {
 public:
  // `tmpdir` receives every rendezvous file (PMIX_SERVER_TMPDIR and
  // PMIX_SYSTEM_TMPDIR). Throws LaunchError.
  PmixServer(const std::string& tmpdir, ServerEvents& events);
  PmixServer(const PmixServer&) = delete;
  PmixServer& operator=(const PmixServer&) = delete;
  ~PmixServer();  // waits at most kFinalizeTimeout for PMIx_server_finalize

  // How long the destructor waits for PMIx_server_finalize.
  static constexpr std::chrono::seconds kFinalizeTimeout{3};

  // True once a destructor gave up waiting: PMIx's threads may be blocked,
  // so the process must end with _Exit (no exit handlers).
  static bool finalize_abandoned() noexcept;

  // Registers the namespace and every rank as a client (blocking).
  void register_job(const JobLayout& layout);

  // `base` plus what rank `rank`'s PMIx client needs to connect back
  // (PMIx_server_setup_fork).
  std::vector<std::string> client_env(int rank, const std::vector<std::string>& base) const;

 private:
  ServerEvents& events_;
  std::string nspace_;
  HwlocTopology topology_;  // PMIx keeps pointers into these two until finalize
  InfoArray init_info_;
};

// "0,1,2,...,n-1" (PMIX_LOCAL_PEERS).
std::string local_peers(int size);

}  // namespace shmpi::launcher
