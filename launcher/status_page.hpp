// StatusPage: the memfd holding one contract::RankStatus per rank, written
// by the ranks (seqlock writer in the runtime), read by shmpirun for the
// hang report. The fd is inherited by the ranks (SHMPI_STATUS_FD).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <shmpi/job_contract.hpp>

#include "unique_fd.hpp"

namespace shmpi::launcher {

// A consistent copy of one RankStatus (plain fields, no atomics).
struct RankSnapshot {
  bool consistent = true;  // false: the writer never left a write in time
  contract::RankState state = contract::RankState::NotStarted;
  std::string call;
  std::int32_t peer = -2;
  std::int32_t tag = -1;
  std::uint64_t count = 0;
  std::uint32_t context = 0;
  std::uint32_t outstanding = 0;
  std::uint64_t since_ns = 0;
};

// The seqlock reader over one record; `record` may be written concurrently.
RankSnapshot read_status(const contract::RankStatus& record) noexcept;

class StatusPage {
 public:
  explicit StatusPage(int ranks);  // memfd (close-on-exec) + shared mapping; throws
  StatusPage(const StatusPage&) = delete;
  StatusPage& operator=(const StatusPage&) = delete;
  ~StatusPage();

  // The fd number; the child clears FD_CLOEXEC on it before exec.
  int fd() const noexcept { return fd_.get(); }
  RankSnapshot read(int rank) const noexcept;

 private:
  UniqueFd fd_;
  contract::RankStatus* records_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace shmpi::launcher
