// Bin memory stays bounded and bins are recycled, whatever the key pattern.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "match_test_util.hpp"

namespace shmpi::pml::testing {
namespace {

constexpr std::size_t kMinSlots = detail::BinTable::kMinSlots;
constexpr std::size_t kChunk = detail::BinTable::kBinsPerChunk;

TEST(BinRecycling, NewTagEveryIterationPostedStaysSmall) {
  PostedQueue q;
  Recv r(1, env(0, 0, 0));
  for (std::int32_t tag = 0; tag < 200'000; ++tag) {
    r.want = env(0, tag % 3 == 0 ? kAnySource : 1, tag);
    q.post(r);
    ASSERT_EQ(q.match(env(0, 1, tag)), &r);
  }
  const BinFootprint f = q.footprint();
  EXPECT_EQ(f.slots, kMinSlots);
  EXPECT_LE(f.bins_allocated, kChunk);
  EXPECT_LE(f.bins_in_table, kMinSlots / 2);
}

TEST(BinRecycling, NewTagEveryIterationUnexpectedStaysSmall) {
  UnexpectedQueue q;
  Msg m(1, env(0, 0, 0));
  for (std::int32_t tag = 0; tag < 200'000; ++tag) {
    m.env = env(static_cast<std::uint32_t>(tag % 5), tag % 11, tag);
    q.push(m);
    ASSERT_EQ(q.take(env(m.env.context, kAnySource, tag)), &m);
  }
  const BinFootprint f = q.footprint();
  EXPECT_EQ(f.slots, kMinSlots);
  EXPECT_LE(f.bins_allocated, kChunk);
}

TEST(BinRecycling, SameKeyPingPongKeepsOneBin) {
  PostedQueue q;
  Recv r(1, env(0, 4, 4));
  for (int i = 0; i < 1000; ++i) {
    q.post(r);
    ASSERT_EQ(q.match(env(0, 4, 4)), &r);
  }
  EXPECT_EQ(q.footprint().bins_in_table, 1U);
}

// Grow to many outstanding distinct keys, drain, then churn new keys: the
// table does not keep growing past what the peak needed.
TEST(BinRecycling, BoundedByPeakNotByHistory) {
  constexpr int kPeak = 5000;
  PostedQueue q;
  std::vector<Recv> recvs(kPeak);
  for (int i = 0; i < kPeak; ++i) {
    recvs[i].want = env(0, 0, i);
    q.post(recvs[i]);
  }
  const BinFootprint peak = q.footprint();
  EXPECT_GE(peak.slots, 2U * kPeak);
  EXPECT_LE(peak.slots, 8U * kPeak);
  for (int i = kPeak - 1; i >= 0; --i) ASSERT_EQ(q.match(env(0, 0, i)), &recvs[i]);
  BinFootprint warm{};
  for (int round = 0; round < 50; ++round) {
    if (round == 10) warm = q.footprint();
    for (int i = 0; i < kPeak; ++i) {
      recvs[i].want = env(1, round, kPeak * (round + 1) + i);
      q.post(recvs[i]);
    }
    for (int i = 0; i < kPeak; ++i) {
      ASSERT_EQ(q.match(env(1, round, kPeak * (round + 1) + i)), &recvs[i]);
    }
  }
  const BinFootprint after = q.footprint();
  EXPECT_EQ(after.slots, peak.slots);
  // The pool holds at most what half the slots can key (live + cached
  // empty bins), and stops growing once churn reaches a steady state.
  EXPECT_LE(after.bins_allocated, after.slots / 2 + kChunk);
  EXPECT_EQ(after.bins_allocated, warm.bins_allocated);
}

// Growth and sweeps never disturb queued nodes.
TEST(BinRecycling, SweepsKeepLiveBins) {
  UnexpectedQueue q;
  std::vector<Msg> keep(300), churn(1);
  for (int i = 0; i < 300; ++i) {
    keep[i] = Msg(i, env(0, i % 7, i));
    q.push(keep[i]);
  }
  for (std::int32_t tag = 1000; tag < 50'000; ++tag) {  // forces many sweeps
    churn[0].env = env(2, tag % 13, tag);
    q.push(churn[0]);
    ASSERT_EQ(q.take(churn[0].env), &churn[0]);
  }
  for (int i = 0; i < 300; ++i) {
    ASSERT_EQ(q.find(env(0, i % 7, i)), &keep[i]);
  }
  for (int i = 0; i < 300; ++i) ASSERT_EQ(id_of(q.take(env(0, kAnySource, kAnyTag))), i);
}

// The table itself: every present key is found, no absent key is, across
// growth, sweeps and Robin Hood displacement.
TEST(BinTable, FindsExactlyThePresentKeys) {
  detail::BinTable table;
  std::mt19937 rng(7);
  std::vector<detail::BinKey> present;
  std::vector<detail::Link> nodes(20000);  // keeps each bin non-empty
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const detail::BinKey key{static_cast<std::uint32_t>(rng() % 4), static_cast<std::int32_t>(rng() % 1000) - 1,
                             static_cast<std::int32_t>(rng() % 100000) - 1};
    if (!table.has_room(1)) table.make_room(1);
    detail::Bin& bin = table.find_or_insert(key);
    if (bin.empty()) present.push_back(key);
    bin.push_back(nodes[i]);
  }
  EXPECT_EQ(table.bins_in_table(), present.size());
  for (const detail::BinKey& key : present) {
    const detail::Bin* bin = table.find(key);
    ASSERT_NE(bin, nullptr);
    EXPECT_EQ(bin->key.context, key.context);
    EXPECT_EQ(bin->key.source, key.source);
    EXPECT_EQ(bin->key.tag, key.tag);
  }
  for (int i = 0; i < 20000; ++i) {  // absent: tags beyond the range used
    const detail::BinKey key{static_cast<std::uint32_t>(rng() % 4), static_cast<std::int32_t>(rng() % 1000),
                             static_cast<std::int32_t>(100000 + rng() % 1000)};
    EXPECT_EQ(table.find(key), nullptr);
  }
  table.unlink_all();
  for (const detail::Link& n : nodes) EXPECT_FALSE(n.linked());
}

// find() remembers the bin it returned last; a sweep that frees that bin
// (it was empty) must not let find() hand it out again.
TEST(BinTable, SweptBinIsNotFoundAgain) {
  detail::BinTable table;
  const detail::BinKey key{1, 2, 3};
  table.make_room(1);
  detail::Bin& bin = table.find_or_insert(key);
  ASSERT_EQ(table.find(key), &bin);  // now remembered
  table.make_room(kMinSlots / 2);    // past the load limit: sweeps empty bins
  EXPECT_EQ(table.bins_in_table(), 0U);
  EXPECT_EQ(table.find(key), nullptr);
}

}  // namespace
}  // namespace shmpi::pml::testing
