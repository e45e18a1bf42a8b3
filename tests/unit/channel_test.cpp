// Unit tests of a channel (ring + fast box): records come out in the order
// they were committed whichever way each went, the box takes only small
// records and only once the peer consumed the previous one, and its
// sequence survives wrapping. Plus two threads streaming mixed sizes.
#include "btl/channel.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

#include "btl/segment.hpp"

namespace shmpi::btl {
namespace {

// One direction of a pair: the ring and the box line in a fresh segment.
struct TestChannel {
  explicit TestChannel(std::size_t ring_size)
      : segment(Segment::create(sizeof(FastBox) + sizeof(RingControl) + ring_size)),
        box(reinterpret_cast<FastBox*>(segment.data())),
        control(reinterpret_cast<RingControl*>(segment.data() + sizeof(FastBox))),
        cells(segment.data() + sizeof(FastBox) + sizeof(RingControl)),
        sender_end{&box->half[0], &box->half[1]},
        receiver_end{&box->half[1], &box->half[0]},
        writer(RingWriter(control, cells, ring_size), BoxWriter(&sender_end)),
        reader(RingReader(control, cells, ring_size), BoxReader(&receiver_end)) {}
  Segment segment;
  FastBox* box;
  RingControl* control;
  std::byte* cells;
  BoxEnd sender_end;    // the writing rank's end of the box
  BoxEnd receiver_end;  // the reading rank's end
  ChannelWriter writer;
  ChannelReader reader;
};

// A record of `bytes` (at least 4) starting with `value`.
bool push(ChannelWriter& w, std::uint32_t value, std::size_t bytes) {
  std::byte body[256] = {};
  std::memcpy(body, &value, sizeof value);
  for (std::size_t i = sizeof value; i < bytes; ++i) body[i] = static_cast<std::byte>(value + i);
  return w.try_push({}, std::span<const std::byte>(body, bytes));
}

struct Got {
  std::uint32_t value;
  std::size_t bytes;
  bool intact;
};

std::vector<Got> drain(ChannelReader& r) {
  std::vector<Got> out;
  while (r.drain([&](std::span<const std::byte> body) {
    std::uint32_t v;
    std::memcpy(&v, body.data(), sizeof v);
    bool intact = true;
    for (std::size_t i = sizeof v; i < body.size(); ++i) intact = intact && body[i] == static_cast<std::byte>(v + i);
    out.push_back({v, body.size(), intact});
  }, 16) != 0) {
  }
  return out;
}

bool in_box(const TestChannel& c) { return c.box->half[0].word != 0; }

TEST(Channel, SmallRecordTakesTheBoxWhileItIsFree) {
  TestChannel c(4096);
  ASSERT_TRUE(push(c.writer, 1, 8));
  EXPECT_TRUE(in_box(c));
  const auto before = c.box->half[0].word;
  ASSERT_TRUE(push(c.writer, 2, 8));  // box not consumed yet: the ring
  EXPECT_EQ(c.box->half[0].word, before);
  const std::vector<Got> got = drain(c.reader);
  ASSERT_EQ(got.size(), 2U);
  EXPECT_EQ(got[0].value, 1U);
  EXPECT_EQ(got[1].value, 2U);
  EXPECT_EQ(c.box->half[1].acked, before >> 8);  // the reader acknowledged the box
  ASSERT_TRUE(push(c.writer, 3, kBoxBody));       // free again, and 20 bytes fit
  EXPECT_NE(c.box->half[0].word, before);
  ASSERT_TRUE(push(c.writer, 4, kBoxBody + 1));
}

TEST(Channel, RecordsKeepCommitOrderAcrossBoxAndRing) {
  TestChannel c(4096);
  // Patterns of box-sized and larger records, drained at different points.
  const std::size_t sizes[] = {4, 4, 64, 4, 20, 21, 4, 100, 4, 4, 8, 200, 4};
  std::uint32_t next = 0;
  std::uint32_t expect = 0;
  for (int round = 0; round < 200; ++round) {
    const int burst = 1 + round % 5;
    for (int i = 0; i < burst; ++i) {
      const std::size_t bytes = sizes[(round * 7 + i) % std::size(sizes)];
      ASSERT_TRUE(push(c.writer, next++, bytes));
    }
    for (const Got& g : drain(c.reader)) {
      ASSERT_EQ(g.value, expect++) << "round " << round;
      ASSERT_TRUE(g.intact);
    }
  }
  EXPECT_EQ(expect, next);
}

TEST(Channel, BoxMessageWaitsForRingRecordsCommittedBeforeIt) {
  TestChannel c(4096);
  ASSERT_TRUE(push(c.writer, 0, 4));  // box
  ASSERT_TRUE(push(c.writer, 1, 4));  // ring (box busy)
  ASSERT_EQ(drain(c.reader).size(), 2U);
  ASSERT_TRUE(push(c.writer, 2, 64));  // ring
  ASSERT_TRUE(push(c.writer, 3, 4));   // box, after ring record 2
  // The reader sees the box first, yet must hand on record 2 before it.
  const std::vector<Got> got = drain(c.reader);
  ASSERT_EQ(got.size(), 2U);
  EXPECT_EQ(got[0].value, 2U);
  EXPECT_EQ(got[1].value, 3U);
}

TEST(Channel, BoxSequenceWrapsWithoutLosingAMessage) {
  TestChannel c(4096);
  // 2^24 box messages take the sequence round once; each must be seen.
  std::uint32_t seen = 0;
  const std::uint32_t total = (1u << 24) + 5;
  for (std::uint32_t i = 0; i < total; ++i) {
    std::byte* out = c.writer.try_reserve(0);
    ASSERT_NE(out, nullptr);
    c.writer.commit();
    if (c.reader.drain([&](std::span<const std::byte>) { ++seen; }, 16) != 1) FAIL() << "message " << i;
    ASSERT_EQ(c.reader.drain([&](std::span<const std::byte>) { ++seen; }, 16), 0U);  // idle: acknowledges
  }
  EXPECT_EQ(seen, total);
  EXPECT_EQ(c.control->tail.load(), 0U);  // none of them needed the ring
}

TEST(Channel, DeliveryAloneDoesNotAcknowledgeButAnIdlePollDoes) {
  TestChannel c(4096);
  ASSERT_TRUE(push(c.writer, 1, 8));  // box
  std::size_t got = 0;
  ASSERT_EQ(c.reader.drain([&](std::span<const std::byte>) { ++got; }, 16), 1U);
  EXPECT_EQ(c.box->half[1].acked, 0U);  // not yet: a reply would carry it
  ASSERT_TRUE(push(c.writer, 2, 8));    // so this one takes the ring
  ASSERT_EQ(c.reader.drain([&](std::span<const std::byte>) { ++got; }, 16), 1U);
  ASSERT_EQ(c.reader.drain([&](std::span<const std::byte>) { ++got; }, 16), 0U);  // idle
  EXPECT_EQ(c.box->half[1].acked, c.box->half[0].word >> 8);
  EXPECT_EQ(got, 2U);
}

// Both directions of a pair: each rank's writer and reader share its end,
// so a reply in the box carries the acknowledgement of the request.
TEST(Channel, ReplyInTheBoxCarriesTheAcknowledgement) {
  Segment segment = Segment::create(sizeof(FastBox) + 2 * (sizeof(RingControl) + 4096));
  auto* box = reinterpret_cast<FastBox*>(segment.data());
  std::byte* rings = segment.data() + sizeof(FastBox);
  auto* control_ab = reinterpret_cast<RingControl*>(rings);
  auto* control_ba = reinterpret_cast<RingControl*>(rings + sizeof(RingControl) + 4096);
  BoxEnd a{&box->half[0], &box->half[1]};
  BoxEnd b{&box->half[1], &box->half[0]};
  ChannelWriter a_to_b(RingWriter(control_ab, rings + sizeof(RingControl), 4096), BoxWriter(&a));
  ChannelReader b_from_a(RingReader(control_ab, rings + sizeof(RingControl), 4096), BoxReader(&b));
  ChannelWriter b_to_a(RingWriter(control_ba, rings + 2 * sizeof(RingControl) + 4096, 4096), BoxWriter(&b));
  ChannelReader a_from_b(RingReader(control_ba, rings + 2 * sizeof(RingControl) + 4096, 4096), BoxReader(&a));
  std::size_t got = 0;
  const auto count = [&](std::span<const std::byte>) { ++got; };
  for (std::uint32_t i = 0; i < 1000; ++i) {
    ASSERT_TRUE(push(a_to_b, i, 8));
    ASSERT_EQ(b_from_a.drain(count, 16), 1U);
    ASSERT_TRUE(push(b_to_a, i, 8));
    ASSERT_EQ(a_from_b.drain(count, 16), 1U);
  }
  EXPECT_EQ(got, 2000U);
  // No poll was ever idle, yet every message went through the box.
  EXPECT_EQ(control_ab->tail.load(), 0U);
  EXPECT_EQ(control_ba->tail.load(), 0U);
}

TEST(Channel, TwoThreadsStreamMixedSizesInOrder) {
  TestChannel c(4096);
  constexpr std::uint32_t kCount = 200000;
  std::thread producer([&] {
    for (std::uint32_t i = 0; i < kCount; ++i) {
      const std::size_t bytes = (i % 3 == 0) ? 4 + i % 17 : 4 + i % 97;
      while (!push(c.writer, i, bytes)) std::this_thread::yield();
    }
  });
  std::uint32_t expect = 0;
  bool ordered = true;
  while (expect < kCount) {
    c.reader.drain([&](std::span<const std::byte> body) {
      std::uint32_t v;
      std::memcpy(&v, body.data(), sizeof v);
      ordered = ordered && v == expect;
      ++expect;
    }, 16);
  }
  producer.join();
  EXPECT_TRUE(ordered) << "out of order at " << expect;
  EXPECT_EQ(expect, kCount);
  EXPECT_NE(c.box->half[0].word, 0U);  // some records took the box
}

}  // namespace
}  // namespace shmpi::btl
