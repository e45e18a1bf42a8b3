#include "handoff_probe.hpp"

#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <new>

#include "launch_error.hpp"
#include "preflight.hpp"

namespace shmpi::launcher {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kBatches = 7;
constexpr std::uint64_t kRoundTrips = 400;  // per batch: 0.02-0.15 ms on these machines
// On CPUs busy with other work a batch can take a scheduler slice per
// round trip: stop after this long once a batch is complete, and give up
// only when even one batch cannot complete.
constexpr auto kEnough = std::chrono::milliseconds(50);
constexpr auto kGiveUp = std::chrono::seconds(10);
constexpr std::uint64_t kStop = ~std::uint64_t{0};

// One shared page: the line the two sides pass, and the leader's result.
struct Shared {
  alignas(128) std::atomic<std::uint64_t> turn{0};
  alignas(128) std::atomic<std::uint64_t> result_ns{0};  // 0: no batch completed
};

bool pin_to(int cpu) {
  if (cpu < 0 || cpu >= CPU_SETSIZE) return false;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0;
}

// Spins until `turn` holds `want`; false on kStop or after `deadline`.
bool await(const Shared& s, std::uint64_t want, Clock::time_point deadline) {
  for (std::uint32_t spins = 1;; ++spins) {
    const std::uint64_t v = s.turn.load(std::memory_order_acquire);
    if (v == want || v == kStop) return v == want;
    if (spins % 4096 == 0 && Clock::now() > deadline) return false;
  }
}

// The leading side: times batches of round trips; the median batch is
// the result (a batch that was preempted is an outlier either way).
void lead(Shared& s, Clock::time_point deadline) {
  std::uint64_t v = 0;
  std::array<double, kBatches> one_way{};
  int batches = 0;
  const Clock::time_point enough = Clock::now() + kEnough;
  while (batches < kBatches && (batches == 0 || Clock::now() < enough)) {
    const Clock::time_point start = Clock::now();
    for (std::uint64_t i = 0; i < kRoundTrips; ++i) {
      s.turn.store(++v, std::memory_order_release);
      if (!await(s, ++v, deadline)) return;
    }
    const std::chrono::duration<double, std::nano> took = Clock::now() - start;
    one_way[static_cast<std::size_t>(batches++)] = took.count() / (2.0 * kRoundTrips);
    std::sort(one_way.begin(), one_way.begin() + batches);
    const double median = one_way[static_cast<std::size_t>(batches / 2)];
    s.result_ns.store(static_cast<std::uint64_t>(std::max(1.0, std::round(median))), std::memory_order_relaxed);
  }
}

// The answering side: every odd value becomes the next even one.
void answer(Shared& s, Clock::time_point deadline) {
  for (std::uint64_t v = 1; await(s, v, deadline); v += 2) s.turn.store(v + 1, std::memory_order_release);
}

// A child process pinned to `cpu` that runs `side`; -1 when fork fails.
template <class Side>
pid_t start_side(int cpu, Shared& s, Clock::time_point deadline, Side side) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  if (pin_to(cpu)) side(s, deadline);
  s.turn.store(kStop, std::memory_order_release);  // the other side stops too
  ::_exit(0);
}

void reap(pid_t pid) {
  if (pid <= 0) return;
  while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
  }
}

}  // namespace

// Two processes, as ranks are: two threads of one process hand a line off
// in half the time two processes take on the same pair of vCPUs here
// (26 against 55 ns), which would hide the state that matters.
std::optional<unsigned> measure_handoff_ns(int cpu_a, int cpu_b) {
  if (cpu_a < 0 || cpu_b < 0 || cpu_a >= CPU_SETSIZE || cpu_b >= CPU_SETSIZE) return std::nullopt;
  void* page = ::mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return std::nullopt;
  Shared* s = new (page) Shared;
  const Clock::time_point deadline = Clock::now() + kGiveUp;
  const pid_t answering = start_side(cpu_b, *s, deadline, answer);
  const pid_t leading = answering > 0 ? start_side(cpu_a, *s, deadline, lead) : -1;
  if (leading <= 0) s->turn.store(kStop, std::memory_order_release);
  reap(leading);
  reap(answering);
  const std::uint64_t best = s->result_ns.load(std::memory_order_relaxed);
  ::munmap(page, sizeof(Shared));
  if (best == 0) return std::nullopt;
  return static_cast<unsigned>(std::min<std::uint64_t>(best, 999999999));
}

contract::CpuIdentity cpu_for_job(std::span<const std::string> environment, bool profile_named, int cpu_a, int cpu_b) {
  contract::CpuIdentity cpu = contract::this_cpu();
  if (const char* given = environment_value(environment, contract::kMeasuredHandoffEnv)) {
    const std::optional<unsigned> ns = contract::handoff_from_environment(given);
    if (!ns)
      throw usage_error(std::string("environment ") + contract::kMeasuredHandoffEnv + "=" + given +
                        ": must be a number of ns below 1000000000 (0: none)");
    cpu.handoff_ns = *ns;
    return cpu;
  }
  if (!profile_named && cpu_a >= 0 && cpu_b >= 0 && cpu_a != cpu_b)
    cpu.handoff_ns = measure_handoff_ns(cpu_a, cpu_b).value_or(0);
  return cpu;
}

}  // namespace shmpi::launcher
