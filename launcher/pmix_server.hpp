// PmixServer: shmpirun's side of the PMIx wire-up (DESIGN.md, "Wire-up").
//
// The one owner of libpmix's server state: PMIx_server_init in the
// constructor, PMIx_server_finalize in the destructor (libpmix allows one
// server per process, so only one PmixServer may exist at a time). Upcalls
// run on PMIx's progress thread and only push ServerEvents.
#pragma once

#include <string>
#include <vector>

#include "server_events.hpp"

namespace shmpi::launcher {

// What the namespace says about the job (one node, every rank local).
struct JobLayout {
  std::string nspace;                // also PMIX_JOBID
  std::string hostname;
  std::vector<std::string> cpusets;  // per rank, "0-3,8" list; "" = not bound
  int size() const noexcept { return static_cast<int>(cpusets.size()); }
};

class PmixServer {
 public:
  // `tmpdir` receives every rendezvous file (PMIX_SERVER_TMPDIR and
  // PMIX_SYSTEM_TMPDIR). Throws LaunchError.
  PmixServer(const std::string& tmpdir, ServerEvents& events);
  PmixServer(const PmixServer&) = delete;
  PmixServer& operator=(const PmixServer&) = delete;
  ~PmixServer();

  // Registers the namespace and every rank as a client (blocking).
  void register_job(const JobLayout& layout);

  // `base` plus what rank `rank`'s PMIx client needs to connect back
  // (PMIx_server_setup_fork).
  std::vector<std::string> client_env(int rank, const std::vector<std::string>& base) const;

 private:
  ServerEvents& events_;
  std::string nspace_;
};

// "0,1,2,...,n-1" (PMIX_LOCAL_PEERS).
std::string local_peers(int size);

}  // namespace shmpi::launcher
