// The poll loop of a running job and the lifecycle rules (see job.hpp).
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "hang_report.hpp"
#include "job.hpp"
#include "launch_error.hpp"
#include "wait_status.hpp"

namespace shmpi::launcher {
namespace {

void say(std::string line) {
  line = "shmpirun: " + line + "\n";
  [[maybe_unused]] ssize_t n = ::write(2, line.data(), line.size());
}

enum class Source { Signal, Server, PmixOutput, Timeout, Grace, StdinIn, StdinOut, Exit, Out, Err };

struct PollSet {
  std::vector<pollfd> fds;
  std::vector<std::pair<Source, int>> sources;  // parallel to fds: what, which rank
  void add(int fd, short events, Source source, int rank = -1) {
    if (fd < 0) return;
    fds.push_back(pollfd{fd, events, 0});
    sources.emplace_back(source, rank);
  }
  bool ready(std::size_t i) const { return fds[i].revents != 0; }
};

std::string format_seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", s);
  return text;
}

}  // namespace

int Job::run() {
  spawn_all();
  if (plan_.options.timeout_s > 0) timeout_timer_.arm(plan_.options.timeout_s);
  while (alive_ > 0) poll_once();
  return exit_code_.value_or(0);
}

std::string Job::rank_name(int rank) const {
  const RankSlot& slot = ranks_[static_cast<std::size_t>(rank)];
  return "rank " + std::to_string(rank) + " (pid " + std::to_string(slot.child->pid()) + ")";
}

void Job::poll_once() {
  PollSet set;
  set.add(signals_.fd(), POLLIN, Source::Signal);
  set.add(events_.fd(), POLLIN, Source::Server);
  set.add(pmix_diagnostics_.fd(), POLLIN, Source::PmixOutput);
  if (timeout_timer_.armed()) set.add(timeout_timer_.fd(), POLLIN, Source::Timeout);
  if (grace_timer_.armed()) set.add(grace_timer_.fd(), POLLIN, Source::Grace);
  if (stdin_pump_) {
    pollfd in = stdin_pump_->source_poll(), out = stdin_pump_->sink_poll();
    set.add(in.fd, in.events, Source::StdinIn);
    set.add(out.fd, out.events, Source::StdinOut);
  }
  for (int r = 0; r < plan_.ranks; ++r) {
    RankSlot& slot = ranks_[static_cast<std::size_t>(r)];
    if (!slot.child->reaped()) set.add(slot.child->pidfd(), POLLIN, Source::Exit, r);
    set.add(slot.out.get(), POLLIN, Source::Out, r);
    set.add(slot.err.get(), POLLIN, Source::Err, r);
  }
  if (::poll(set.fds.data(), set.fds.size(), -1) < 0) {
    if (errno == EINTR) return;
    throw system_error("poll", errno);
  }
  on_server_events();  // first: an event pushed before a rank exited is seen before its exit
  for (std::size_t i = 0; i < set.fds.size(); ++i) {
    if (!set.ready(i)) continue;
    auto [source, rank] = set.sources[i];
    switch (source) {
      case Source::Signal:
        while (auto sig = signals_.next()) on_signal(*sig);
        break;
      case Source::Server: break;
      case Source::PmixOutput: break;  // below
      case Source::Timeout:
        if (timeout_timer_.consume()) on_timeout();
        break;
      case Source::Grace:
        if (grace_timer_.consume()) signal_ranks(SIGKILL);
        break;
      case Source::StdinIn: stdin_pump_->on_source_ready(); break;
      case Source::StdinOut: stdin_pump_->on_sink_ready(); break;
      case Source::Out: on_output(rank, Stream::Out); break;
      case Source::Err: on_output(rank, Stream::Err); break;
      case Source::Exit: on_exit(rank); break;
    }
  }
  // Last: what libpmix says about a rank's broken connection comes after
  // that rank's exit was judged (and is dropped if the job is stopping).
  pmix_diagnostics_.on_readable();
}

void Job::on_server_events() {
  for (ServerEvent& event : events_.take_all()) {
    if (event.rank < 0 || event.rank >= plan_.ranks) continue;
    RankSlot& slot = ranks_[static_cast<std::size_t>(event.rank)];
    switch (event.kind) {
      case ServerEvent::Kind::Connected:
        slot.connected = any_connected_ = true;
        if (!unconnected_exits_.empty())
          fail(unconnected_exits_.front(), "exited with status 0 without calling MPI_Init", 1);
        break;
      case ServerEvent::Kind::Finalized: slot.finalized = true; break;
      case ServerEvent::Kind::Aborted: {
        if (stopping_) break;
        while (!event.message.empty() && event.message.back() == '\n') event.message.pop_back();
        int code = event.status & 0xff;
        if (code == 0 && event.status != 0) code = 1;
        if (event.message != contract::kAbortReported)
          say(rank_name(event.rank) + " called MPI_Abort with status " + std::to_string(event.status) +
              (event.message.empty() ? "" : ": " + event.message) + "; stopping the job");
        exit_code_ = code;
        stop(SIGTERM);
        break;
      }
    }
  }
}

void Job::on_signal(int sig) {
  if (sig == SIGQUIT) {
    print_hang_report();
    return;
  }
  if (sig == SIGUSR1 || sig == SIGUSR2 || sig == SIGCONT) {
    signal_ranks(sig);
    return;
  }
  if (sig == SIGTSTP) {
    // The ranks have their own process group, so the terminal's Ctrl-Z
    // reaches only us: stop them, then ourselves. SIGCONT resumes us
    // whatever our mask, and arrives here again to resume them.
    if (stopping_) return;
    signal_ranks(SIGSTOP);
    ::kill(::getpid(), SIGSTOP);
    return;
  }
  if (stopping_) {  // a second SIGINT (or TERM/HUP) while stopping: kill at once
    signal_ranks(SIGKILL);
    return;
  }
  say("received " + signal_name(sig) + "; forwarding it to the ranks and stopping the job" +
      (sig == SIGINT ? " (Ctrl-C again kills them at once)" : ""));
  exit_code_ = 128 + sig;
  stop(sig);
}

void Job::on_timeout() {
  if (stopping_) return;
  say("timeout after " + format_seconds(plan_.options.timeout_s) + " s; stopping the job");
  print_hang_report();
  exit_code_ = kExitTimeout;
  stop(SIGTERM);
}

void Job::on_output(int rank, Stream stream) {
  RankSlot& slot = ranks_[static_cast<std::size_t>(rank)];
  UniqueFd& fd = stream == Stream::Out ? slot.out : slot.err;
  char buffer[65536];
  ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
  if (n > 0) {
    output_.on_data(rank, stream, std::string_view(buffer, static_cast<std::size_t>(n)));
  } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
    output_.on_eof(rank, stream);
    fd.reset();
  }
}

void Job::drain_outputs(int rank) {
  RankSlot& slot = ranks_[static_cast<std::size_t>(rank)];
  for (Stream stream : {Stream::Out, Stream::Err}) {
    UniqueFd& fd = stream == Stream::Out ? slot.out : slot.err;
    char buffer[65536];
    while (fd) {
      ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
      if (n > 0) {
        output_.on_data(rank, stream, std::string_view(buffer, static_cast<std::size_t>(n)));
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else {  // EOF, or EAGAIN: a descendant still holds the pipe; stop forwarding it
        output_.on_eof(rank, stream);
        fd.reset();
      }
    }
  }
}

void Job::on_exit(int rank) {
  RankSlot& slot = ranks_[static_cast<std::size_t>(rank)];
  drain_outputs(rank);  // its last words come before any verdict
  if (stopping_ && alive_ == 1 && pgid_ > 0) ::kill(-pgid_, SIGKILL);  // leftover descendants
  std::optional<int> status = slot.child->try_reap();
  if (!status) return;
  --alive_;
  judge_exit(rank, *status);
}

void Job::judge_exit(int rank, int status) {
  const RankSlot& slot = ranks_[static_cast<std::size_t>(rank)];
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fail(rank, describe_wait_status(status), exit_code_of(status));
  } else if (slot.finalized) {
    return;
  } else if (slot.connected) {
    fail(rank, "exited with status 0 without calling MPI_Finalize", 1);
  } else if (any_connected_) {
    fail(rank, "exited with status 0 without calling MPI_Init", 1);
  } else {
    unconnected_exits_.push_back(rank);  // fine for a non-MPI program; judged if a peer connects
  }
}

void Job::fail(int rank, const std::string& how, int exit_code) {
  if (stopping_) return;
  say(rank_name(rank) + " " + how + (alive_ > 0 ? "; stopping the job" : ""));
  exit_code_ = exit_code;
  stop(SIGTERM);
}

void Job::stop(int sig) {
  stopping_ = true;
  pmix_diagnostics_.silence();
  if (plan_.options.kill_grace_s <= 0) {
    signal_ranks(SIGKILL);
    return;
  }
  signal_ranks(sig);
  grace_timer_.arm(plan_.options.kill_grace_s);
}

void Job::signal_ranks(int sig) {
  if (alive_ == 0) return;
  if (pgid_ > 0) ::kill(-pgid_, sig);  // ranks and their descendants
  for (RankSlot& slot : ranks_)        // ranks that left the group
    if (!slot.child->reaped() && ::getpgid(slot.child->pid()) != pgid_) slot.child->signal(sig);
}

void Job::print_hang_report() const {
  std::vector<ReportRow> rows;
  for (int r = 0; r < plan_.ranks; ++r) {
    const RankSlot& slot = ranks_[static_cast<std::size_t>(r)];
    rows.push_back({r, slot.child->pid(), slot.child->reaped(), status_.read(r)});
  }
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  auto now_ns = static_cast<std::uint64_t>(now.tv_sec) * 1000000000u + static_cast<std::uint64_t>(now.tv_nsec);
  std::string report = format_hang_report(rows, now_ns);
  [[maybe_unused]] ssize_t n = ::write(2, report.data(), report.size());
}

}  // namespace shmpi::launcher
