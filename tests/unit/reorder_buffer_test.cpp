// ReorderBuffer (net/reorder_buffer.hpp): whatever order a peer's numbered
// messages arrive in, they are delivered in send order, each exactly once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "net/reorder_buffer.hpp"

namespace {

using shmpi::net::ReorderBuffer;

// Feeds `arrival_order` (sequence numbers, payload = seq) the way the UCX
// network does and returns the payloads in the order they were delivered.
std::vector<std::uint32_t> deliver_all(const std::vector<std::uint32_t>& arrival_order) {
  ReorderBuffer<std::uint32_t> buffer;
  std::vector<std::uint32_t> delivered;
  const auto deliver = [&delivered](std::uint32_t& payload) { delivered.push_back(payload); };
  for (std::uint32_t seq : arrival_order) {
    if (!buffer.in_turn(seq)) {
      buffer.hold(seq, seq);
      continue;
    }
    buffer.take();
    delivered.push_back(seq);
    buffer.release(deliver);
  }
  EXPECT_EQ(buffer.held(), 0u);
  return delivered;
}

std::vector<std::uint32_t> iota(std::uint32_t n) {
  std::vector<std::uint32_t> v(n);
  std::iota(v.begin(), v.end(), 0u);
  return v;
}

TEST(ReorderBuffer, InOrderArrivalsPassStraightThrough) {
  EXPECT_EQ(deliver_all(iota(5)), iota(5));
}

TEST(ReorderBuffer, ReversedArrivalsAreHeldThenDeliveredInOrder) {
  ReorderBuffer<std::string> buffer;
  std::vector<std::string> delivered;
  const auto deliver = [&delivered](std::string& s) { delivered.push_back(s); };
  for (std::uint32_t seq : {3u, 2u, 1u}) {
    ASSERT_FALSE(buffer.in_turn(seq));
    buffer.hold(seq, "m" + std::to_string(seq));
  }
  EXPECT_EQ(buffer.held(), 3u);
  buffer.release(deliver);  // nothing is due yet
  EXPECT_TRUE(delivered.empty());
  ASSERT_TRUE(buffer.in_turn(0));
  buffer.take();
  delivered.push_back("m0");
  buffer.release(deliver);
  EXPECT_EQ(delivered, (std::vector<std::string>{"m0", "m1", "m2", "m3"}));
  EXPECT_EQ(buffer.held(), 0u);
  EXPECT_TRUE(buffer.in_turn(4));
}

TEST(ReorderBuffer, AGapHoldsBackOnlyWhatComesAfterIt) {
  ReorderBuffer<std::uint32_t> buffer;
  std::vector<std::uint32_t> delivered;
  const auto deliver = [&delivered](std::uint32_t& v) { delivered.push_back(v); };
  for (std::uint32_t seq : {0u, 1u, 3u, 4u}) {
    if (buffer.in_turn(seq)) {
      buffer.take();
      delivered.push_back(seq);
      buffer.release(deliver);
    } else {
      buffer.hold(seq, seq);
    }
  }
  EXPECT_EQ(delivered, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(buffer.held(), 2u);
  ASSERT_TRUE(buffer.in_turn(2));
  buffer.take();
  delivered.push_back(2);
  buffer.release(deliver);
  EXPECT_EQ(delivered, iota(5));
}

// deliver() may hand in the next arrival itself (as UCX callbacks can).
TEST(ReorderBuffer, DeliverMayHoldMore) {
  ReorderBuffer<std::uint32_t> buffer;
  std::vector<std::uint32_t> delivered;
  buffer.hold(1, 1);
  buffer.take();  // seq 0
  delivered.push_back(0);
  buffer.release([&](std::uint32_t& v) {
    delivered.push_back(v);
    if (v == 1) buffer.hold(2, 2);
  });
  EXPECT_EQ(delivered, iota(3));
}

TEST(ReorderBuffer, ForEachHeldVisitsWhatIsLeft) {
  ReorderBuffer<std::uint32_t> buffer;
  buffer.hold(5, 50);
  buffer.hold(2, 20);
  std::vector<std::uint32_t> seen;
  buffer.for_each_held([&seen](std::uint32_t& v) { seen.push_back(v); });
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{20, 50}));
}

TEST(ReorderBuffer, RandomShufflesAlwaysComeOutInOrder) {
  const std::uint32_t seed = std::random_device{}();
  std::printf("reorder_buffer: seed %u\n", seed);
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 random(seed);
  for (int round = 0; round < 200; ++round) {
    std::vector<std::uint32_t> order = iota(1 + random() % 64);
    // Local disorder, like a network's: swap neighbours within a window.
    for (std::size_t i = 0; i + 1 < order.size(); ++i)
      if (random() % 3 == 0) std::swap(order[i], order[std::min(order.size() - 1, i + 1 + random() % 4)]);
    EXPECT_EQ(deliver_all(order), iota(static_cast<std::uint32_t>(order.size())));
  }
}

}  // namespace
