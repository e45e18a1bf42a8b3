// Micro-benchmarks of the btl and pml hot paths: one ring record pushed and
// popped (the fragment path), ping-pongs between two cores through two rings
// (two threads) and through two pmls (two processes): the one-way cost of a
// small message, layer by layer;
// the unexpected-record pool, and a full pml eager send + receive between
// two in-process ranks.
#include <benchmark/benchmark.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <thread>
#include <utility>
#include <vector>

#include "btl/ring.hpp"
#include "btl/segment.hpp"
#include "btl/single_copy.hpp"
#include "btl/transport.hpp"
#include "pml/pml.hpp"
#include "pml/unexpected_store.hpp"

namespace {

using namespace shmpi;

// Keeps an object on cache lines of its own (an adjacent-line pair): state
// one thread writes must not share a line with state the other thread
// touches, or the ping-pongs below measure false sharing, which ranks (each
// with its private objects) never see.
template <class T>
struct alignas(128) Padded {
  template <class... Args>
  explicit Padded(Args&&... args) : value(std::forward<Args>(args)...) {}
  T value;
};

struct BenchRing {
  explicit BenchRing(std::size_t size)
      : segment(btl::Segment::create(sizeof(btl::RingControl) + size)),
        writer(reinterpret_cast<btl::RingControl*>(segment.data()), segment.data() + sizeof(btl::RingControl), size),
        reader(reinterpret_cast<btl::RingControl*>(segment.data()), segment.data() + sizeof(btl::RingControl), size) {}
  btl::Segment segment;
  alignas(128) btl::RingWriter writer;  // the producer's
  alignas(128) btl::RingReader reader;  // the consumer's
};

void BM_RingPushPop(benchmark::State& state) {
  BenchRing ring(64 * 1024);
  std::vector<std::byte> payload(static_cast<std::size_t>(state.range(0)), std::byte{1});
  std::size_t sink = 0;
  for (auto _ : state) {
    ring.writer.try_push({}, payload);
    ring.reader.drain([&](std::span<const std::byte> body) { sink += body.size(); }, 1);
  }
  benchmark::DoNotOptimize(sink);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_RingPushPop)->Arg(0)->Arg(24)->Arg(256)->Arg(4096);

// Pins the calling thread to the `index`-th CPU it may run on (no-op with
// fewer CPUs): the ping-pongs below cross between two fixed cores, like
// benchmarks/compare/floor_handoff, whose one-way time they are read against.
void pin_to_allowed_cpu(int index) {
  // The process's CPUs as they were before any thread got pinned (a thread
  // inherits its creator's, possibly already narrowed, mask).
  static const std::vector<int> cpus = [] {
    std::vector<int> found;
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0)
      for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &allowed)) found.push_back(cpu);
    return found;
  }();
  if (static_cast<std::size_t>(index) >= cpus.size()) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpus[static_cast<std::size_t>(index)], &one);
  sched_setaffinity(0, sizeof one, &one);
}

// Each iteration was a round trip: reports half of its time as one_way_ns.
void report_one_way(benchmark::State& state) {
  state.counters["one_way_ns"] = benchmark::Counter(2.0 * static_cast<double>(state.iterations()),
                                                    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// Round trip between two threads on two cores, each polling its own ring:
// one_way_ns is the transport's share of a small message's latency.
void BM_RingPingPong(benchmark::State& state) {
  Padded<BenchRing> ping_store(64 * 1024), pong_store(64 * 1024);
  BenchRing& ping = ping_store.value;
  BenchRing& pong = pong_store.value;
  Padded<std::atomic<bool>> stop_store(false);
  std::atomic<bool>& stop = stop_store.value;
  pin_to_allowed_cpu(0);
  std::thread echo([&] {
    pin_to_allowed_cpu(1);
    while (!stop.load(std::memory_order_relaxed)) {
      ping.reader.drain([&](std::span<const std::byte> body) {
        while (!pong.writer.try_push({}, body)) {
        }
      }, 16);
    }
  });
  const std::byte msg[8] = {};
  for (auto _ : state) {
    while (!ping.writer.try_push({}, msg)) {
    }
    while (pong.reader.drain([](std::span<const std::byte>) {}, 1) == 0) {
    }
  }
  stop = true;
  echo.join();
  report_one_way(state);
}
BENCHMARK(BM_RingPingPong)->UseRealTime();

// The pml's limits in these benchmarks: 4 KiB eager records, 16 KiB
// fragments and rendezvous threshold; no route choice, no pipelined replies.
constexpr pml::ProtocolLimits kPmlLimits{.eager_limit = 4096,
                                         .max_fragment = 16384,
                                         .rndv_threshold = 16384,
                                         .split_threshold = 0,
                                         .run_copy_min = 1024,
                                         .choose_route = false,
                                         .reply_pipeline_limit = 0,
                                         .unexpected_budget = std::uint64_t{1} << 40};

// The same round trip through two pmls (match, copy, complete on each side):
// one_way_ns less the ring's is the pml's share of a small message's latency.
// Rank 1 is a forked process, as in a job: two pmls in one process measured
// their own heap layout (a field added to the ring writer once moved this
// from ~340 to ~500 ns), which ranks never share. Argument: fast box on (1)
// or off (0), so the box's share shows too.
void BM_PmlPingPong(benchmark::State& state) {
  btl::Limits limits;
  limits.fast_box = state.range(0) != 0;
  btl::allow_peer_access();
  int to_child[2], to_parent[2];
  if (::pipe(to_child) != 0 || ::pipe(to_parent) != 0) {
    state.SkipWithError("pipe failed");
    return;
  }
  void* shared = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  auto* stop = ::new (shared) std::atomic<bool>(false);
  // Trades segment addresses with the other process and connects to it.
  auto wire = [](btl::Transport& t, std::uint32_t peer, int out, int in) {
    const btl::PeerAddress mine = t.address();
    btl::PeerAddress theirs{};
    if (::write(out, &mine, sizeof mine) != sizeof mine || ::read(in, &theirs, sizeof theirs) != sizeof theirs)
      std::abort();
    t.connect(peer, theirs);
  };
  const pid_t child = ::fork();
  if (child == 0) {
    pin_to_allowed_cpu(1);
    btl::Transport t1(1U, 2U, limits);
    wire(t1, 0, to_parent[1], to_child[0]);
    pml::Pml p1(t1, kPmlLimits, pml::WaitPolicy{});
    std::array<std::byte, 8> buf{};
    while (true) {
      pml::Request recv, send;
      p1.start_recv(recv, pml::Envelope{0, 0, 1}, buf.data(), buf.size());
      while (!recv.complete) {
        if (stop->load(std::memory_order_relaxed)) ::_exit(0);
        p1.progress();
      }
      p1.start_send(send, 0, pml::Envelope{0, 1, 1}, buf.data(), buf.size());
    }
  }
  pin_to_allowed_cpu(0);
  {
    btl::Transport t0(0U, 2U, limits);
    wire(t0, 1, to_child[1], to_parent[0]);
    pml::Pml p0(t0, kPmlLimits, pml::WaitPolicy{});
    std::array<std::byte, 8> out{}, in{};
    for (auto _ : state) {
      pml::Request recv, send;
      p0.start_send(send, 1, pml::Envelope{0, 0, 1}, out.data(), out.size());
      p0.start_recv(recv, pml::Envelope{0, 1, 1}, in.data(), in.size());
      while (!recv.complete) p0.progress();
    }
    stop->store(true);
    ::waitpid(child, nullptr, 0);
  }
  for (int fd : {to_child[0], to_child[1], to_parent[0], to_parent[1]}) ::close(fd);
  ::munmap(shared, 4096);
  report_one_way(state);
}
BENCHMARK(BM_PmlPingPong)->ArgName("fast_box")->Arg(1)->Arg(0)->UseRealTime();

void BM_UnexpectedPoolAcquireRelease(benchmark::State& state) {
  pml::UnexpectedStore store;
  const auto bytes = static_cast<std::uint64_t>(state.range(0));
  for (auto _ : state) {
    pml::Unexpected& u = store.acquire(1, bytes, bytes, true);
    benchmark::DoNotOptimize(u.data.data());
    store.release(u);
  }
}
BENCHMARK(BM_UnexpectedPoolAcquireRelease)->Arg(8)->Arg(4096);

// One eager message from rank 0 to rank 1 of an in-process job: send,
// progress, match, copy out.
void BM_PmlEagerSendRecv(benchmark::State& state) {
  btl::Transport t0(0, 2, btl::Limits{}), t1(1, 2, btl::Limits{});
  t0.connect(1, t1.address());
  t1.connect(0, t0.address());
  pml::Pml p0(t0, kPmlLimits, pml::WaitPolicy{}), p1(t1, kPmlLimits, pml::WaitPolicy{});
  std::vector<std::byte> out(static_cast<std::size_t>(state.range(0))), in(out.size());
  for (auto _ : state) {
    pml::Request recv, send;
    p1.start_recv(recv, pml::Envelope{0, 0, 1}, in.data(), in.size());
    p0.start_send(send, 1, pml::Envelope{0, 0, 1}, out.data(), out.size());
    while (!recv.complete) p1.progress();
  }
}
BENCHMARK(BM_PmlEagerSendRecv)->Arg(0)->Arg(8)->Arg(1024)->Arg(4096);

}  // namespace

BENCHMARK_MAIN();
