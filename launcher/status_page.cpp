#include "status_page.hpp"

#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "launch_error.hpp"

namespace shmpi::launcher {

RankSnapshot read_status(const contract::RankStatus& record) noexcept {
  constexpr int kAttempts = 1000;
  RankSnapshot snap;
  contract::RankStatus copy;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    // Acquire pairs with the writer's final release store of an even value.
    std::uint32_t before = record.sequence.load(std::memory_order_acquire);
    if ((before & 1u) != 0) {  // a write is in progress
      ::sched_yield();
      continue;
    }
    // Field-by-field copy of a record that may be changing under us; the
    // sequence re-check below discards torn copies.
    std::memcpy(static_cast<void*>(&copy.state), &record.state,
                sizeof(copy) - offsetof(contract::RankStatus, state));
    std::atomic_thread_fence(std::memory_order_acquire);
    if (record.sequence.load(std::memory_order_relaxed) == before) break;
    if (attempt == kAttempts - 1) snap.consistent = false;
  }
  if ((record.sequence.load(std::memory_order_relaxed) & 1u) != 0) snap.consistent = false;
  snap.state = static_cast<contract::RankState>(copy.state);
  snap.call.assign(copy.call, strnlen(copy.call, sizeof copy.call));
  snap.peer = copy.peer;
  snap.tag = copy.tag;
  snap.count = copy.count;
  snap.context = copy.context;
  snap.outstanding = copy.outstanding;
  snap.since_ns = copy.since_ns;
  return snap;
}

StatusPage::StatusPage(int ranks)
    : fd_(::memfd_create("shmpi-status", MFD_CLOEXEC)),
      bytes_(static_cast<std::size_t>(ranks) * sizeof(contract::RankStatus)) {
  if (!fd_) throw system_error("memfd_create", errno);
  if (::ftruncate(fd_.get(), static_cast<off_t>(bytes_)) != 0) throw system_error("ftruncate", errno);
  void* map = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_.get(), 0);
  if (map == MAP_FAILED) throw system_error("mmap status page", errno);
  records_ = static_cast<contract::RankStatus*>(map);  // zero-filled: NotStarted
}

StatusPage::~StatusPage() { ::munmap(records_, bytes_); }

RankSnapshot StatusPage::read(int rank) const noexcept { return read_status(records_[rank]); }

}  // namespace shmpi::launcher
