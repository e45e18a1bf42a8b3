// shmpi_info: the profile the tunables' defaults come from and the rule that
// chose it, every tunable with its level, default, current value (from the
// environment) and description, and the shared-memory footprint per rank
// with the budget it follows (btl/segment_budget.hpp).
//
//   shmpi_info [-n RANKS] [--all] [--profile NAME]
//   shmpi_info --api        the MPI functions provided (launcher/api_list.hpp)
//
// --all also lists the test-level tunables; --profile shows another
// profile's defaults (as SHMPI_PROFILE=NAME would). Exit status 0; 1 when
// a SHMPI_<NAME> variable or the profile is invalid (named in one line on
// stderr); 2 on a bad command line.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "api_list.hpp"
#include "btl/segment_budget.hpp"
#include "handoff_probe.hpp"
#include "launch_error.hpp"
#include "shmpi/tunables.hpp"
#include "topology.hpp"

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
  if (bytes >= (1ull << 30)) {
    std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / (1 << 30));
  } else if (bytes >= (1u << 20)) {
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

// The tunables that size the shared memory, as they are in effect.
struct Sizes {
  std::uint64_t ring_size = 0;
  std::uint64_t segment_budget = 0;
  std::uint64_t eager_limit = 0;
};

void note_size(const TunableSpec& t, const std::string& value, Sizes& sizes) {
  std::uint64_t* field = std::strcmp(t.name, "ring_size") == 0        ? &sizes.ring_size
                         : std::strcmp(t.name, "segment_budget") == 0 ? &sizes.segment_budget
                         : std::strcmp(t.name, "eager_limit") == 0    ? &sizes.eager_limit
                                                                      : nullptr;
  if (field != nullptr) *field = *shmpi::contract::parse_bytes(value);
}

// Prints one line per tunable (test-level ones only with `all`); returns
// the sizes in effect and sets `status` to 1 on an invalid value.
Sizes print_tunables(const TunableDefaults& defaults, bool all, int& status) {
  std::printf("%-20s %-6s %-10s %-10s %s\n", "NAME", "LEVEL", "DEFAULT", "CURRENT", "DESCRIPTION");
  Sizes sizes;
  bool hidden = false;
  for (const TunableSpec& t : shmpi::contract::tunables()) {
    const Current c = current_value(t, defaults);
    if (!c.error.empty()) {
      std::fprintf(stderr, "shmpi_info: %s\n", c.error.c_str());
      status = 1;
    }
    note_size(t, c.error.empty() ? c.value : std::string(defaults.default_of(t)), sizes);
    if (t.level == shmpi::contract::TunableLevel::Test && !all) {
      hidden = true;
      continue;
    }
    std::printf("%-20s %-6s %-10s %-10s %s\n", t.name, shmpi::contract::level_name(t.level),
                std::string(defaults.default_of(t)).c_str(), c.error.empty() ? c.value.c_str() : "INVALID",
                t.description);
  }
  if (hidden) std::printf("(test-level tunables are listed with --all)\n");
  return sizes;
}

// The segment of each rank, the budget it follows and the job's total.
void print_footprint(long ranks, const Sizes& sizes) {
  const auto n = static_cast<std::uint32_t>(ranks);
  const std::uint64_t ring = shmpi::btl::budget_ring_size(n, sizes.ring_size, sizes.segment_budget);
  const std::uint64_t per_rank = shmpi::btl::SegmentLayout{n, ring}.total_bytes();
  std::printf("\nshared memory per rank with %ld ranks: %llu bytes (%s): one %llu-byte ring per sender plus %llu bytes of headers, fast boxes and collective slots\n",
              ranks, static_cast<unsigned long long>(per_rank), human(per_rank).c_str(),
              static_cast<unsigned long long>(ring),
              static_cast<unsigned long long>(per_rank - ring * n));
  const std::uint64_t eager = std::min<std::uint64_t>(sizes.eager_limit, shmpi::btl::eager_limit_for_ring(ring));
  if (ring == sizes.ring_size) {
    std::printf("budget: at most %s per rank (segment_budget): %s; rings keep ring_size=%llu\n",
                human(sizes.segment_budget).c_str(), per_rank <= sizes.segment_budget ? "met" : "exceeded",
                static_cast<unsigned long long>(sizes.ring_size));
  } else {
    std::printf("budget: at most %s per rank (segment_budget): %s; rings shrink from ring_size=%llu to %llu bytes, eager messages up to %llu bytes\n",
                human(sizes.segment_budget).c_str(), per_rank <= sizes.segment_budget ? "met" : "exceeded (rings are one page)",
                static_cast<unsigned long long>(sizes.ring_size), static_cast<unsigned long long>(ring),
                static_cast<unsigned long long>(eager));
  }
  std::printf("shared memory for the job: %s at most; pages are touched only by the pairs that talk (memfd segments: not limited by the size of /dev/shm)\n",
              human(per_rank * n).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--api") == 0) return shmpi::launcher::print_api_list();
  Args args;
  if (const std::optional<int> status = parse(argc, argv, args)) return *status;
  shmpi::contract::ProfileRequest request = shmpi::contract::profile_request_from_environment();
  if (!args.profile.empty()) request = {args.profile, "--profile ", request.file};
  // The CPU as a job's ranks 0 and 1 would see it: bound to the first two
  // CPUs shmpirun would take, the hand-off between them measured.
  shmpi::contract::CpuIdentity cpu;
  try {
    std::vector<std::string> environment;
    for (char** e = environ; *e != nullptr; ++e) environment.emplace_back(*e);
    const std::vector<int> cpus = shmpi::launcher::read_topology().cpus;
    cpu = shmpi::launcher::cpu_for_job(environment, !request.name.empty(), cpus.size() >= 2 ? cpus[0] : -1,
                                       cpus.size() >= 2 ? cpus[1] : -1);
  } catch (const shmpi::launcher::LaunchError& e) {
    std::fprintf(stderr, "shmpi_info: %s\n", e.what());
    return 1;
  }
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
  const Sizes sizes = print_tunables(defaults, args.all, status);
  print_footprint(args.ranks, sizes);
  return status;
}
