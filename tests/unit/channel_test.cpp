// Unit tests of a channel (ring + fast box): records come out in the order
// they were committed whichever way each went, the box takes only small
// records and only while the writer holds the line (it passes back on an
// idle poll or with a reply), a record sent while one is being delivered
// does not overwrite it. Plus two threads streaming mixed sizes, one way and
// both ways at once.
#include "btl/channel.hpp"

#include <gtest/gtest.h>

#include <atomic>
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
        sender_end{box, 0},
        receiver_end{box, 1},
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

// A record made by push(): its value, size, and whether the rest is intact.
Got read_record(std::span<const std::byte> body) {
  std::uint32_t v;
  std::memcpy(&v, body.data(), sizeof v);
  bool intact = true;
  for (std::size_t i = sizeof v; i < body.size(); ++i) intact = intact && body[i] == static_cast<std::byte>(v + i);
  return {v, body.size(), intact};
}

std::vector<Got> drain(ChannelReader& r) {
  std::vector<Got> out;
  while (r.drain([&](std::span<const std::byte> body) { out.push_back(read_record(body)); }, 16) != 0) {
  }
  return out;
}

// The box's state word: who wrote last, and whether that record is pending.
std::uint32_t state_of(const FastBox& box) { return box_detail::load(box.state); }
bool pending_from(const FastBox& box, std::uint32_t writer) {
  const std::uint32_t state = state_of(box);
  return (state & box_detail::kPending) != 0 && box_detail::writer_of(state) == writer;
}
bool held_by(const FastBox& box, std::uint32_t writer) {
  const std::uint32_t state = state_of(box);
  return (state & box_detail::kPending) == 0 && box_detail::writer_of(state) == writer;
}

TEST(Channel, SmallRecordTakesTheBoxWhenFreeAndSkipsItAWhileWhenBusy) {
  TestChannel c(4096);
  EXPECT_TRUE(held_by(*c.box, 0));  // a fresh line belongs to the lower rank
  ASSERT_TRUE(push(c.writer, 1, 8));
  EXPECT_TRUE(pending_from(*c.box, 0));
  const std::uint32_t before = state_of(*c.box);
  ASSERT_TRUE(push(c.writer, 2, 8));  // box not consumed yet: the ring
  EXPECT_EQ(state_of(*c.box), before);
  const std::vector<Got> got = drain(c.reader);  // ends with an idle poll
  ASSERT_EQ(got.size(), 2U);
  EXPECT_EQ(got[0].value, 1U);
  EXPECT_EQ(got[1].value, 2U);
  EXPECT_TRUE(held_by(*c.box, 0));  // the idle poll handed the line back
  // Having found the box busy, the writer sends the next records through
  // the ring without looking at the line, then tries the box again.
  for (std::uint32_t i = 0; i < BoxWriter::kSkipWhenBusy; ++i) {
    ASSERT_TRUE(push(c.writer, 100 + i, 8));
    EXPECT_TRUE(held_by(*c.box, 0));
  }
  const std::vector<Got> skipped = drain(c.reader);
  ASSERT_EQ(skipped.size(), BoxWriter::kSkipWhenBusy);
  for (std::uint32_t i = 0; i < BoxWriter::kSkipWhenBusy; ++i) EXPECT_EQ(skipped[i].value, 100 + i);
  ASSERT_TRUE(push(c.writer, 3, kBoxBody));  // and a whole body fits
  EXPECT_TRUE(pending_from(*c.box, 0));
  EXPECT_EQ(state_of(*c.box) & box_detail::kLengthMask, kBoxBody);
  ASSERT_TRUE(push(c.writer, 4, kBoxBody + 1));
  const std::vector<Got> rest = drain(c.reader);
  ASSERT_EQ(rest.size(), 2U);
  EXPECT_TRUE(rest[0].value == 3U && rest[0].bytes == kBoxBody && rest[0].intact);
  EXPECT_TRUE(rest[1].value == 4U && rest[1].bytes == kBoxBody + 1 && rest[1].intact);
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

// deliver_ring_if(): offers the ring's next record, consumed only if
// accepted, and never one a box record was committed before.
TEST(Channel, RingRecordIsTakenOnlyWhenAcceptedAndInItsTurn) {
  TestChannel c(4096);
  std::vector<Got> taken;
  bool take = false;
  auto accept = [&](std::span<const std::byte> body) {
    if (take) taken.push_back(read_record(body));
    return take;
  };
  EXPECT_FALSE(c.reader.deliver_ring_if(accept));  // nothing there
  ASSERT_TRUE(push(c.writer, 7, 100));             // ring
  EXPECT_FALSE(c.reader.deliver_ring_if(accept));  // refused: stays
  take = true;
  ASSERT_TRUE(c.reader.deliver_ring_if(accept));
  ASSERT_EQ(taken.size(), 1U);
  EXPECT_TRUE(taken[0].value == 7U && taken[0].bytes == 100U && taken[0].intact);
  EXPECT_TRUE(drain(c.reader).empty());
  // A box record, then a ring record: the ring one is not next.
  ASSERT_TRUE(push(c.writer, 8, 4));    // box
  ASSERT_TRUE(push(c.writer, 9, 100));  // ring
  EXPECT_FALSE(c.reader.deliver_ring_if(accept));
  EXPECT_EQ(taken.size(), 1U);
  const std::vector<Got> rest = drain(c.reader);
  ASSERT_EQ(rest.size(), 2U);
  EXPECT_EQ(rest[0].value, 8U);
  EXPECT_EQ(rest[1].value, 9U);
  // A ring record taken directly counts for the box records after it.
  ASSERT_TRUE(push(c.writer, 10, 100));  // ring
  ASSERT_TRUE(push(c.writer, 11, 4));    // box, after ring record 10
  ASSERT_TRUE(c.reader.deliver_ring_if(accept));
  const std::vector<Got> box = drain(c.reader);
  ASSERT_EQ(box.size(), 1U);
  EXPECT_EQ(box[0].value, 11U);
}

// Records taken one by one through deliver_ring_if() across many laps,
// wraps included, come out whole and in order.
TEST(Channel, RingRecordsTakenOneByOneSurviveWraps) {
  TestChannel c(1024);
  std::uint32_t expect = 0;
  auto accept = [&](std::span<const std::byte> body) {
    const Got g = read_record(body);
    EXPECT_TRUE(g.intact);
    EXPECT_EQ(g.value, expect);
    ++expect;
    return true;
  };
  for (std::uint32_t i = 0; i < 2000; ++i) {
    ASSERT_TRUE(push(c.writer, i, kBoxBody + 1 + (i * 37) % 190));  // never box-sized
    ASSERT_TRUE(c.reader.deliver_ring_if(accept)) << i;
  }
  EXPECT_EQ(expect, 2000U);
}

TEST(Channel, EachIdlePollHandsTheLineBackForTheNextRecord) {
  TestChannel c(4096);
  std::uint32_t seen = 0;
  const std::uint32_t total = 100000;
  for (std::uint32_t i = 0; i < total; ++i) {
    ASSERT_TRUE(push(c.writer, i, 4 + i % (kBoxBody - 3)));
    if (c.reader.drain([&](std::span<const std::byte> body) {
          const Got g = read_record(body);
          seen += g.value == i && g.bytes == 4 + i % (kBoxBody - 3);
        }, 16) != 1)
      FAIL() << "message " << i;
    ASSERT_EQ(c.reader.drain([](std::span<const std::byte>) {}, 16), 0U);  // idle: releases
  }
  EXPECT_EQ(seen, total);
  EXPECT_EQ(c.control->tail.load(), 0U);  // none of them needed the ring
}

TEST(Channel, DeliveryAloneKeepsTheLineButAnIdlePollHandsItBack) {
  TestChannel c(4096);
  ASSERT_TRUE(push(c.writer, 1, 8));  // box
  std::size_t got = 0;
  ASSERT_EQ(c.reader.drain([&](std::span<const std::byte>) { ++got; }, 16), 1U);
  EXPECT_TRUE(pending_from(*c.box, 0));  // the reader holds the line: a reply may use it
  EXPECT_TRUE(c.receiver_end.holding);
  ASSERT_TRUE(push(c.writer, 2, 8));  // so this one takes the ring
  ASSERT_EQ(c.reader.drain([&](std::span<const std::byte>) { ++got; }, 16), 1U);
  ASSERT_EQ(c.reader.drain([&](std::span<const std::byte>) { ++got; }, 16), 0U);  // idle
  EXPECT_TRUE(held_by(*c.box, 0));
  EXPECT_FALSE(c.receiver_end.holding);
  EXPECT_EQ(got, 2U);
}

// Both directions of a pair: each rank's writer and reader share its end
// of the one box, so a reply can be written over the record it answers.
struct TestPair {
  TestPair()
      : segment(Segment::create(sizeof(FastBox) + 2 * (sizeof(RingControl) + 4096))),
        box(reinterpret_cast<FastBox*>(segment.data())),
        control_ab(reinterpret_cast<RingControl*>(segment.data() + sizeof(FastBox))),
        control_ba(reinterpret_cast<RingControl*>(segment.data() + sizeof(FastBox) + sizeof(RingControl) + 4096)),
        a{box, 0},
        b{box, 1},
        a_to_b(RingWriter(control_ab, cells_ab(), 4096), BoxWriter(&a)),
        b_from_a(RingReader(control_ab, cells_ab(), 4096), BoxReader(&b)),
        b_to_a(RingWriter(control_ba, cells_ba(), 4096), BoxWriter(&b)),
        a_from_b(RingReader(control_ba, cells_ba(), 4096), BoxReader(&a)) {}
  std::byte* cells_ab() { return segment.data() + sizeof(FastBox) + sizeof(RingControl); }
  std::byte* cells_ba() { return segment.data() + sizeof(FastBox) + 2 * sizeof(RingControl) + 4096; }
  Segment segment;
  FastBox* box;
  RingControl* control_ab;
  RingControl* control_ba;
  BoxEnd a, b;
  ChannelWriter a_to_b;
  ChannelReader b_from_a;
  ChannelWriter b_to_a;
  ChannelReader a_from_b;
};

TEST(Channel, AReplyIsWrittenOverTheRecordItAnswers) {
  TestPair p;
  std::size_t got = 0;
  const auto count = [&](std::span<const std::byte>) { ++got; };
  for (std::uint32_t i = 0; i < 1000; ++i) {
    ASSERT_TRUE(push(p.a_to_b, i, 8 + i % 40));
    ASSERT_EQ(p.b_from_a.drain(count, 16), 1U);
    ASSERT_TRUE(push(p.b_to_a, i, 8 + i % 48));
    ASSERT_TRUE(pending_from(*p.box, 1));
    ASSERT_EQ(p.a_from_b.drain(count, 16), 1U);
  }
  EXPECT_EQ(got, 2000U);
  // No poll was ever idle, yet every message went through the box.
  EXPECT_EQ(p.control_ab->tail.load(), 0U);
  EXPECT_EQ(p.control_ba->tail.load(), 0U);
}

TEST(Channel, ARecordSentWhileOneIsDeliveredTakesTheRing) {
  TestPair p;
  ASSERT_TRUE(push(p.a_to_b, 7, kBoxBody));  // box
  bool intact = false;
  ASSERT_EQ(p.b_from_a.drain([&](std::span<const std::byte> body) {
    // Answer from inside the handler (as the pml does with an Ack), then
    // look at the body again: it must not have been written over.
    ASSERT_TRUE(push(p.b_to_a, 8, 8));
    const Got g = read_record(body);
    intact = g.value == 7 && g.bytes == kBoxBody && g.intact;
  }, 16), 1U);
  EXPECT_TRUE(intact);
  EXPECT_TRUE(pending_from(*p.box, 0));  // the line still holds a's record
  const std::vector<Got> got = drain(p.a_from_b);
  ASSERT_EQ(got.size(), 1U);
  EXPECT_EQ(got[0].value, 8U);
  EXPECT_NE(p.control_ba->tail.load(), 0U);  // the answer came by the ring
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
  std::uint32_t boxed = 0;
  bool ordered = true;
  while (expect < kCount) {
    c.reader.drain([&](std::span<const std::byte> body) {
      ordered = ordered && read_record(body).value == expect;
      ++expect;
      boxed += body.data() == c.box->body;
    }, 16);
  }
  producer.join();
  EXPECT_TRUE(ordered) << "out of order at " << expect;
  EXPECT_EQ(expect, kCount);
  EXPECT_GT(boxed, 0U);  // some records took the box
}

// Both ranks stream to each other at once, each polling between its sends:
// the line changes hands under both, and each direction stays in order.
TEST(Channel, TwoThreadsStreamBothWaysInOrder) {
  TestPair p;
  constexpr std::uint32_t kCount = 200000;
  std::atomic<std::uint64_t> boxed{0};
  const auto side = [&](ChannelWriter& out, ChannelReader& in, std::uint32_t salt, bool& ordered) {
    std::uint32_t sent = 0;
    std::uint32_t expect = 0;
    ordered = true;
    while (sent < kCount || expect < kCount) {
      if (sent < kCount) {
        const std::size_t bytes = 4 + (sent * 7 + salt) % (sent % 5 == 0 ? 120 : kBoxBody - 3);
        if (push(out, sent, bytes)) ++sent;
      }
      in.drain([&](std::span<const std::byte> body) {
        const Got g = read_record(body);
        ordered = ordered && g.value == expect && g.intact;
        ++expect;
        if (body.data() == p.box->body) boxed.fetch_add(1, std::memory_order_relaxed);
      }, 16);
    }
  };
  bool a_ordered = false;
  bool b_ordered = false;
  std::thread b([&] { side(p.b_to_a, p.b_from_a, 3, b_ordered); });
  side(p.a_to_b, p.a_from_b, 1, a_ordered);
  b.join();
  EXPECT_TRUE(a_ordered);
  EXPECT_TRUE(b_ordered);
  EXPECT_GT(boxed.load(), 0U);
}

}  // namespace
}  // namespace shmpi::btl
