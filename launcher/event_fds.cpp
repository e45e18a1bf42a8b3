#include "event_fds.hpp"

#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdint>

#include "launch_error.hpp"

namespace shmpi::launcher {

SignalFd::SignalFd(std::initializer_list<int> signals) {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : signals) sigaddset(&set, sig);
  if (::pthread_sigmask(SIG_BLOCK, &set, &original_) != 0) throw system_error("pthread_sigmask", errno);
  fd_.reset(::signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK));
  if (!fd_) {
    int error = errno;
    ::pthread_sigmask(SIG_SETMASK, &original_, nullptr);
    throw system_error("signalfd", error);
  }
}

SignalFd::~SignalFd() {
  fd_.reset();
  ::pthread_sigmask(SIG_SETMASK, &original_, nullptr);
}

std::optional<int> SignalFd::next() {
  signalfd_siginfo info{};
  ssize_t n = ::read(fd_.get(), &info, sizeof info);
  if (n != static_cast<ssize_t>(sizeof info)) return std::nullopt;
  return static_cast<int>(info.ssi_signo);
}

TimerFd::TimerFd() : fd_(::timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK)) {
  if (!fd_) throw system_error("timerfd_create", errno);
}

void TimerFd::arm(double seconds) {
  itimerspec spec{};
  double whole = std::floor(seconds);
  spec.it_value.tv_sec = static_cast<time_t>(whole);
  spec.it_value.tv_nsec = static_cast<long>((seconds - whole) * 1e9);
  if (spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0) spec.it_value.tv_nsec = 1;  // 0 disarms
  if (::timerfd_settime(fd_.get(), 0, &spec, nullptr) != 0) throw system_error("timerfd_settime", errno);
  armed_ = true;
}

bool TimerFd::consume() {
  std::uint64_t expirations = 0;
  if (::read(fd_.get(), &expirations, sizeof expirations) != static_cast<ssize_t>(sizeof expirations))
    return false;
  armed_ = false;
  return true;
}

}  // namespace shmpi::launcher
