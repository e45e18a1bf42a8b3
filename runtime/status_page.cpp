#include "runtime/status_page.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace shmpi::runtime {
namespace {

std::uint64_t monotonic_ns() noexcept {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

}  // namespace

StatusPage::StatusPage(std::uint32_t rank, std::uint32_t nranks) noexcept {
  const char* fd_text = std::getenv(contract::kEnvStatusFd);
  if (fd_text == nullptr) return;
  const int fd = std::atoi(fd_text);
  struct stat st{};
  const std::uint64_t need = std::uint64_t{nranks} * sizeof(contract::RankStatus);
  if (::fstat(fd, &st) != 0 || static_cast<std::uint64_t>(st.st_size) < need) return;
  void* addr = ::mmap(nullptr, need, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (addr == MAP_FAILED) return;
  mapping_ = addr;
  mapping_bytes_ = need;
  record_ = static_cast<contract::RankStatus*>(addr) + rank;
  running();
}

StatusPage::~StatusPage() {
  if (mapping_ != nullptr) ::munmap(mapping_, mapping_bytes_);
}

// Seqlock writer (see contract::RankStatus): odd while writing.
void StatusPage::begin_write() noexcept {
  const std::uint32_t s = record_->sequence.load(std::memory_order_relaxed);
  record_->sequence.store(s + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
}

void StatusPage::end_write() noexcept {
  const std::uint32_t s = record_->sequence.load(std::memory_order_relaxed);
  record_->sequence.store(s + 1, std::memory_order_release);
}

void StatusPage::set_state(contract::RankState state) noexcept {
  if (record_ == nullptr) return;
  begin_write();
  record_->state = static_cast<std::uint32_t>(state);
  end_write();
}

void StatusPage::blocked(const BlockedCall& call, std::uint32_t outstanding) noexcept {
  const Wait wait{&call, outstanding, monotonic_ns()};
  if (waiting_ == 0) blocked_since_ns_ = wait.since_ns;
  if (remembered_ < kRemembered) waits_[remembered_++] = wait;
  ++waiting_;
  show(wait);
}

void StatusPage::unblocked(const BlockedCall& call) noexcept {
  auto* const end = waits_.begin() + remembered_;
  auto* const found = std::find_if(waits_.begin(), end, [&](const Wait& w) { return w.call == &call; });
  if (found != end) {
    std::copy(found + 1, end, found);  // keeps the others oldest first
    --remembered_;
  }
  --waiting_;
  if (waiting_ == 0) {
    blocked_ns_ += monotonic_ns() - blocked_since_ns_;
    set_state(contract::RankState::Running);
  } else if (remembered_ != 0) {
    show(waits_[remembered_ - 1]);
  }
}

void StatusPage::show(const Wait& wait) noexcept {
  if (record_ == nullptr) return;
  begin_write();
  record_->state = static_cast<std::uint32_t>(contract::RankState::Blocked);
  std::strncpy(record_->call, wait.call->call, sizeof(record_->call) - 1);
  record_->call[sizeof(record_->call) - 1] = '\0';
  record_->peer = wait.call->peer;
  record_->tag = wait.call->tag;
  record_->count = wait.call->bytes;
  record_->context = wait.call->context;
  record_->outstanding = wait.outstanding;
  record_->since_ns = wait.since_ns;
  end_write();
}

}  // namespace shmpi::runtime
