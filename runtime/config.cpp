#include "runtime/config.hpp"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "shmpi/tunables.hpp"

namespace shmpi::runtime {
namespace {

using contract::TunableDefaults;
using contract::TunableSpec;

// The value of tunable `name`: its environment variable, else its default.
// Throws ConfigError when the value breaks the tunable's rule.
std::string value_of(const TunableDefaults& defaults, std::string_view name) {
  const TunableSpec* spec = contract::find_tunable(name);
  if (spec == nullptr) throw ConfigError("internal: unknown tunable " + std::string(name));
  const std::string env = contract::tunable_env_name(name);
  const char* set = std::getenv(env.c_str());
  std::string value = set != nullptr ? std::string(set) : std::string(defaults.default_of(*spec));
  std::string error = contract::validate_tunable(*spec, value);
  if (!error.empty()) throw ConfigError("invalid " + env + ": " + error);
  return value;
}

std::size_t bytes_of(const TunableDefaults& defaults, std::string_view name) {
  return static_cast<std::size_t>(*contract::parse_bytes(value_of(defaults, name)));
}

// Whether the user set tunable `name` (its variable) rather than leaving it
// to the profile.
bool set_by_user(std::string_view name) { return std::getenv(contract::tunable_env_name(name).c_str()) != nullptr; }

// A variable under a tunable's old name is refused: ignoring it would
// silently run with another value than the user set.
void refuse_renamed() {
  for (const contract::RenamedTunable& r : contract::kRenamedTunables) {
    const std::string old_env = contract::tunable_env_name(r.old_name);
    if (std::getenv(old_env.c_str()) != nullptr)
      throw ConfigError(old_env + " was renamed " + contract::tunable_env_name(r.new_name));
  }
}

}  // namespace

Config Config::from_environment() {
  refuse_renamed();
  const TunableDefaults d =
      TunableDefaults::choose(contract::profile_request_from_environment(), contract::this_cpu_in_job());
  if (!d.error().empty()) throw ConfigError(d.error());
  Config c;
  c.eager_limit = bytes_of(d, "eager_limit");
  c.ring_size = bytes_of(d, "ring_size");
  c.segment_budget = bytes_of(d, "segment_budget");
  c.max_fragment = bytes_of(d, "max_fragment");
  c.rndv_threshold = bytes_of(d, "rndv_threshold");
  c.split_threshold = bytes_of(d, "split_threshold");
  c.split_threshold_chosen = set_by_user("split_threshold");
  c.run_copy_min = bytes_of(d, "run_copy_min");
  c.reply_pipeline_limit = bytes_of(d, "reply_pipeline_limit");
  c.reply_pipeline_limit_chosen = set_by_user("reply_pipeline_limit");
  c.claim_ahead_from = bytes_of(d, "claim_ahead_from");
  c.claim_ahead_limit = bytes_of(d, "claim_ahead_limit");
  c.unexpected_budget = bytes_of(d, "unexpected_budget");
  c.coll_shm_limit = bytes_of(d, "coll_shm_limit");
  c.single_copy = value_of(d, "single_copy") == "cma" ? SingleCopy::Cma : SingleCopy::None;
  const std::string numa = value_of(d, "numa_policy");
  c.numa_policy = numa == "local" ? btl::NumaPolicy::Local
                  : numa == "interleave" ? btl::NumaPolicy::Interleave
                                         : btl::NumaPolicy::None;
  const std::string wait = value_of(d, "wait_policy");
  c.wait_policy = wait == "spin" ? WaitMode::Spin : wait == "yield" ? WaitMode::Yield : WaitMode::Auto;
  c.poll_gap_ns = static_cast<std::uint32_t>(*contract::parse_count(value_of(d, "poll_gap_ns")));
  c.fast_box = value_of(d, "fast_box") == "on";
  c.box_probe = value_of(d, "box_probe") == "on";
  c.choose_route = value_of(d, "rndv_route") == "auto";
  c.test_cma_eperm = value_of(d, "test_cma_eperm") == "1";
  c.stand_by_timeout = value_of(d, "test_stand_by_timeout") == "on";
  c.sleep_at_once = value_of(d, "test_sleep_at_once") == "on";
  // A default eager limit follows a smaller ring down (Context takes
  // btl::eager_limit_for_ring); one the user set must fit.
  const std::string misfit = contract::eager_limit_misfit(c.eager_limit, c.ring_size);
  if (!misfit.empty() && set_by_user("eager_limit")) throw ConfigError("invalid SHMPI_EAGER_LIMIT: " + misfit);
  return c;
}

Config Config::when_ranks_outnumber_cores() const {
  Config c = *this;
  if (!reply_pipeline_limit_chosen)
    c.reply_pipeline_limit = std::max(reply_pipeline_limit, kOversubscribedReplyPipelineLimit);
  if (!split_threshold_chosen) c.split_threshold = 0;
  return c;
}

}  // namespace shmpi::runtime
