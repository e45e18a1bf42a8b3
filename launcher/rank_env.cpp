#include "rank_env.hpp"

#include <shmpi/tunables.hpp>

namespace shmpi::launcher {
namespace {

std::string_view name_of(std::string_view entry) { return entry.substr(0, entry.find('=')); }

bool from_foreign_launcher(std::string_view name) {
  if (name.starts_with("PMIX_MCA_")) return false;
  return name.starts_with("PMIX_") || name.starts_with("PMI_") || name.starts_with("OMPI_COMM_WORLD_");
}

}  // namespace

void set_variable(Environment& env, std::string_view name, std::string_view value) {
  std::string entry = std::string(name) + "=" + std::string(value);
  for (std::string& existing : env) {
    if (name_of(existing) == name) {
      existing = std::move(entry);
      return;
    }
  }
  env.push_back(std::move(entry));
}

const std::string* find_variable(const Environment& env, std::string_view name) {
  for (const std::string& entry : env)
    if (name_of(entry) == name) return &entry;
  return nullptr;
}

Environment without_foreign_launcher(std::span<const std::string> inherited) {
  Environment env;
  for (const std::string& entry : inherited)
    if (!from_foreign_launcher(name_of(entry))) env.push_back(entry);
  return env;
}

Environment rank_environment(std::span<const std::string> inherited, const RankEnvInputs& inputs) {
  Environment env = without_foreign_launcher(inherited);
  set_variable(env, "PMIX_MCA_gds", "hash");  // no files, faster PMIx_Init (DESIGN.md facts)
  for (const auto& [name, value] : inputs.tunables) set_variable(env, contract::tunable_env_name(name), value);
  std::string wait_policy = contract::tunable_env_name("wait_policy");
  if (inputs.prefer_yield && find_variable(env, wait_policy) == nullptr) set_variable(env, wait_policy, "yield");
  for (const std::string& exported : inputs.exports) {
    auto eq = exported.find('=');
    if (eq != std::string::npos) set_variable(env, exported.substr(0, eq), exported.substr(eq + 1));
  }
  return env;
}

}  // namespace shmpi::launcher
