#include "runtime/status_page.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

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
  blocked_since_ns_ = monotonic_ns();
  if (record_ == nullptr) return;
  begin_write();
  record_->state = static_cast<std::uint32_t>(contract::RankState::Blocked);
  std::strncpy(record_->call, call.call, sizeof(record_->call) - 1);
  record_->call[sizeof(record_->call) - 1] = '\0';
  record_->peer = call.peer;
  record_->tag = call.tag;
  record_->count = call.bytes;
  record_->context = call.context;
  record_->outstanding = outstanding;
  record_->since_ns = blocked_since_ns_;
  end_write();
}

void StatusPage::unblocked() noexcept {
  blocked_ns_ += monotonic_ns() - blocked_since_ns_;
  set_state(contract::RankState::Running);
}

}  // namespace shmpi::runtime
