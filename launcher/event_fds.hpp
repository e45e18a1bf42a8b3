// Owners of the event sources of shmpirun's poll loop: SignalFd (signals
// as readable events) and TimerFd (--timeout, kill grace).
#pragma once

#include <signal.h>

#include <initializer_list>
#include <optional>

#include "unique_fd.hpp"

namespace shmpi::launcher {

// Blocks `signals` in the calling thread and reads them from a signalfd.
// Construct it before any other thread exists (PMIx's progress thread
// inherits the mask, so no signal is ever delivered to it). The destructor
// restores the original mask; children restore it before exec.
class SignalFd {
 public:
  SignalFd(std::initializer_list<int> signals);
  SignalFd(const SignalFd&) = delete;
  SignalFd& operator=(const SignalFd&) = delete;
  ~SignalFd();

  int fd() const noexcept { return fd_.get(); }
  const sigset_t& original_mask() const noexcept { return original_; }
  // The next pending signal number, if any (non-blocking).
  std::optional<int> next();

 private:
  sigset_t original_;
  UniqueFd fd_;
};

// A CLOCK_MONOTONIC one-shot timer.
class TimerFd {
 public:
  TimerFd();
  int fd() const noexcept { return fd_.get(); }
  bool armed() const noexcept { return armed_; }
  void arm(double seconds);
  // Call when fd() is readable: true if the timer expired (and disarms it).
  bool consume();

 private:
  UniqueFd fd_;
  bool armed_ = false;
};

}  // namespace shmpi::launcher
