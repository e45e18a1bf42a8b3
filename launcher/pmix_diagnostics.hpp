// PmixDiagnostics: where libpmix's own messages go in shmpirun.
//
// libpmix prints its errors ("[host:pid] PMIX ERROR: ...") with write() on
// the stderr of the process it runs in, or on the fd named by
// PMIX_OUTPUT_STDERR_FD when that is set at its initialisation. We point it
// at a pipe and forward whole lines as "shmpirun: libpmix: ..." while the
// job runs. Once the job is stopping (a failure reported, a signal), they
// are dropped: libpmix then only complains about the connections of the
// ranks we are killing (a rank killed inside PMIx_Init makes its connection
// handler print "UNREACHABLE"), a second line about a failure already
// reported in one.
#pragma once

#include <string_view>

#include "line_splitter.hpp"
#include "unique_fd.hpp"

namespace shmpi::launcher {

class PmixDiagnostics {
 public:
  // Sets PMIX_OUTPUT_STDERR_FD in our environment: construct before
  // PMIx_server_init. Forwarded lines go to `sink_fd`.
  explicit PmixDiagnostics(int sink_fd = 2);
  PmixDiagnostics(const PmixDiagnostics&) = delete;
  PmixDiagnostics& operator=(const PmixDiagnostics&) = delete;
  // Forwards (or drops) what is left. The write end stays open: a libpmix
  // thread left blocked in its finalize still holds its number.
  ~PmixDiagnostics();

  int fd() const noexcept { return read_end_.get(); }  // poll for POLLIN
  void on_readable();  // reads what is there; forwards or drops whole lines
  void silence() noexcept { silent_ = true; }  // the job is stopping: drop from now on

 private:
  void emit(std::string_view line) const;

  int sink_fd_;
  UniqueFd read_end_;
  UniqueFd write_end_;
  LineSplitter lines_{4096};
  bool silent_ = false;
};

}  // namespace shmpi::launcher
