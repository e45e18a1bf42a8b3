// Unit tests of the Transport: segment placement follows the NUMA policy
// (checked with get_mempolicy / move_pages), and rings connect both ways.
#include "btl/transport.hpp"

#include <gtest/gtest.h>
#include <numaif.h>

#include <poll.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace shmpi::btl {
namespace {

std::byte* segment_of(const Transport& t) { return reinterpret_cast<std::byte*>(t.address().base); }

TEST(Transport, LocalPolicyPlacesTheSegmentOnThisNode) {
  Transport t(0, 2, Limits{4096, NumaPolicy::Local});
  const PagePlacement p = query_placement(segment_of(t), t.segment_bytes());
  EXPECT_EQ(p.mode, MPOL_PREFERRED);
  // The header page was touched by the constructor: it sits on our node.
  ASSERT_FALSE(p.page_nodes.empty());
  EXPECT_EQ(p.page_nodes[0], current_numa_node());
}

TEST(Transport, InterleavePolicy) {
  Transport t(0, 2, Limits{4096, NumaPolicy::Interleave});
  EXPECT_EQ(query_placement(segment_of(t), t.segment_bytes()).mode, MPOL_INTERLEAVE);
}

TEST(Transport, NoPolicyLeavesTheKernelDefault) {
  Transport t(0, 2, Limits{4096, NumaPolicy::None});
  EXPECT_EQ(query_placement(segment_of(t), t.segment_bytes()).mode, MPOL_DEFAULT);
}

TEST(Transport, RecordsFlowBothWaysAndFromSelf) {
  Transport a(0, 2, Limits{4096}), b(1, 2, Limits{4096});
  a.connect(1, b.address());
  b.connect(0, a.address());
  const char hello[] = "hello";
  ASSERT_TRUE(a.writer(1).try_push({}, std::as_bytes(std::span(hello))));
  a.notify(1);
  ASSERT_TRUE(a.writer(0).try_push({}, std::as_bytes(std::span(hello))));
  a.notify(0);
  int from_a = 0, to_self = 0;
  b.poll([&](std::uint32_t source, std::span<const std::byte> body) {
    from_a += source == 0 && std::memcmp(body.data(), hello, sizeof hello) == 0;
  });
  a.poll([&](std::uint32_t source, std::span<const std::byte>) { to_self += source == 0; });
  EXPECT_EQ(from_a, 1);
  EXPECT_EQ(to_self, 1);
  EXPECT_EQ(a.peer_pid(1), b.peer_pid(1));
}

// Both waits below are far longer than ctest's timeout: a doorbell that did
// not ring would hang the test until ctest stops it, so no clock is read.
TEST(Transport, SleeperWakesWhenAPeerSends) {
  Transport a(0, 2, Limits{4096}), b(1, 2, Limits{4096});
  a.connect(1, b.address());
  b.connect(0, a.address());
  std::thread sender([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // usually after b sleeps; either order works
    const char msg[] = "wake";
    ASSERT_TRUE(a.writer(1).try_push({}, std::as_bytes(std::span(msg))));
    a.notify(1);
  });
  constexpr long kHour = 3'600'000'000'000L;
  std::size_t delivered = 0;
  while (delivered == 0) {
    b.wait_for_records(kHour);
    delivered = b.poll([](std::uint32_t, std::span<const std::byte>) {});
  }
  sender.join();
  EXPECT_EQ(delivered, 1U);
}

// A rank that also sleeps on other fds (peers on other nodes) sleeps in
// ppoll() on its eventfd: a peer's record writes it instead of the futex.
// ppoll() without a timeout: a sender that did not write hangs the test.
TEST(Transport, SleeperOnFdWakesWhenAPeerSends) {
  Transport a(0, 2, Limits{4096}), b(1, 2, Limits{4096});
  a.connect(1, b.address());
  b.connect(0, a.address());
  const int fd = b.sleep_on_fd();
  std::thread sender([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // usually after b sleeps; either order works
    const char msg[] = "wake";
    ASSERT_TRUE(a.writer(1).try_push({}, std::as_bytes(std::span(msg))));
    a.notify(1);
  });
  std::size_t delivered = 0;
  while (delivered == 0) {
    if (b.ready_to_sleep()) {
      pollfd wake{fd, POLLIN, 0};
      ASSERT_EQ(::ppoll(&wake, 1, nullptr, nullptr), 1);
      b.woke_from_fd();
    }
    delivered = b.poll([](std::uint32_t, std::span<const std::byte>) {});
  }
  sender.join();
  EXPECT_EQ(delivered, 1U);
}

TEST(Transport, SleepEndsAtTheTimeoutWithoutRecords) {
  Transport t(0, 1, Limits{4096});
  t.wait_for_records(20'000'000);  // returns: without a timeout it would sleep until ctest's limit
  EXPECT_EQ(t.poll([](std::uint32_t, std::span<const std::byte>) {}), 0U);
}

// Pages of `bytes` at `data` that are in memory (mincore on the memfd mapping).
std::size_t resident_pages(const std::byte* data, std::size_t bytes) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in_core((bytes + page - 1) / page);
  EXPECT_EQ(::mincore(const_cast<std::byte*>(data), bytes, in_core.data()), 0);
  std::size_t n = 0;
  for (unsigned char c : in_core) n += c & 1u;
  return n;
}

// A job too large to warm its segments: only the rings of pairs that talk
// get memory, and polling does not touch the others.
TEST(Transport, OnlyRingsOfPairsThatTalkAreTouched) {
  constexpr std::uint32_t kRanks = 32;
  constexpr std::size_t kRing = 64 * 1024;
  Transport a(0, kRanks, Limits{kRing}), b(1, kRanks, Limits{kRing});
  a.connect(1, b.address());
  b.connect(0, a.address());
  const SegmentLayout layout{kRanks, kRing};
  const std::byte* seg_b = segment_of(b);
  for (std::uint32_t sender = 0; sender < kRanks; ++sender)
    ASSERT_EQ(resident_pages(seg_b + layout.cells_offset(sender), kRing), 0u) << "sender " << sender;
  const std::string message(200, 'x');
  ASSERT_TRUE(a.writer(1).try_push({}, std::as_bytes(std::span(message))));
  a.notify(1);
  std::size_t got = 0;
  for (int i = 0; i < 3; ++i) got += b.poll([](std::uint32_t, std::span<const std::byte>) {});
  EXPECT_EQ(got, 1u);
  EXPECT_EQ(b.senders().size(), 1u);
  EXPECT_EQ(resident_pages(seg_b + layout.cells_offset(0), kRing), 1u);  // the page the record reached
  for (std::uint32_t sender = 1; sender < kRanks; ++sender)
    EXPECT_EQ(resident_pages(seg_b + layout.cells_offset(sender), kRing), 0u) << "sender " << sender;
}

TEST(Transport, ConnectRefusesASegmentOfAnotherJobShape) {
  Transport a(0, 2, Limits{4096}), b(1, 3, Limits{4096});
  EXPECT_THROW(a.connect(1, b.address()), std::runtime_error);
}

}  // namespace
}  // namespace shmpi::btl
