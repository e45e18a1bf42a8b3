// Cost of one match in the matching engine (pml/matcher.hpp) with K queued
// receives or messages that do NOT match: it must stay flat in K.
//
//   posted_*:     post(r) + match(msg)   -- a receive waits, its message comes
//   unexpected_*: push(m) + take(want)   -- a message waits, its receive comes
//   *_tags:    the K others are from the same source, other tags
//   *_sources: the K others are from other sources, same tag
//   linear_*:  a front-to-back list walk (what Open MPI / MPICH do), for scale
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "pml/matcher.hpp"

namespace {

using shmpi::pml::Envelope;
using shmpi::pml::kAnySource;
using shmpi::pml::kAnyTag;
using shmpi::pml::PostedQueue;
using shmpi::pml::PostedRecv;
using shmpi::pml::UnexpectedMsg;
using shmpi::pml::UnexpectedQueue;

enum class Busy { Tags, Sources };

// The i-th non-matching envelope (i >= 1); the measured one is (0, 0, 0).
Envelope other(Busy busy, std::int64_t i) {
  const auto n = static_cast<std::int32_t>(i);
  return busy == Busy::Tags ? Envelope{0, 0, n} : Envelope{0, n, 0};
}

// want: the measured receive's pattern. wild: also keep non-matching
// wildcard receives posted, which forces the four-list path.
void posted(benchmark::State& state, Busy busy, Envelope want, bool wild) {
  const std::int64_t k = state.range(0);
  PostedQueue q;
  std::vector<PostedRecv> others(static_cast<std::size_t>(k) + 2);
  for (std::int64_t i = 1; i <= k; ++i) {
    others[static_cast<std::size_t>(i)].want = other(busy, i);
    q.post(others[static_cast<std::size_t>(i)]);
  }
  if (wild) {
    others[0].want = Envelope{0, kAnySource, 1'000'000};
    others.back().want = Envelope{0, 1'000'000, kAnyTag};
    q.post(others[0]);
    q.post(others.back());
  }
  PostedRecv r;
  r.want = want;
  const Envelope msg{0, 0, 0};
  for (auto _ : state) {
    q.post(r);
    benchmark::DoNotOptimize(q.match(msg));
  }
  if (r.queued()) state.SkipWithError("did not match");
}

void unexpected(benchmark::State& state, Busy busy, Envelope want) {
  const std::int64_t k = state.range(0);
  UnexpectedQueue q;
  std::vector<UnexpectedMsg> others(static_cast<std::size_t>(k) + 1);
  for (std::int64_t i = 1; i <= k; ++i) {
    others[static_cast<std::size_t>(i)].env = other(busy, i);
    q.push(others[static_cast<std::size_t>(i)]);
  }
  UnexpectedMsg m;
  m.env = Envelope{0, 0, 0};
  for (auto _ : state) {
    q.push(m);
    benchmark::DoNotOptimize(q.take(want));
  }
  if (m.queued()) state.SkipWithError("did not match");
}

// Reference point: the linear posted list of the classic implementations.
void linear(benchmark::State& state) {
  const std::int64_t k = state.range(0);
  std::vector<Envelope> list;
  for (std::int64_t i = 1; i <= k; ++i) list.push_back(other(Busy::Tags, i));
  const Envelope msg{0, 0, 0};
  for (auto _ : state) {
    list.push_back(msg);
    std::size_t i = 0;
    while (!shmpi::pml::matches(list[i], msg)) ++i;
    list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
    benchmark::DoNotOptimize(i);
  }
}

constexpr Envelope kExact{0, 0, 0};
constexpr Envelope kAnySrc{0, kAnySource, 0};
constexpr Envelope kAnyTg{0, 0, kAnyTag};

void args(benchmark::internal::Benchmark* b) {
  for (int k : {1, 10, 100, 1000, 10000}) b->Arg(k);
}

BENCHMARK_CAPTURE(posted, exact_tags, Busy::Tags, kExact, false)->Apply(args);
BENCHMARK_CAPTURE(posted, exact_sources, Busy::Sources, kExact, false)->Apply(args);
BENCHMARK_CAPTURE(posted, exact_tags_wild_posted, Busy::Tags, kExact, true)->Apply(args);
BENCHMARK_CAPTURE(posted, any_source_tags, Busy::Tags, kAnySrc, false)->Apply(args);
BENCHMARK_CAPTURE(posted, any_tag_sources, Busy::Sources, kAnyTg, false)->Apply(args);
BENCHMARK_CAPTURE(unexpected, exact_tags, Busy::Tags, kExact)->Apply(args);
BENCHMARK_CAPTURE(unexpected, exact_sources, Busy::Sources, kExact)->Apply(args);
BENCHMARK_CAPTURE(unexpected, any_source_tags, Busy::Tags, kAnySrc)->Apply(args);
BENCHMARK_CAPTURE(unexpected, any_tag_sources, Busy::Sources, kAnyTg)->Apply(args);
BENCHMARK(linear)->Apply(args);

}  // namespace
