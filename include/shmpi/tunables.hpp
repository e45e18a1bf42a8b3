// Every tunable of shmpi, in three parts: what each one is and how a value is
// checked (tunable_spec.hpp), the profile text format (tunable_profile.hpp),
// and the chosen profile that gives each its default (tunable_defaults.hpp).
// Part of the job contract: the ranks parse the tunables into their Config,
// shmpirun validates --set NAME=VALUE and --profile before starting anything,
// and shmpi_info lists them. Measurements: docs/tunables/<name>.md.
#pragma once

#include <cstdlib>

#include "shmpi/cpu_identity.hpp"
#include "shmpi/tunable_defaults.hpp"
#include "shmpi/tunable_profile.hpp"
#include "shmpi/tunable_spec.hpp"

namespace shmpi::contract {

// The profile request this process's environment makes (SHMPI_PROFILE,
// SHMPI_PROFILE_FILE).
inline ProfileRequest profile_request_from_environment() {
  const char* name = std::getenv(kProfileEnv);
  const char* file = std::getenv(kProfileFileEnv);
  return ProfileRequest{name != nullptr ? name : "", std::string(kProfileEnv) + "=", file != nullptr ? file : ""};
}

}  // namespace shmpi::contract
