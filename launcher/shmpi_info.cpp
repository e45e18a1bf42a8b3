// shmpi_info: every tunable with its default, current value (from the
// environment) and description, and the shared-memory footprint per rank.
//
//   shmpi_info [-n RANKS]
//   shmpi_info --api        the MPI functions provided (launcher/api_list.hpp)
//
// Exit status 0; 1 when a SHMPI_<NAME> variable holds an invalid value
// (named in one line on stderr); 2 on a bad command line.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "api_list.hpp"
#include "btl/segment_layout.hpp"
#include "shmpi/tunables.hpp"

namespace {

using shmpi::contract::TunableSpec;

struct Current {
  std::string value;
  std::string error;  // empty when valid
};

Current current_value(const TunableSpec& t) {
  const std::string env = shmpi::contract::tunable_env_name(t.name);
  const char* set = std::getenv(env.c_str());
  Current c{set != nullptr ? set : shmpi::contract::default_of(t), {}};
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
  std::fprintf(message != nullptr ? stderr : stdout, "usage: shmpi_info [-n RANKS] | --api\n");
  return message != nullptr ? 2 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  long ranks = sysconf(_SC_NPROCESSORS_ONLN);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "-h") == 0 || std::strcmp(argv[i], "--help") == 0) return usage(nullptr);
    if (std::strcmp(argv[i], "--api") == 0) return shmpi::launcher::print_api_list();
    if ((std::strcmp(argv[i], "-n") == 0 || std::strcmp(argv[i], "-np") == 0) && i + 1 < argc) {
      char* end = nullptr;
      ranks = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || ranks < 1 || ranks > 4096) return usage("-n needs a rank count between 1 and 4096");
    } else {
      return usage((std::string("unknown argument ") + argv[i]).c_str());
    }
  }

  std::printf("shmpi %s tunables (set with SHMPI_<NAME>=VALUE or shmpirun --set NAME=VALUE)\n\n", SHMPI_VERSION);
  std::printf("defaults for this machine: the %s set (see include/shmpi/tunables.hpp)\n\n",
              shmpi::contract::defaults_name());
  std::printf("%-16s %-10s %-10s %s\n", "NAME", "DEFAULT", "CURRENT", "DESCRIPTION");
  int status = 0;
  std::uint64_t ring_size = 0;
  for (const TunableSpec& t : shmpi::contract::tunables()) {
    const Current c = current_value(t);
    std::printf("%-16s %-10s %-10s %s\n", t.name, shmpi::contract::default_of(t),
                c.error.empty() ? c.value.c_str() : "INVALID", t.description);
    if (!c.error.empty()) {
      std::fprintf(stderr, "shmpi_info: %s\n", c.error.c_str());
      status = 1;
    }
    if (std::strcmp(t.name, "ring_size") == 0)
      ring_size = *shmpi::contract::parse_bytes(c.error.empty() ? c.value : shmpi::contract::default_of(t));
  }

  const shmpi::btl::SegmentLayout layout{static_cast<std::uint32_t>(ranks), ring_size};
  const std::uint64_t per_rank = layout.total_bytes();
  std::printf("\nshared memory per rank with %ld ranks: %llu bytes (%s): one %llu-byte ring per sender plus %zu bytes of headers and fast boxes\n",
              ranks, static_cast<unsigned long long>(per_rank), human(per_rank).c_str(),
              static_cast<unsigned long long>(ring_size),
              static_cast<std::size_t>(per_rank - ring_size * static_cast<std::uint64_t>(ranks)));
  std::printf("shared memory for the job: %s (memfd segments: not limited by the size of /dev/shm)\n",
              human(per_rank * static_cast<std::uint64_t>(ranks)).c_str());
  return status;
}
