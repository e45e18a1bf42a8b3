#include "preflight.hpp"

#include <algorithm>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>

#include <shmpi/tunables.hpp>

#include "launch_error.hpp"

namespace shmpi::launcher {
namespace {

// 0 when `path` is an executable regular file, else an errno value.
int check_executable(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return errno;
  if (S_ISDIR(st.st_mode)) return EISDIR;
  if (!S_ISREG(st.st_mode) || ::access(path.c_str(), X_OK) != 0) return EACCES;
  return 0;
}

}  // namespace

const char* environment_value(std::span<const std::string> environment, const std::string& name) {
  const std::string prefix = name + "=";
  for (const std::string& entry : environment)
    if (entry.starts_with(prefix)) return entry.c_str() + prefix.size();
  return nullptr;
}

std::string resolve_program(const std::string& program) {
  if (program.find('/') != std::string::npos) {
    int error = check_executable(program);
    if (error == ENOENT) throw usage_error(program + ": no such file");
    if (error == EACCES) throw usage_error(program + ": not an executable file");
    if (error != 0) throw usage_error(program + ": " + std::strerror(error));
    return program;
  }
  const char* env_path = std::getenv("PATH");
  std::string_view path = env_path != nullptr ? env_path : "/usr/local/bin:/usr/bin:/bin";
  bool found_unusable = false;
  while (true) {
    std::string_view dir = path.substr(0, path.find(':'));
    std::string candidate = (dir.empty() ? std::string(".") : std::string(dir)) + "/" + program;
    int error = check_executable(candidate);
    if (error == 0) return candidate;
    found_unusable = found_unusable || error == EACCES;
    if (dir.size() == path.size()) break;
    path.remove_prefix(dir.size() + 1);
  }
  throw usage_error(program + (found_unusable ? ": found in PATH but not executable" : ": command not found"));
}

void check_environment_tunables(std::span<const std::string> environment) {
  for (const contract::RenamedTunable& r : contract::kRenamedTunables) {
    const std::string old_env = contract::tunable_env_name(r.old_name);
    if (environment_value(environment, old_env) != nullptr)
      throw usage_error("environment " + old_env + " was renamed " + contract::tunable_env_name(r.new_name));
  }
  for (const contract::TunableSpec& spec : contract::tunables()) {
    std::string prefix = contract::tunable_env_name(spec.name) + "=";
    for (const std::string& entry : environment) {
      if (!entry.starts_with(prefix)) continue;
      std::string reason = contract::validate_tunable(spec, std::string_view(entry).substr(prefix.size()));
      if (!reason.empty())
        throw usage_error("environment " + contract::tunable_env_name(spec.name) + ": " + reason);
    }
  }
}

contract::ProfileRequest profile_request(const std::string& profile_option, std::span<const std::string> environment) {
  contract::ProfileRequest request{profile_option, "--profile ", ""};
  const char* named = environment_value(environment, contract::kProfileEnv);
  if (profile_option.empty() && named != nullptr) request = {named, std::string(contract::kProfileEnv) + "=", ""};
  const char* file = environment_value(environment, contract::kProfileFileEnv);
  if (file != nullptr) request.file = file;
  return request;
}

contract::TunableDefaults job_defaults(const std::string& profile_option, std::span<const std::string> environment,
                                       const contract::CpuIdentity& cpu) {
  contract::TunableDefaults defaults =
      contract::TunableDefaults::choose(profile_request(profile_option, environment), cpu);
  if (!defaults.error().empty()) throw usage_error(defaults.error());
  return defaults;
}

std::string effective_tunable(const std::string& name,
                              std::span<const std::pair<std::string, std::string>> settings,
                              std::span<const std::string> environment,
                              const contract::TunableDefaults& defaults) {
  for (auto it = settings.rbegin(); it != settings.rend(); ++it)
    if (it->first == name) return it->second;
  if (const char* value = environment_value(environment, contract::tunable_env_name(name))) return value;
  const contract::TunableSpec* spec = contract::find_tunable(name);
  return spec != nullptr ? std::string(defaults.default_of(*spec)) : "";
}

void check_eager_fits(std::span<const std::pair<std::string, std::string>> settings,
                      std::span<const std::string> environment, std::uint64_t eager_limit, std::uint64_t ring_size) {
  const bool set = std::any_of(settings.begin(), settings.end(), [](const auto& s) { return s.first == "eager_limit"; }) ||
                   environment_value(environment, contract::tunable_env_name("eager_limit")) != nullptr;
  const std::string misfit = contract::eager_limit_misfit(eager_limit, ring_size);
  if (set && !misfit.empty()) throw usage_error(misfit + "; lower eager_limit or raise ring_size");
}

std::vector<RankFiles> open_output_files(const std::string& dir, int ranks) {
  std::vector<RankFiles> files;
  for (int rank = 0; rank < ranks; ++rank) {
    std::string rank_dir = dir + "/1/rank." + std::to_string(rank);
    std::error_code ec;
    std::filesystem::create_directories(rank_dir, ec);
    if (ec) throw usage_error("--output-filename " + dir + ": cannot create " + rank_dir + ": " + ec.message());
    RankFiles pair;
    pair.out.reset(::open((rank_dir + "/stdout").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    pair.err.reset(::open((rank_dir + "/stderr").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (!pair.out || !pair.err)
      throw usage_error("--output-filename " + dir + ": cannot write in " + rank_dir + ": " + std::strerror(errno));
    files.push_back(std::move(pair));
  }
  return files;
}

}  // namespace shmpi::launcher
