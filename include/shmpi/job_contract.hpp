// The job contract between shmpirun and the ranks it starts.
//
// This is the only code the launcher shares with the ranks (DESIGN.md,
// "Layers"). Everything else a rank learns about its job comes through PMIx.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace shmpi::contract {

inline constexpr std::size_t kCacheLine = 64;

// The most ranks one job may have: ranks travel as 16-bit numbers in the
// ranks' message headers. shmpirun refuses larger -n; a rank refuses a
// larger job from any launcher.
inline constexpr std::uint32_t kMaxRanks = 65535;

// Environment variables the launcher sets for every rank.
// The private session directory (mode 0700), removed by the launcher at exit.
inline constexpr const char* kEnvSessionDir = "SHMPI_SESSION_DIR";
// Decimal fd number of an inherited memfd holding one RankStatus per rank.
inline constexpr const char* kEnvStatusFd = "SHMPI_STATUS_FD";
// Prefix of every tunable: SHMPI_<NAME>, e.g. SHMPI_EAGER_LIMIT.
inline constexpr const char* kEnvTunablePrefix = "SHMPI_";

// The PMIx_Abort message of a rank that has already printed why it stops
// (one line on its stderr, e.g. a fatal MPI error): the launcher then only
// stops the job, so the user reads the reason once.
inline constexpr const char* kAbortReported = "(reported by the rank)";

// What a rank is doing, published in its RankStatus for the hang report.
enum class RankState : std::uint32_t {
  NotStarted = 0,  // the page is still zero: the rank has not reached MPI_Init
  Running = 1,     // between MPI_Init and MPI_Finalize, not in a blocking call
  Blocked = 2,     // inside a blocking call described by the other fields
  Finalized = 3,   // MPI_Finalize has completed
};

// One rank's status record. The rank is the only writer; shmpirun reads it
// without the rank's help (even while the rank is stopped or spinning).
//
// Concurrency: a seqlock. The writer increments `sequence` to an odd value
// (relaxed store + release fence), writes the fields, then stores the next
// even value with release. A reader loads `sequence` (acquire), copies the
// fields, issues an acquire fence and re-loads `sequence`; the copy is
// consistent when both loads returned the same even value.
struct alignas(kCacheLine) RankStatus {
  std::atomic<std::uint32_t> sequence;
  std::uint32_t state;          // RankState
  char call[24];                // NUL-terminated MPI function name, e.g. "MPI_Recv"
  std::int32_t peer;            // world rank waited for, -1 = any source, -2 = none
  std::int32_t tag;             // tag waited for, -1 = any tag
  std::uint64_t count;          // bytes involved in the call
  std::uint32_t context;        // communicator context id
  std::uint32_t outstanding;    // outstanding nonblocking requests
  std::uint64_t since_ns;       // CLOCK_MONOTONIC time the call began
  std::uint8_t reserved_[64];
};
static_assert(sizeof(RankStatus) == 2 * kCacheLine);

}  // namespace shmpi::contract
