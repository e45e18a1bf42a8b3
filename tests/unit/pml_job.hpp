// A two-rank job in one process for pml unit tests: each rank with its own
// Transport and Pml, progressed in turn, deterministically.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <vector>

#include "pml/pml.hpp"

namespace shmpi::pml::test_job {

constexpr std::uint32_t kCtx = 0;

// Limits said explicitly: eager, fragment, rendezvous and split sizes; the
// route fixed to single copy and no pipelined replies unless a test sets them.
inline ProtocolLimits limits_of(std::size_t eager, std::size_t fragment, std::size_t rndv, std::size_t split = 0) {
  return ProtocolLimits{.eager_limit = eager,
                        .max_fragment = fragment,
                        .rndv_threshold = rndv,
                        .split_threshold = split,
                        .run_copy_min = 1024,
                        .choose_route = false,
                        .reply_pipeline_limit = 0,
                        .unexpected_budget = std::uint64_t{1} << 40};
}

// The limits a test job has unless it says otherwise.
inline ProtocolLimits default_limits() { return limits_of(4096, 16384, 16384); }

// How rendezvous payloads move in a test job.
// CmaRefusedToRank0: rank 0's first copy is refused (its Rts still offers
// to write), rank 1's copies go through.
enum class Copy { Streamed, Cma, CmaRefused, CmaRefusedToRank0 };

struct TwoRanks {
  explicit TwoRanks(ProtocolLimits limits = default_limits(), std::size_t ring = 64 * 1024, Copy copy = Copy::Streamed)
      : t0(0, 2, btl::Limits{ring}),
        t1(1, 2, btl::Limits{ring}),
        c0(copy != Copy::Streamed, copy == Copy::CmaRefused || copy == Copy::CmaRefusedToRank0),
        c1(copy != Copy::Streamed, copy == Copy::CmaRefused) {
    t0.connect(1, t1.address());
    t1.connect(0, t0.address());
    p0 = std::make_unique<Pml>(t0, limits, WaitPolicy{}, &c0);
    p1 = std::make_unique<Pml>(t1, limits, WaitPolicy{}, &c1);
  }
  // Progresses both until every request in `requests` completes.
  void run(std::initializer_list<Request*> requests) { run(std::vector<Request*>(requests)); }
  void run(const std::vector<Request*>& requests) {
    for (int i = 0; i < 10'000'000; ++i) {
      bool done = true;
      for (Request* r : requests) done = done && r->complete;
      if (done) return;
      p0->progress();
      p1->progress();
    }
    FAIL() << "requests did not complete";
  }
  btl::Transport t0, t1;
  btl::SingleCopy c0, c1;
  std::unique_ptr<Pml> p0, p1;
};

inline std::vector<std::byte> pattern(std::size_t n, unsigned seed) {
  std::vector<std::byte> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::byte>((seed + i * 13 + (i >> 8)) & 0xff);
  return v;
}

}  // namespace shmpi::pml::test_job
