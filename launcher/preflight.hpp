// Checks made before anything is started; each failure is one usage line
// (LaunchError, exit 2).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <shmpi/tunable_defaults.hpp>

#include "unique_fd.hpp"

namespace shmpi::launcher {

// The file execvp would run for `program` (searching $PATH when it has no
// '/'); throws "<program>: command not found" / "not executable" / ...
std::string resolve_program(const std::string& program);

// The value of `name` in `environment` ("NAME=value" entries), or nullptr.
const char* environment_value(std::span<const std::string> environment, const std::string& name);

// Validates every SHMPI_<TUNABLE> in `environment` ("NAME=value" entries)
// and refuses a tunable's old name.
void check_environment_tunables(std::span<const std::string> environment);

// What the user asked for: the profile named by `profile_option`
// (--profile; empty: none), else by SHMPI_PROFILE in `environment` (name
// empty when neither), and SHMPI_PROFILE_FILE's profile to consider.
contract::ProfileRequest profile_request(const std::string& profile_option, std::span<const std::string> environment);

// The defaults the ranks will take: the profile profile_request() names,
// else the one chosen for `cpu`, among the built-in ones and
// SHMPI_PROFILE_FILE's.
// Throws a usage line when that profile does not exist or its file is bad.
contract::TunableDefaults job_defaults(const std::string& profile_option, std::span<const std::string> environment,
                                       const contract::CpuIdentity& cpu);

// An eager limit the user set (--set or environment) must fit a quarter
// of the rings (contract::eager_limit_misfit): said once here, before the
// ranks start, rather than by every rank at MPI_Init.
void check_eager_fits(std::span<const std::pair<std::string, std::string>> settings,
                      std::span<const std::string> environment, std::uint64_t eager_limit, std::uint64_t ring_size);

// The value a tunable will have for the ranks: the last --set, else the
// environment, else its default in `defaults`.
std::string effective_tunable(const std::string& name,
                              std::span<const std::pair<std::string, std::string>> settings,
                              std::span<const std::string> environment,
                              const contract::TunableDefaults& defaults);

// --output-filename: creates DIR/1/rank.N/ and opens stdout, stderr there.
struct RankFiles {
  UniqueFd out;
  UniqueFd err;
};
std::vector<RankFiles> open_output_files(const std::string& dir, int ranks);

}  // namespace shmpi::launcher
