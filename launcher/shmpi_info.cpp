// shmpi_info: the profile the tunables' defaults come from and the rule that
// chose it, every tunable with its level, default, current value (from the
// environment) and description, and the shared-memory footprint per rank.
//
//   shmpi_info [-n RANKS] [--all] [--profile NAME]
//   shmpi_info --api        the MPI functions provided (launcher/api_list.hpp)
//
// --all also lists the test-level tunables; --profile shows another
// profile's defaults (as SHMPI_PROFILE=NAME would). Exit status 0; 1 when
// a SHMPI_<NAME> variable or the profile is invalid (named in one line on
// stderr); 2 on a bad command line.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "api_list.hpp"
#include "btl/segment_layout.hpp"
#include "shmpi/tunables.hpp"

namespace {

using shmpi::contract::TunableDefaults;
using shmpi::contract::TunableSpec;

struct Current {
  std::string value;
  std::string error;  // empty when valid
};

Current current_value(const TunableSpec& t, const TunableDefaults& defaults) {
  const std::string env = shmpi::contract::tunable_env_name(t.name);
  const char* set = std::getenv(env.c_str());
  Current c{set != nullptr ? std::string(set) : std::string(defaults.default_of(t)), {}};
  if (set != nullptr) c.error = shmpi::contract::validate_tunable(t, c.value);
  if (!c.error.empty()) c.error = "invalid " + env + ": " + c.error;
  return c;
}

std::string human(std::uint64_t bytes) {
  char buf[64];
  if (bytes >= (1u << 20)) {
    std::snprintf(buf, sizeof buf, "%.2f MiB", static_cast<double>(bytes) / (1 << 20));
  } else {
    std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(bytes) / 1024);
  }
  return buf;
}

int usage(const char* message) {
  if (message != nullptr) std::fprintf(stderr, "shmpi_info: %s\n", message);
  std::fprintf(message != nullptr ? stderr : stdout, "usage: shmpi_info [-n RANKS] [--all] [--profile NAME] | --api\n");
  return message != nullptr ? 2 : 0;
}

struct Args {
  long ranks = sysconf(_SC_NPROCESSORS_ONLN);
  bool all = false;
  std::string profile;  // --profile; empty: SHMPI_PROFILE or this CPU's
};

// Fills `args`; the exit status instead when there is nothing to run
// (help, or a usage error).
std::optional<int> parse(int argc, char** argv, Args& args) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "-h") == 0 || std::strcmp(argv[i], "--help") == 0) return usage(nullptr);
    if (std::strcmp(argv[i], "--api") == 0) return shmpi::launcher::print_api_list();
    if ((std::strcmp(argv[i], "-n") == 0 || std::strcmp(argv[i], "-np") == 0) && i + 1 < argc) {
      char* end = nullptr;
      args.ranks = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || args.ranks < 1 || args.ranks > 4096)
        return usage("-n needs a rank count between 1 and 4096");
    } else if (std::strcmp(argv[i], "--all") == 0) {
      args.all = true;
    } else if (std::strcmp(argv[i], "--profile") == 0 && i + 1 < argc && argv[i + 1][0] != '\0') {
      args.profile = argv[++i];
    } else {
      return usage((std::string("unknown argument ") + argv[i]).c_str());
    }
  }
  return std::nullopt;
}

// Prints one line per tunable (test-level ones only with `all`); returns
// the ring size in effect and sets `status` to 1 on an invalid value.
std::uint64_t print_tunables(const TunableDefaults& defaults, bool all, int& status) {
  std::printf("%-20s %-6s %-10s %-10s %s\n", "NAME", "LEVEL", "DEFAULT", "CURRENT", "DESCRIPTION");
  std::uint64_t ring_size = 0;
  bool hidden = false;
  for (const TunableSpec& t : shmpi::contract::tunables()) {
    const Current c = current_value(t, defaults);
    if (!c.error.empty()) {
      std::fprintf(stderr, "shmpi_info: %s\n", c.error.c_str());
      status = 1;
    }
    if (std::strcmp(t.name, "ring_size") == 0)
      ring_size = *shmpi::contract::parse_bytes(c.error.empty() ? c.value : std::string(defaults.default_of(t)));
    if (t.level == shmpi::contract::TunableLevel::Test && !all) {
      hidden = true;
      continue;
    }
    std::printf("%-20s %-6s %-10s %-10s %s\n", t.name, shmpi::contract::level_name(t.level),
                std::string(defaults.default_of(t)).c_str(), c.error.empty() ? c.value.c_str() : "INVALID",
                t.description);
  }
  if (hidden) std::printf("(test-level tunables are listed with --all)\n");
  return ring_size;
}

void print_footprint(long ranks, std::uint64_t ring_size) {
  const shmpi::btl::SegmentLayout layout{static_cast<std::uint32_t>(ranks), ring_size};
  const std::uint64_t per_rank = layout.total_bytes();
  std::printf("\nshared memory per rank with %ld ranks: %llu bytes (%s): one %llu-byte ring per sender plus %zu bytes of headers and fast boxes\n",
              ranks, static_cast<unsigned long long>(per_rank), human(per_rank).c_str(),
              static_cast<unsigned long long>(ring_size),
              static_cast<std::size_t>(per_rank - ring_size * static_cast<std::uint64_t>(ranks)));
  std::printf("shared memory for the job: %s (memfd segments: not limited by the size of /dev/shm)\n",
              human(per_rank * static_cast<std::uint64_t>(ranks)).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--api") == 0) return shmpi::launcher::print_api_list();
  Args args;
  if (const std::optional<int> status = parse(argc, argv, args)) return *status;
  shmpi::contract::ProfileRequest request = shmpi::contract::profile_request_from_environment();
  if (!args.profile.empty()) request = {args.profile, "--profile ", request.file};
  const shmpi::contract::CpuIdentity cpu = shmpi::contract::this_cpu();
  const TunableDefaults defaults = TunableDefaults::choose(request, cpu);
  if (!defaults.error().empty()) {
    std::fprintf(stderr, "shmpi_info: %s\n", defaults.error().c_str());
    return 1;
  }
  int status = 0;
  for (const shmpi::contract::RenamedTunable& r : shmpi::contract::kRenamedTunables) {
    const std::string old_env = shmpi::contract::tunable_env_name(r.old_name);
    if (std::getenv(old_env.c_str()) != nullptr) {
      std::fprintf(stderr, "shmpi_info: %s was renamed %s\n", old_env.c_str(),
                   shmpi::contract::tunable_env_name(r.new_name).c_str());
      status = 1;
    }
  }

  std::printf("shmpi %s tunables (set with SHMPI_<NAME>=VALUE or shmpirun --set NAME=VALUE)\n\n", SHMPI_VERSION);
  std::printf("profile %s (chosen: %s); profiles: %s\n", defaults.profile().name.c_str(),
              defaults.reason().c_str(), defaults.profile_names().c_str());
  std::printf("this CPU: %s\n", shmpi::contract::cpu_text(cpu).c_str());
  std::printf("rule: %s\n\n", shmpi::contract::kProfileRule);
  const std::uint64_t ring_size = print_tunables(defaults, args.all, status);
  print_footprint(args.ranks, ring_size);
  return status;
}
