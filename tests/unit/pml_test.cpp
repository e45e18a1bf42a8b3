// Unit tests of the pml: two ranks in one process, each with its own
// Transport and Pml, progressed in turn, deterministically.
#include "pml/pml.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

namespace shmpi::pml {
namespace {

constexpr std::uint32_t kCtx = 0;

struct TwoRanks {
  explicit TwoRanks(ProtocolLimits limits = {}, std::size_t ring = 64 * 1024)
      : t0(0, 2, btl::Limits{ring}), t1(1, 2, btl::Limits{ring}) {
    t0.connect(1, t1.address());
    t1.connect(0, t0.address());
    p0 = std::make_unique<Pml>(t0, limits, WaitPolicy{});
    p1 = std::make_unique<Pml>(t1, limits, WaitPolicy{});
  }
  // Progresses both until every request in `requests` completes.
  void run(std::initializer_list<Request*> requests) {
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
  std::unique_ptr<Pml> p0, p1;
};

std::vector<std::byte> pattern(std::size_t n, unsigned seed) {
  std::vector<std::byte> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::byte>((seed + i * 13 + (i >> 8)) & 0xff);
  return v;
}

TEST(Pml, EagerMessageMatchesPostedReceive) {
  TwoRanks job;
  auto data = pattern(100, 1);
  std::vector<std::byte> got(100);
  Request recv, send;
  job.p1->start_recv(recv, Envelope{kCtx, 0, 5}, got.data(), got.size());
  job.p0->start_send(send, 1, Envelope{kCtx, 0, 5}, data.data(), data.size());
  EXPECT_TRUE(send.complete);  // eager: buffered in the ring at once
  job.run({&recv});
  EXPECT_EQ(got, data);
  EXPECT_EQ(recv.status.source, 0);
  EXPECT_EQ(recv.status.tag, 5);
  EXPECT_EQ(recv.status.bytes, 100u);
  EXPECT_EQ(recv.status.result, Completion::Ok);
}

TEST(Pml, UnexpectedMessageIsClaimedByALaterReceive) {
  TwoRanks job;
  auto data = pattern(3000, 2);
  Request send;
  job.p0->start_send(send, 1, Envelope{kCtx, 0, 9}, data.data(), data.size());
  job.p1->progress();
  EXPECT_EQ(job.p1->unexpected_count(), 1u);
  std::vector<std::byte> got(3000);
  Request recv;
  job.p1->start_recv(recv, Envelope{kCtx, kAnySource, kAnyTag}, got.data(), got.size());
  EXPECT_TRUE(recv.complete);
  EXPECT_EQ(got, data);
  EXPECT_EQ(recv.status.tag, 9);
  EXPECT_EQ(job.p1->unexpected_count(), 0u);
}

TEST(Pml, MessagesWithOneTagArriveInSendOrder) {
  TwoRanks job;
  constexpr int kCount = 2000;
  std::vector<Request> sends(kCount);
  std::vector<int> values(kCount);
  for (int i = 0; i < kCount; ++i) {
    values[i] = i;
    job.p0->start_send(sends[i], 1, Envelope{kCtx, 0, 3}, &values[i], sizeof(int));
    if (i % 100 == 0) job.p1->progress();  // some unexpected, some not
  }
  for (int i = 0; i < kCount; ++i) {
    int got = -1;
    Request recv;
    job.p1->start_recv(recv, Envelope{kCtx, 0, 3}, &got, sizeof(got));
    job.run({&recv, &sends[i]});
    ASSERT_EQ(got, i);
  }
}

TEST(Pml, TruncationDeliversThePrefixAndReportsBothSizes) {
  TwoRanks job;
  auto data = pattern(10488, 3);
  std::vector<std::byte> got(10484);
  Request recv, send;
  job.p1->start_recv(recv, Envelope{kCtx, 0, 7}, got.data(), got.size());
  job.p0->start_send(send, 1, Envelope{kCtx, 0, 7}, data.data(), data.size());
  job.run({&recv, &send});
  EXPECT_EQ(recv.status.result, Completion::Truncated);
  EXPECT_EQ(recv.status.sent_bytes, 10488u);
  EXPECT_EQ(recv.status.bytes, 10484u);
  EXPECT_TRUE(std::equal(got.begin(), got.end(), data.begin()));
  // The pml keeps working afterwards.
  int v = 42, w = 0;
  Request s2, r2;
  job.p0->start_send(s2, 1, Envelope{kCtx, 0, 8}, &v, sizeof v);
  job.p1->start_recv(r2, Envelope{kCtx, 0, 8}, &w, sizeof w);
  job.run({&s2, &r2});
  EXPECT_EQ(w, 42);
}

class PmlSizes : public ::testing::TestWithParam<std::size_t> {};

TEST_P(PmlSizes, LargeMessagesCrossBothWaysAtOnce) {
  TwoRanks job(ProtocolLimits{4096, 16384}, 64 * 1024);
  const std::size_t n = GetParam();
  auto a = pattern(n, 4), b = pattern(n, 5);
  std::vector<std::byte> got_a(n), got_b(n);
  Request s0, s1, r0, r1;
  job.p0->start_send(s0, 1, Envelope{kCtx, 0, 1}, a.data(), n);
  job.p1->start_send(s1, 0, Envelope{kCtx, 1, 1}, b.data(), n);
  job.run({&s0, &s1});  // both stream into unexpected buffers
  job.p1->start_recv(r1, Envelope{kCtx, 0, 1}, got_a.data(), n);
  job.p0->start_recv(r0, Envelope{kCtx, 1, 1}, got_b.data(), n);
  job.run({&r0, &r1});
  EXPECT_EQ(got_a, a);
  EXPECT_EQ(got_b, b);
}

TEST_P(PmlSizes, ReceivePostedMidStreamTakesTheRest) {
  TwoRanks job;
  const std::size_t n = GetParam();
  auto data = pattern(n, 6);
  std::vector<std::byte> got(n);
  Request send, recv;
  job.p0->start_send(send, 1, Envelope{kCtx, 0, 2}, data.data(), n);
  job.p1->progress();  // first part arrives unexpected
  job.p1->start_recv(recv, Envelope{kCtx, 0, 2}, got.data(), n);
  job.run({&send, &recv});
  EXPECT_EQ(got, data);
}

INSTANTIATE_TEST_SUITE_P(Sizes, PmlSizes,
                         ::testing::Values(0, 1, 4095, 4096, 4097, 16383, 16384, 16385, 65536, 1 << 20,
                                           (1 << 20) + 1));

TEST(Pml, SendToSelfThroughItsOwnRing) {
  btl::Transport t(0, 1, btl::Limits{});
  Pml p(t, ProtocolLimits{}, WaitPolicy{});
  auto data = pattern(100000, 7);
  std::vector<std::byte> got(data.size());
  Request send, recv;
  p.start_recv(recv, Envelope{kCtx, 0, 0}, got.data(), got.size());
  p.start_send(send, 0, Envelope{kCtx, 0, 0}, data.data(), data.size());
  p.wait(send);
  p.wait(recv);
  EXPECT_EQ(got, data);
}

TEST(Pml, ContextsNeverMatchEachOther) {
  TwoRanks job;
  int a = 1, b = 2, got = 0;
  Request s1, s2, r;
  job.p0->start_send(s1, 1, Envelope{kCtx + 1, 0, 0}, &a, sizeof a);
  job.p0->start_send(s2, 1, Envelope{kCtx, 0, 0}, &b, sizeof b);
  job.p1->start_recv(r, Envelope{kCtx, kAnySource, kAnyTag}, &got, sizeof got);
  job.run({&r});
  EXPECT_EQ(got, 2);
  EXPECT_EQ(job.p1->unexpected_count(), 1u);
}

}  // namespace
}  // namespace shmpi::pml
