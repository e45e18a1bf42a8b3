// Micro-benchmarks of the btl and pml hot paths: one ring record pushed and
// popped (the fragment path), a two-thread ping-pong through two rings (the
// cache-line hand-off a message costs), the unexpected-record pool, and a
// full pml eager send + receive between two in-process ranks.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "btl/ring.hpp"
#include "btl/segment.hpp"
#include "btl/transport.hpp"
#include "pml/pml.hpp"
#include "pml/unexpected_store.hpp"

namespace {

using namespace shmpi;

struct BenchRing {
  explicit BenchRing(std::size_t size)
      : segment(btl::Segment::create(sizeof(btl::RingControl) + size)),
        writer(reinterpret_cast<btl::RingControl*>(segment.data()), segment.data() + sizeof(btl::RingControl), size),
        reader(reinterpret_cast<btl::RingControl*>(segment.data()), segment.data() + sizeof(btl::RingControl), size) {}
  btl::Segment segment;
  btl::RingWriter writer;
  btl::RingReader reader;
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

// Round trip between two threads, each polling its own ring: half of it is
// the one-way cost of a small record.
void BM_RingPingPong(benchmark::State& state) {
  BenchRing ping(64 * 1024), pong(64 * 1024);
  std::atomic<bool> stop{false};
  std::thread echo([&] {
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
}
BENCHMARK(BM_RingPingPong)->UseRealTime();

void BM_UnexpectedPoolAcquireRelease(benchmark::State& state) {
  pml::UnexpectedStore store;
  const auto bytes = static_cast<std::uint64_t>(state.range(0));
  for (auto _ : state) {
    pml::Unexpected& u = store.acquire(1, bytes, bytes);
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
  pml::Pml p0(t0, pml::ProtocolLimits{}, pml::WaitPolicy{}), p1(t1, pml::ProtocolLimits{}, pml::WaitPolicy{});
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
