// StatusPage: this rank's record in the launcher's status memfd, for the
// hang report (include/shmpi/job_contract.hpp). The rank is its only
// writer; updating it costs a few stores to local memory, done only when a
// call really has to wait.
#pragma once

#include <cstdint>

#include "shmpi/job_contract.hpp"

namespace shmpi::runtime {

struct BlockedCall {
  const char* call;        // "MPI_Recv"
  std::int32_t peer;       // world rank, -1 any, -2 none
  std::int32_t tag;
  std::uint64_t bytes;
  std::uint32_t context;
};

class StatusPage {
 public:
  // Maps the record of `rank` if the launcher passed a status memfd.
  StatusPage(std::uint32_t rank, std::uint32_t nranks) noexcept;
  StatusPage(const StatusPage&) = delete;
  StatusPage& operator=(const StatusPage&) = delete;
  ~StatusPage();

  void running() noexcept { set_state(contract::RankState::Running); }
  void finalized() noexcept { set_state(contract::RankState::Finalized); }
  void blocked(const BlockedCall& call, std::uint32_t outstanding) noexcept;
  void unblocked() noexcept;
  // Time spent between blocked() and unblocked(), for the run report
  // (kept with or without a launcher's page).
  std::uint64_t blocked_ns() const noexcept { return blocked_ns_; }

 private:
  void set_state(contract::RankState state) noexcept;
  void begin_write() noexcept;
  void end_write() noexcept;

  contract::RankStatus* record_ = nullptr;
  void* mapping_ = nullptr;
  std::uint64_t mapping_bytes_ = 0;
  std::uint64_t blocked_since_ns_ = 0;
  std::uint64_t blocked_ns_ = 0;
};

}  // namespace shmpi::runtime
