// Unit tests of the SPSC ring: order, wrap-around, full ring, and a real
// producer and consumer thread over shared memory.
#include "btl/ring.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#include "btl/segment.hpp"

namespace shmpi::btl {
namespace {

// A ring in a fresh shared segment, with its two views.
struct TestRing {
  explicit TestRing(std::size_t size, ClaimAhead claim = {})
      : segment(Segment::create(sizeof(RingControl) + size)),
        control(reinterpret_cast<RingControl*>(segment.data())),
        writer(control, segment.data() + sizeof(RingControl), size, claim),
        reader(control, segment.data() + sizeof(RingControl), size) {}
  Segment segment;
  RingControl* control;
  RingWriter writer;
  RingReader reader;
};

std::vector<std::byte> pattern(std::size_t n, std::uint32_t seed) {
  std::vector<std::byte> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::byte>((seed * 131 + i * 7) & 0xff);
  return v;
}

bool push_value(RingWriter& w, std::uint64_t value, std::size_t extra = 0) {
  std::byte body[sizeof(value) + 1024];
  std::memset(body, 0x5a, sizeof body);
  std::memcpy(body, &value, sizeof(value));
  return w.try_push({}, std::span<const std::byte>(body, sizeof(value) + extra));
}

std::vector<std::uint64_t> drain_values(RingReader& r, std::size_t max = 1000000) {
  std::vector<std::uint64_t> out;
  r.drain([&](std::span<const std::byte> body) {
    std::uint64_t v;
    std::memcpy(&v, body.data(), sizeof(v));
    out.push_back(v);
  }, max);
  return out;
}

TEST(Ring, EmptyRingHasNothing) {
  TestRing ring(4096);
  EXPECT_FALSE(ring.reader.ready());
  EXPECT_TRUE(drain_values(ring.reader).empty());
}

TEST(Ring, RecordsArriveInOrderWithTheirBytes) {
  TestRing ring(4096);
  auto head = pattern(24, 1);
  auto body = pattern(100, 2);
  ASSERT_TRUE(ring.writer.try_push(head, body));
  ASSERT_TRUE(ring.writer.try_push({}, {}));
  std::vector<std::vector<std::byte>> got;
  EXPECT_EQ(ring.reader.drain([&](std::span<const std::byte> b) { got.emplace_back(b.begin(), b.end()); }, 10), 2u);
  ASSERT_EQ(got.size(), 2u);
  // Built by copies, not vector::insert: GCC 12 sees a false -Warray-bounds
  // in the inlined insert whenever RingWriter::commit() changes size.
  std::vector<std::byte> expected(head.size() + body.size());
  std::copy(head.begin(), head.end(), expected.begin());
  std::copy(body.begin(), body.end(), expected.begin() + static_cast<std::ptrdiff_t>(head.size()));
  EXPECT_EQ(got[0], expected);
  EXPECT_TRUE(got[1].empty());
}

TEST(Ring, FullRingRefusesUntilDrained) {
  TestRing ring(4096);
  std::uint64_t pushed = 0;
  while (push_value(ring.writer, pushed)) ++pushed;
  // An 8-byte value plus the ring header fits one 16-byte slot; one
  // terminator slot is kept free.
  EXPECT_EQ(pushed, 4096 / kSlot - 1);
  EXPECT_FALSE(push_value(ring.writer, pushed));
  auto first = drain_values(ring.reader, 3);
  EXPECT_EQ(first, (std::vector<std::uint64_t>{0, 1, 2}));
  EXPECT_TRUE(push_value(ring.writer, pushed));
}

TEST(Ring, WrapsAroundManyLapsWithVariableSizes) {
  TestRing ring(4096);
  std::uint64_t next_push = 0, next_pop = 0;
  for (int round = 0; round < 2000; ++round) {
    const std::size_t extra = (round * 37) % 900;  // records of 64..1024 bytes
    while (push_value(ring.writer, next_push, extra)) ++next_push;
    for (std::uint64_t v : drain_values(ring.reader, 1 + round % 5)) EXPECT_EQ(v, next_pop++);
  }
  for (std::uint64_t v : drain_values(ring.reader)) EXPECT_EQ(v, next_pop++);
  EXPECT_EQ(next_pop, next_push);
  EXPECT_GT(next_push, 4000u);  // many laps of a 4 KiB ring
}

TEST(Ring, StaleBytesThatLookLikeStampsAreNeverRead) {
  // Payload bytes of an earlier lap full of small integers (which look like
  // valid stamps) must not be mistaken for records when boundaries move.
  TestRing ring(4096);
  std::vector<std::byte> ones(1000);
  for (std::size_t i = 0; i < ones.size(); i += 4) {
    std::uint32_t v = static_cast<std::uint32_t>(i / 4 + 1);
    std::memcpy(ones.data() + i, &v, 4);
  }
  std::size_t received = 0;
  for (int round = 0; round < 500; ++round) {
    ASSERT_TRUE(ring.writer.try_push({}, std::span(ones).first(100 + (round * 97) % 900)));
    received += ring.reader.drain([](std::span<const std::byte>) {}, 100);
    EXPECT_FALSE(ring.reader.ready());
  }
  EXPECT_EQ(received, 500u);
}

TEST(Ring, ProducerAndConsumerThreadsMoveMillionsInOrder) {
  TestRing ring(64 * 1024);
  constexpr std::uint64_t kItems = 3'000'000;
  std::thread producer([&] {
    for (std::uint64_t i = 0; i < kItems;) {
      if (push_value(ring.writer, i, i % 3 == 0 ? 40 : 0)) ++i;
    }
  });
  std::uint64_t expected = 0;
  bool in_order = true;
  while (expected < kItems) {
    ring.reader.drain([&](std::span<const std::byte> body) {
      std::uint64_t v;
      std::memcpy(&v, body.data(), sizeof(v));
      in_order = in_order && v == expected && body.size() == (v % 3 == 0 ? 48u : 8u);
      ++expected;
    }, 64);
  }
  producer.join();
  EXPECT_TRUE(in_order);
  EXPECT_EQ(expected, kItems);
}

// The header word keeps 24 bits of length beside the 8-bit stamp: bodies
// past 16 bits must come out whole, and the stamp's wrap from 255 back to 1
// (many records) must not lose one.
TEST(Ring, HeaderWordCarriesLongLengthsAndStampsWrap) {
  TestRing ring(1 << 20);
  ASSERT_GE(ring.writer.max_body(), std::size_t{200000});
  for (std::size_t n : {std::size_t{65535}, std::size_t{65536}, std::size_t{200000}}) {
    auto body = pattern(n, static_cast<unsigned>(n));
    ASSERT_TRUE(ring.writer.try_push({}, body));
    std::vector<std::byte> got;
    EXPECT_EQ(ring.reader.drain([&](std::span<const std::byte> b) { got.assign(b.begin(), b.end()); }, 1), 1u);
    EXPECT_EQ(got, body) << n;
  }
  std::uint64_t next_push = 0, next_pop = 0;
  for (int i = 0; i < 1000; ++i) {  // ~4 stamp laps, one record at a time
    ASSERT_TRUE(push_value(ring.writer, next_push++));
    for (std::uint64_t v : drain_values(ring.reader)) EXPECT_EQ(v, next_pop++);
  }
  EXPECT_EQ(next_pop, 1000u);
}

TEST(Ring, MaxBodyFitsAndLargerRecordsWrapCleanly) {
  TestRing ring(4096);
  const std::size_t max = ring.writer.max_body();
  EXPECT_EQ(max, 1024 - kRecordHeaderBytes);
  auto body = pattern(max, 9);
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(ring.writer.try_push({}, body));
    std::vector<std::byte> got;
    ring.reader.drain([&](std::span<const std::byte> b) { got.assign(b.begin(), b.end()); }, 1);
    ASSERT_EQ(got, body);
  }
}

// Bodies around the claim-ahead window (`claim`), through
// laps of a ring whose consumer lags by 0-3 records, so claim_ahead() both
// runs and declines (too little room past the unread records). It only
// hints; every body must still arrive whole and in order.
void records_around_the_claim_ahead_sizes_arrive_intact(std::size_t ring_size, ClaimAhead claim) {
  TestRing ring(ring_size, claim);
  ASSERT_LE(claim.until, ring.writer.max_body());
  const std::size_t sizes[] = {claim.from - 1, claim.from, 1500, claim.until - 1, claim.until};
  std::uint32_t pushed = 0, popped = 0;
  std::size_t bytes = 0;
  for (int round = 0; round < 400; ++round) {
    const std::size_t lag = round % 4;
    while (pushed - popped <= lag) {
      auto body = pattern(sizes[pushed % 5], pushed);
      if (!ring.writer.try_push({}, body)) break;
      bytes += record_bytes(body.size());
      ++pushed;
    }
    ring.reader.drain([&](std::span<const std::byte> got) {
      auto want = pattern(sizes[popped % 5], popped);
      ASSERT_TRUE(std::equal(got.begin(), got.end(), want.begin(), want.end())) << "record " << popped;
      ++popped;
    }, 1);
  }
  ring.reader.drain([&](std::span<const std::byte> got) {
    EXPECT_EQ(got.size(), sizes[popped % 5]);
    ++popped;
  }, 100);
  EXPECT_EQ(popped, pushed);
  EXPECT_GT(bytes, 3 * ring_size);  // more than three laps
}

TEST(Ring, RecordsAroundTheClaimAheadSizesArriveIntactOverManyLaps) {
  records_around_the_claim_ahead_sizes_arrive_intact(16384, ClaimAhead{});
}

TEST(Ring, RecordsAroundAWiderClaimAheadWindowArriveIntactOverManyLaps) {
  records_around_the_claim_ahead_sizes_arrive_intact(32768, ClaimAhead{256, 4096 + kCacheLine});  // a window as wide as the intel profile's
}

TEST(Ring, CopyToRingIsByteExactOnBothSidesOfItsThreshold) {
  std::vector<std::byte> src(9000), dst(9100);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::byte>(i * 7 + 3);
  for (std::size_t n : {0UL, 1UL, 31UL, 2047UL, 2048UL, 2049UL, 4096UL, 8999UL}) {
    for (std::size_t offset : {0UL, 1UL, 13UL}) {
      std::fill(dst.begin(), dst.end(), std::byte{0xAB});
      copy_to_ring(dst.data() + offset, src.data() + 1, n);
      for (std::size_t i = 0; i < offset; ++i) ASSERT_EQ(dst[i], std::byte{0xAB}) << n;
      ASSERT_TRUE(std::equal(src.begin() + 1, src.begin() + 1 + static_cast<std::ptrdiff_t>(n), dst.begin() + static_cast<std::ptrdiff_t>(offset))) << n;
      ASSERT_EQ(dst[offset + n], std::byte{0xAB}) << n;  // nothing past the end
    }
  }
}

}  // namespace
}  // namespace shmpi::btl
