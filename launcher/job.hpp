// Job: one run of shmpirun from spawn to the last reaped rank.
//
// Threads: everything here runs on the main thread. PMIx's progress thread
// only pushes ServerEvents; the poll loop drains them before it looks at
// exited ranks, so "finalized" is always seen before that rank's exit.
//
// Lifecycle: the first failure (a rank exits non-zero, is killed, exits
// without MPI_Finalize, calls MPI_Abort; --timeout; SIGINT/SIGTERM/SIGHUP)
// is reported once, sets the exit code, and stops the job: the signal (or
// SIGTERM) to every rank, SIGKILL after the kill grace.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "child.hpp"
#include "event_fds.hpp"
#include "launch_plan.hpp"
#include "output_router.hpp"
#include "pmix_diagnostics.hpp"
#include "pmix_server.hpp"
#include "server_events.hpp"
#include "session_dir.hpp"
#include "status_page.hpp"
#include "stdin_pump.hpp"

namespace shmpi::launcher {

class Job {
 public:
  explicit Job(LaunchPlan plan);
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;

  // Starts the ranks, runs until all are reaped, returns shmpirun's exit code.
  int run();

 private:
  struct RankSlot {
    std::optional<Child> child;
    UniqueFd out;  // our read ends of the rank's stdout/stderr pipes
    UniqueFd err;
    bool connected = false;  // PMIx_Init reached the server
    bool finalized = false;  // PMIx_Finalize reached the server
  };

  // job_spawn.cpp
  struct SpawnShared;
  void spawn_all();
  void spawn_rank(int rank, const SpawnShared& shared);
  Environment job_environment() const;
  void report_bindings() const;
  void check_exec_failures(UniqueFd read_end) const;

  // job_loop.cpp
  void poll_once();
  void on_server_events();
  void on_signal(int sig);
  void on_timeout();
  void on_output(int rank, Stream stream);
  void on_exit(int rank);
  void judge_exit(int rank, int status);
  void fail(int rank, const std::string& how, int exit_code);
  void stop(int sig);
  void signal_ranks(int sig);
  void drain_outputs(int rank);
  void print_hang_report() const;
  std::string rank_name(int rank) const;

  LaunchPlan plan_;
  SignalFd signals_;  // before server_: PMIx's thread inherits the blocked mask
  SessionDir session_;
  ServerEvents events_;
  StatusPage status_;
  PmixDiagnostics pmix_diagnostics_;  // before server_: libpmix writes to it until finalized
  std::optional<PmixServer> server_;
  OutputRouter output_;
  TimerFd timeout_timer_;
  TimerFd grace_timer_;
  std::optional<StdinPump> stdin_pump_;
  std::vector<RankSlot> ranks_;  // declared last: children die before the server goes

  pid_t pgid_ = 0;             // the ranks' process group (rank 0's pid)
  int alive_ = 0;              // ranks not yet reaped
  bool stopping_ = false;      // the job is being stopped; later failures are not reported
  bool any_connected_ = false;
  std::vector<int> unconnected_exits_;  // exited 0 before any rank reached PMIx_Init
  std::optional<int> exit_code_;        // set by the first failure
};

}  // namespace shmpi::launcher
