// The environment every rank starts with (before PMIx adds its own
// variables per rank). Pure functions over "NAME=value" vectors.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shmpi::launcher {

using Environment = std::vector<std::string>;

// Sets (replaces or appends) NAME=value.
void set_variable(Environment& env, std::string_view name, std::string_view value);
// The value of NAME, or nullptr.
const std::string* find_variable(const Environment& env, std::string_view name);

// `inherited` minus variables left by an outer launcher (PMIX_* except
// PMIX_MCA_*, PMI_*, OMPI_COMM_WORLD_*), which would make a rank believe it
// belongs to another job.
Environment without_foreign_launcher(std::span<const std::string> inherited);

struct RankEnvInputs {
  std::vector<std::pair<std::string, std::string>> tunables;  // --set, validated
  std::vector<std::string> exports;                           // -x VAR[=value]
  bool prefer_yield = false;  // oversubscribed or sharing cores: SHMPI_WAIT_POLICY=yield unless set
};

// The job-wide rank environment: PMIX_MCA_gds=hash, SHMPI_<TUNABLE> for
// every --set, the wait policy, then every -x.
Environment rank_environment(std::span<const std::string> inherited, const RankEnvInputs& inputs);

}  // namespace shmpi::launcher
