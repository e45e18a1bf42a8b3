// StatusPage: this rank's record in the launcher's status memfd, for the
// hang report (include/shmpi/job_contract.hpp). The rank is its only
// writer; updating it costs a few stores to local memory, done only when a
// call really has to wait.
//
// Under MPI_THREAD_MULTIPLE several threads of the rank may wait at once
// (each calls blocked() and unblocked() holding the rank's lock): the
// record shows the latest wait still going on, and says Running only once
// none is. The record has room for one call, so the others are not shown.
#pragma once

#include <array>
#include <cstddef>
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
  // `call` (which must outlive its wait) has begun a long wait; unblocked()
  // with the same `call` ends it.
  void blocked(const BlockedCall& call, std::uint32_t outstanding) noexcept;
  void unblocked(const BlockedCall& call) noexcept;
  // Time during which some call waited, for the run report (kept with or
  // without a launcher's page).
  std::uint64_t blocked_ns() const noexcept { return blocked_ns_; }

 private:
  struct Wait {
    const BlockedCall* call;
    std::uint32_t outstanding;
    std::uint64_t since_ns;
  };
  // Threads seldom wait in more than a few calls at once; further waits are
  // counted but not remembered (the record shows one anyway; should only
  // forgotten waits remain, it keeps showing the last remembered one).
  static constexpr std::size_t kRemembered = 16;

  void show(const Wait& wait) noexcept;
  void set_state(contract::RankState state) noexcept;
  void begin_write() noexcept;
  void end_write() noexcept;

  contract::RankStatus* record_ = nullptr;
  void* mapping_ = nullptr;
  std::uint64_t mapping_bytes_ = 0;
  std::array<Wait, kRemembered> waits_{};  // [0, remembered_): waits going on, oldest first
  std::size_t remembered_ = 0;
  std::uint32_t waiting_ = 0;              // waits going on, remembered or not
  std::uint64_t blocked_since_ns_ = 0;     // when waiting_ last became nonzero
  std::uint64_t blocked_ns_ = 0;
};

}  // namespace shmpi::runtime
