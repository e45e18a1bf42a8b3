// Config: every tunable of this rank, parsed once at MPI_Init from the
// environment (SHMPI_<NAME>, set by the user or by shmpirun --set), each
// unset one taking its default from the chosen profile. The names and
// descriptions live in include/shmpi/tunable_spec.hpp, the defaults in profiles/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "btl/numa_placement.hpp"

namespace shmpi::runtime {

enum class SingleCopy : std::uint8_t { Cma, None };
enum class WaitMode : std::uint8_t { Auto, Spin, Yield };

struct Config {
  std::size_t eager_limit = 0;     // largest single-record message
  std::size_t ring_size = 0;       // bytes of each per-pair ring (at most: segment_budget may halve it)
  std::uint64_t segment_budget = 0;  // most bytes of a rank's receive segment (btl/segment_budget.hpp)
  std::size_t max_fragment = 0;    // largest pipelined fragment
  std::size_t rndv_threshold = 0;  // first size sent by rendezvous
  std::size_t split_threshold = 0; // first single copy shared by both sides (0: never)
  bool split_threshold_chosen = false;  // by the user (SHMPI_SPLIT_THRESHOLD), not a profile
  std::size_t run_copy_min = 0;    // shortest mean run copied run to run (pml/run_copies.cpp)
  std::size_t reply_pipeline_limit = 0;  // rendezvous sizes below this go pipelined when answering
  bool reply_pipeline_limit_chosen = false;  // by the user (SHMPI_REPLY_PIPELINE_LIMIT), not a profile
  std::size_t claim_ahead_from = 0;   // ring records in [from, limit) claim the next one's lines early
  std::size_t claim_ahead_limit = 0;
  std::uint64_t unexpected_budget = 0;  // payload bytes of unexpected messages before senders hold theirs back
  std::size_t coll_shm_limit = 0;  // most bytes a rank publishes in a small collective through shared slots (0: never)
  SingleCopy single_copy = SingleCopy::Cma;
  btl::NumaPolicy numa_policy = btl::NumaPolicy::Local;
  WaitMode wait_policy = WaitMode::Auto;
  std::uint32_t poll_gap_ns = 0;   // pause between empty polls of a waiting rank (0: lfence)
  bool fast_box = true;
  bool box_probe = true;     // time each pair's candidate box lines at start-up
  bool choose_route = true;  // rndv_route=auto
  bool test_cma_eperm = false;     // test hook: single copy behaves as if refused
  bool stand_by_timeout = true;    // test hook off: stand-by threads wake only when told
  bool sleep_at_once = false;      // test hook: long waits sleep at once, up to 1 s a sleep (wait_policy.cpp)

  // Reads every SHMPI_<NAME> variable (defaults of the profile chosen by
  // SHMPI_PROFILE, SHMPI_PROFILE_FILE and this CPU where unset). Throws
  // ConfigError whose what() is one line naming the variable and the rule.
  static Config from_environment();

  // This configuration for a job whose ranks outnumber the node's cores,
  // where a rendezvous needs its peer scheduled twice (to read, and to be
  // told it was read) and a split copy's two halves cannot run at once:
  // a reply pipelines up to kOversubscribedReplyPipelineLimit, and no
  // single copy is split, unless the user chose those limits.
  Config when_ranks_outnumber_cores() const;
};

// At 8 ranks on 2 cores: osu_reduce, osu_allreduce, osu_alltoall,
// osu_allgather 16-32 KiB 2-3x faster, osu_multi_lat 64 KiB 1.6-2x
// (with no split); osu_mbw_mr (windows of sends, not replies) unchanged.
// The runs: docs/tunables/reply_pipeline_limit.md, split_threshold.md.
inline constexpr std::size_t kOversubscribedReplyPipelineLimit = 128 * 1024;

struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace shmpi::runtime
