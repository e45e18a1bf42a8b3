// Randomised differential test: the engine against a trivially correct
// reference (two linear lists, searched front to back), ~100k operations per
// configuration with a fixed seed, every result compared.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "match_test_util.hpp"

namespace shmpi::pml::testing {
namespace {

struct Reference {
  std::vector<Recv*> posted;      // posting order
  std::vector<Msg*> unexpected;   // arrival order

  Recv* match(const Envelope& msg) {
    for (auto it = posted.begin(); it != posted.end(); ++it) {
      if (matches((*it)->want, msg)) {
        Recv* r = *it;
        posted.erase(it);
        return r;
      }
    }
    return nullptr;
  }
  Msg* find(const Envelope& want) const {
    for (Msg* m : unexpected) {
      if (matches(want, m->env)) return m;
    }
    return nullptr;
  }
  Msg* take(const Envelope& want) {
    Msg* m = find(want);
    if (m != nullptr) std::erase(unexpected, m);
    return m;
  }
};

struct Config {
  const char* name;
  std::uint32_t contexts;
  std::int32_t sources;
  std::int32_t tags;
  int wildcard_percent;  // chance that a receive field is a wildcard
  std::size_t nodes;     // receives and messages available
  std::uint64_t seed;
  std::size_t min_matched;  // sanity floor: the run really matched things
};

void PrintTo(const Config& c, std::ostream* os) { *os << c.name; }

class Differential : public ::testing::TestWithParam<Config> {};

TEST_P(Differential, MatchesReference) {
  const Config cfg = GetParam();
  std::mt19937_64 rng(cfg.seed);
  auto uniform = [&](std::uint64_t n) { return static_cast<std::size_t>(rng() % n); };
  auto percent = [&](int p) { return static_cast<int>(rng() % 100) < p; };
  auto message_env = [&] {
    return env(static_cast<std::uint32_t>(uniform(cfg.contexts)),
               static_cast<std::int32_t>(uniform(static_cast<std::uint64_t>(cfg.sources))),
               static_cast<std::int32_t>(uniform(static_cast<std::uint64_t>(cfg.tags))));
  };
  auto pattern = [&] {
    Envelope e = message_env();
    if (percent(cfg.wildcard_percent)) e.source = kAnySource;
    if (percent(cfg.wildcard_percent)) e.tag = kAnyTag;
    return e;
  };

  std::vector<Recv> recvs(cfg.nodes);
  std::vector<Msg> msgs(cfg.nodes);
  for (std::size_t i = 0; i < cfg.nodes; ++i) {
    recvs[i].id = static_cast<int>(i);
    msgs[i].id = static_cast<int>(i);
  }
  std::vector<Recv*> free_recvs;
  std::vector<Msg*> free_msgs;
  for (auto& r : recvs) free_recvs.push_back(&r);
  for (auto& m : msgs) free_msgs.push_back(&m);

  PostedQueue posted;
  UnexpectedQueue unexpected;
  Reference ref;
  std::size_t matched = 0, wild_matched = 0;

  constexpr int kOps = 100'000;
  for (int op = 0; op < kOps; ++op) {
    // Drift between a deep posted queue and a deep unexpected queue.
    const bool recv_heavy = (op / 5000) % 2 == 0;
    const std::size_t kind = uniform(10);
    if (kind < 3 && !free_recvs.empty()) {  // MPI_Irecv, pml flow
      const std::size_t pick = uniform(free_recvs.size());
      Recv* r = free_recvs[pick];
      r->want = pattern();
      Msg* got = static_cast<Msg*>(unexpected.take(r->want));
      ASSERT_EQ(got, ref.take(r->want)) << "op " << op;
      if (got != nullptr) {
        free_msgs.push_back(got);
        ASSERT_FALSE(got->queued());
      } else if (recv_heavy || percent(50)) {
        posted.post(*r);
        ref.posted.push_back(r);
        free_recvs.erase(free_recvs.begin() + static_cast<std::ptrdiff_t>(pick));
      }
    } else if (kind < 6 && !free_msgs.empty()) {  // a message arrives
      const std::size_t pick = uniform(free_msgs.size());
      Msg* m = free_msgs[pick];
      m->env = message_env();
      Recv* r = static_cast<Recv*>(posted.match(m->env));
      ASSERT_EQ(r, ref.match(m->env)) << "op " << op;
      if (r != nullptr) {
        ++matched;
        if (pattern_class(r->want) != 0) ++wild_matched;
        ASSERT_FALSE(r->queued());
        free_recvs.push_back(r);
      } else if (!recv_heavy || percent(50)) {
        unexpected.push(*m);
        ref.unexpected.push_back(m);
        free_msgs.erase(free_msgs.begin() + static_cast<std::ptrdiff_t>(pick));
      }
    } else if (kind == 6) {  // MPI_Cancel of a random receive (queued or not)
      Recv* r = &recvs[uniform(recvs.size())];
      const bool was_queued = std::find(ref.posted.begin(), ref.posted.end(), r) != ref.posted.end();
      ASSERT_EQ(posted.cancel(*r), was_queued) << "op " << op;
      if (was_queued) {
        std::erase(ref.posted, r);
        free_recvs.push_back(r);
      }
    } else if (kind == 7) {  // MPI_Iprobe
      const Envelope want = pattern();
      ASSERT_EQ(unexpected.find(want), ref.find(want)) << "op " << op;
    } else if (kind == 8 && !ref.unexpected.empty()) {  // MPI_Mprobe then drop
      Msg* m = ref.unexpected[uniform(ref.unexpected.size())];
      unexpected.remove(*m);
      std::erase(ref.unexpected, m);
      free_msgs.push_back(m);
      ASSERT_FALSE(m->queued());
    } else if (kind == 9) {  // take with a pattern without posting
      const Envelope want = pattern();
      Msg* got = static_cast<Msg*>(unexpected.take(want));
      ASSERT_EQ(got, ref.take(want)) << "op " << op;
      if (got != nullptr) free_msgs.push_back(got);
    }
    ASSERT_EQ(posted.size(), ref.posted.size());
    ASSERT_EQ(unexpected.size(), ref.unexpected.size());
  }
  // Drain: everything left must come out in reference order.
  for (Recv* r : std::vector<Recv*>(ref.posted)) EXPECT_TRUE(posted.cancel(*r));
  for (std::uint32_t c = 0; c < cfg.contexts; ++c) {
    while (Msg* m = ref.take(env(c, kAnySource, kAnyTag))) {
      EXPECT_EQ(unexpected.take(env(c, kAnySource, kAnyTag)), m);
    }
  }
  EXPECT_TRUE(posted.empty());
  EXPECT_TRUE(unexpected.empty());
  // Sanity: the run exercised real matching, including wildcards.
  EXPECT_GE(matched, cfg.min_matched);
  if (cfg.wildcard_percent > 0) {
    EXPECT_GT(wild_matched, 100U);
  }
  std::printf("%s: %zu matched (%zu by wildcard receives)\n", cfg.name, matched, wild_matched);
}

INSTANTIATE_TEST_SUITE_P(
    Configs, Differential,
    ::testing::Values(
        Config{"small_keys_wild", 2, 4, 4, 25, 200, 1, 10000},
        Config{"one_context_many_wild", 1, 3, 3, 50, 100, 2, 10000},
        Config{"no_wildcards", 2, 8, 8, 0, 300, 3, 5000},
        Config{"many_keys_sweeps", 2, 16, 300, 30, 2000, 4, 2000},
        Config{"deep_queues", 1, 16, 64, 15, 1000, 5, 5000}),
    [](const ::testing::TestParamInfo<Config>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace shmpi::pml::testing
