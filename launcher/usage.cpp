// The text of shmpirun --help (declared in options.hpp).
#include "options.hpp"

namespace shmpi::launcher {

std::string usage_text() {
  return R"(usage: shmpirun [options] program [args...]

Runs N copies of an MPI program on this node, wired up through PMIx.

options (a single dash works too, and --opt=value):
  -n, -np N               number of ranks (default: one per available CPU)
  --oversubscribe         allow more ranks than CPUs (ranks then yield when
                          waiting, and are not bound unless --bind-to says so)
  --bind-to none|core|numa   CPU binding (default: core if the ranks fit)
  --map-by core|numa      order in which ranks take CPUs (default: core)
  --report-bindings       print each rank's binding on stderr
  --tag-output            prefix output lines with [1,rank]<stdout>: / <stderr>:
  --timestamp-output      prefix output lines with the local time (ms)
  --output-filename DIR   write rank N's output to DIR/1/rank.N/stdout, stderr
  -x VAR[=value]          set VAR for the ranks (VAR alone: keep its value)
  --set NAME=VALUE        set a tunable (env SHMPI_<NAME>); shmpi_info lists them
  --profile NAME          take the tunables' defaults from profile NAME (env
                          SHMPI_PROFILE) instead of the one chosen for this CPU
  --report stats          at MPI_Finalize, rank 0 prints what the traffic did
                          (messages and bytes by protocol, decisions, time blocked)
  --report comm-matrix FILE   write the bytes sent between each pair of ranks to
                          FILE (CSV; messages to FILE.messages.csv) and, with
                          gnuplot in PATH, a heat map to FILE.png
  --fake-nodes K          give the ranks K host names, round-robin (PMIX_HOSTNAME),
                          so ranks on different "nodes" talk through the network
                          transport (UCX) on this host: for tests
  --timeout S             after S seconds: print the hang report, stop, exit 124
  --kill-grace S          seconds between SIGTERM and SIGKILL when stopping (2)
  --version, --help

signals: SIGINT/SIGTERM/SIGHUP are forwarded to the ranks, which are then
stopped (a second SIGINT kills them at once); SIGQUIT prints the hang report
and the job goes on; SIGUSR1/SIGUSR2 are forwarded; SIGTSTP (Ctrl-Z) stops
the ranks and then shmpirun, and SIGCONT (fg, bg) resumes them all.

exit status:
  0      every rank called MPI_Finalize and exited 0
  N      the first rank that failed exited with status N (128+S if killed by
         signal S; 1 if it exited 0 without MPI_Finalize); MPI_Abort(code)
         exits with code
  2      bad command line or environment; nothing was started
  124    --timeout expired
  128+S  shmpirun received signal S (SIGINT: 130, SIGTERM: 143)
  1      shmpirun itself failed
)";
}

}  // namespace shmpi::launcher
