// copy_bench: what one copy costs, to choose the rendezvous switch points.
//
// memcpy (cache-hot, in this process) against CMA process_vm_readv and
// process_vm_writev through btl::SingleCopy, to this process itself and to a
// forked peer process, at 4 KiB, 64 KiB, 1 MiB and 4 MiB. Reports bytes/s.
//
//   copy_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// The peer is forked before the benchmarks run; it holds its own copy of the
// peer buffer (same address as ours, by fork; every page written after the
// fork so it is really its own) and waits until we exit.
#include <benchmark/benchmark.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "btl/single_copy.hpp"

namespace {

using shmpi::btl::CopyResult;
using shmpi::btl::SingleCopy;

constexpr std::size_t kMaxBytes = std::size_t{4} << 20;
constexpr std::int64_t kSizes[] = {4 << 10, 64 << 10, 1 << 20, 4 << 20};

std::byte* map_touched(std::size_t bytes) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  std::memset(p, 0x5A, bytes);
  return static_cast<std::byte*>(p);
}

// The forked peer: owns its copy of `buffer` until this process exits.
class PeerProcess {
 public:
  explicit PeerProcess(std::byte* buffer) {
    int ready[2];
    int hold[2];
    if (::pipe(ready) != 0 || ::pipe(hold) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      ::close(ready[0]);
      ::close(hold[1]);
      std::memset(buffer, 0xA5, kMaxBytes);  // break copy-on-write
      char c = 'r';
      if (::write(ready[1], &c, 1) != 1) ::_exit(1);
      while (::read(hold[0], &c, 1) > 0) {
      }
      ::_exit(0);
    }
    ::close(ready[1]);
    ::close(hold[0]);
    hold_ = hold[1];
    char c = 0;
    if (pid_ < 0 || ::read(ready[0], &c, 1) != 1) pid_ = -1;
    ::close(ready[0]);
  }
  PeerProcess(const PeerProcess&) = delete;
  PeerProcess& operator=(const PeerProcess&) = delete;
  ~PeerProcess() {
    if (hold_ >= 0) ::close(hold_);
    if (pid_ > 0) ::waitpid(pid_, nullptr, 0);
  }
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  int hold_ = -1;
};

struct Buffers {
  std::byte* source;  // ours
  std::byte* target;  // ours
  std::byte* peer;    // the peer's copy lives at the same address
};

void finish(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}

void bm_memcpy(benchmark::State& state, Buffers b) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    std::memcpy(b.target, b.source, bytes);
    benchmark::ClobberMemory();
  }
  finish(state);
}

void bm_cma(benchmark::State& state, Buffers b, pid_t peer, bool read) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  const bool self = peer == ::getpid();
  const auto remote = reinterpret_cast<std::uintptr_t>(self ? b.source : b.peer);
  SingleCopy copy(true);
  for (auto _ : state) {
    const CopyResult r = read ? copy.read(peer, remote, b.target, bytes) : copy.write(peer, remote, b.target, bytes);
    if (r != CopyResult::Done) {
      state.SkipWithError(r == CopyResult::NotPermitted ? "CMA not permitted" : "CMA failed");
      break;
    }
  }
  finish(state);
}

void register_all(Buffers b, pid_t child) {
  auto sized = [](benchmark::internal::Benchmark* bm) {
    for (std::int64_t s : kSizes) bm->Arg(s);
    bm->Unit(benchmark::kMicrosecond);
  };
  sized(benchmark::RegisterBenchmark("memcpy", bm_memcpy, b));
  const pid_t self = ::getpid();
  sized(benchmark::RegisterBenchmark("cma_read/self", bm_cma, b, self, true));
  sized(benchmark::RegisterBenchmark("cma_write/self", bm_cma, b, self, false));
  if (child > 0) {
    sized(benchmark::RegisterBenchmark("cma_read/child", bm_cma, b, child, true));
    sized(benchmark::RegisterBenchmark("cma_write/child", bm_cma, b, child, false));
  } else {
    std::fprintf(stderr, "copy_bench: could not fork a peer; only self copies are measured\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  shmpi::btl::allow_peer_access();
  Buffers b{map_touched(kMaxBytes), map_touched(kMaxBytes), map_touched(kMaxBytes)};
  if (b.source == nullptr || b.target == nullptr || b.peer == nullptr) {
    std::perror("copy_bench: mmap");
    return 1;
  }
  PeerProcess peer(b.peer);
  register_all(b, peer.pid());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
