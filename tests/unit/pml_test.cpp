// Unit tests of the pml: two ranks in one process, each with its own
// Transport and Pml, progressed in turn, deterministically.
#include "pml/pml.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "tests/unit/pml_job.hpp"

namespace shmpi::pml {
namespace {
using namespace shmpi::pml::test_job;

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

struct SizeCase {
  std::size_t bytes;
  Copy copy;
};

class PmlSizes : public ::testing::TestWithParam<SizeCase> {};

TEST_P(PmlSizes, LargeMessagesCrossBothWaysAtOnce) {
  const auto [n, copy] = GetParam();
  TwoRanks job(limits_of(4096, 16384, 16384, 65536), 64 * 1024, copy);  // split from 64 KiB
  auto a = pattern(n, 4), b = pattern(n, 5);
  std::vector<std::byte> got_a(n), got_b(n);
  Request s0, s1, r0, r1;
  job.p0->start_send(s0, 1, Envelope{kCtx, 0, 1}, a.data(), n);
  job.p1->start_send(s1, 0, Envelope{kCtx, 1, 1}, b.data(), n);
  for (int i = 0; i < 100; ++i) {  // eager and pipelined ones arrive unexpected
    job.p0->progress();
    job.p1->progress();
  }
  job.p1->start_recv(r1, Envelope{kCtx, 0, 1}, got_a.data(), n);
  job.p0->start_recv(r0, Envelope{kCtx, 1, 1}, got_b.data(), n);
  job.run({&s0, &s1, &r0, &r1});
  EXPECT_EQ(got_a, a);
  EXPECT_EQ(got_b, b);
  EXPECT_EQ(r1.status.bytes, n);
}

TEST_P(PmlSizes, ReceivePostedMidStreamTakesTheRest) {
  const auto [n, copy] = GetParam();
  TwoRanks job(limits_of(4096, 16384, 16384, 65536), 64 * 1024, copy);
  auto data = pattern(n, 6);
  std::vector<std::byte> got(n);
  Request send, recv;
  job.p0->start_send(send, 1, Envelope{kCtx, 0, 2}, data.data(), n);
  job.p1->progress();  // first part arrives unexpected
  job.p1->start_recv(recv, Envelope{kCtx, 0, 2}, got.data(), n);
  job.run({&send, &recv});
  EXPECT_EQ(got, data);
}

TEST_P(PmlSizes, TruncatedReceiveKeepsThePrefix) {
  const auto [n, copy] = GetParam();
  TwoRanks job(default_limits(), 64 * 1024, copy);
  auto data = pattern(n, 8);
  std::vector<std::byte> got(n / 2);
  Request send, recv;
  job.p1->start_recv(recv, Envelope{kCtx, 0, 2}, got.data(), got.size());
  job.p0->start_send(send, 1, Envelope{kCtx, 0, 2}, data.data(), n);
  job.run({&send, &recv});
  EXPECT_EQ(recv.status.result, n == 0 ? Completion::Ok : Completion::Truncated);
  EXPECT_EQ(recv.status.sent_bytes, n);
  EXPECT_EQ(recv.status.bytes, n / 2);
  EXPECT_TRUE(std::equal(got.begin(), got.end(), data.begin()));
}

std::vector<SizeCase> size_cases() {
  std::vector<SizeCase> cases;
  // Every protocol boundary -1, 0, +1 (eager 4096, rendezvous 16384, split 65536), and large.
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{4095}, std::size_t{4096}, std::size_t{4097},
                        std::size_t{16383}, std::size_t{16384}, std::size_t{16385}, std::size_t{65535},
                        std::size_t{65536}, std::size_t{65537}, std::size_t{1} << 20, (std::size_t{1} << 20) + 1})
    for (Copy copy : {Copy::Streamed, Copy::Cma, Copy::CmaRefused}) cases.push_back({n, copy});
  return cases;
}

std::string case_name(const ::testing::TestParamInfo<SizeCase>& info) {
  const char* copy[] = {"streamed", "cma", "cma_refused"};
  return std::to_string(info.param.bytes) + "_" + copy[static_cast<int>(info.param.copy)];
}

INSTANTIATE_TEST_SUITE_P(Sizes, PmlSizes, ::testing::ValuesIn(size_cases()), case_name);

// A split copy borrows the sender's core. A sender with a receive posted
// expects data it will copy in itself, so it does not offer its core (in
// osu_bibw splitting cost a quarter of the bandwidth); an idle one does.
TEST(Pml, OnlyASenderWithoutPostedReceivesTakesPartOfTheCopy) {
  constexpr std::size_t n = 256 * 1024;
  TwoRanks job(limits_of(4096, 16384, 16384, 65536), 64 * 1024, Copy::Cma);
  const auto data = pattern(n, 3);
  std::vector<std::byte> got(n);
  {
    Request send, recv;
    job.p1->start_recv(recv, Envelope{kCtx, 0, 1}, got.data(), n);
    job.p0->start_send(send, 1, Envelope{kCtx, 0, 1}, data.data(), n);
    job.run({&send, &recv});
    EXPECT_EQ(got, data);
    EXPECT_EQ(job.p0->split_parts_written(), 1U);  // idle sender: split
  }
  {
    int reply = 0, answer = 42;
    Request busy, send, recv, answer_send;
    job.p0->start_recv(busy, Envelope{kCtx, 1, 9}, &reply, sizeof reply);
    std::fill(got.begin(), got.end(), std::byte{0});
    job.p1->start_recv(recv, Envelope{kCtx, 0, 1}, got.data(), n);
    job.p0->start_send(send, 1, Envelope{kCtx, 0, 1}, data.data(), n);
    job.run({&send, &recv});
    EXPECT_EQ(got, data);
    EXPECT_EQ(job.p0->split_parts_written(), 1U);  // receive posted: the receiver copied it all
    job.p1->start_send(answer_send, 0, Envelope{kCtx, 1, 9}, &answer, sizeof answer);
    job.run({&busy, &answer_send});
    EXPECT_EQ(reply, 42);
  }
}

TEST(Pml, SynchronousSendCompletesOnlyOnceMatched) {
  for (std::size_t n : {std::size_t{8}, std::size_t{10000}, std::size_t{100000}}) {
    TwoRanks job;
    auto data = pattern(n, 9);
    std::vector<std::byte> got(n);
    Request send, recv;
    job.p0->start_send(send, 1, Envelope{kCtx, 0, 4}, data.data(), n, SendMode::Synchronous);
    for (int i = 0; i < 1000; ++i) {
      job.p0->progress();
      job.p1->progress();
    }
    EXPECT_FALSE(send.complete) << n;  // buffered at the receiver, but not matched
    job.p1->start_recv(recv, Envelope{kCtx, 0, 4}, got.data(), n);
    job.run({&send, &recv});
    EXPECT_EQ(got, data);
  }
}

// An Eager record carries no length: the receiver derives it from the
// record size, less the cookie of a synchronous send. Every small size, both
// modes, posted first and arriving unexpected, must come out byte-exact with
// the right count, in a buffer larger than the message.
TEST(Pml, EagerLengthIsImpliedExactlyForEverySmallSize) {
  TwoRanks job;
  for (std::size_t n = 0; n <= 72; ++n) {
    for (SendMode mode : {SendMode::Standard, SendMode::Synchronous}) {
      for (bool posted_first : {true, false}) {
        const auto data = pattern(n, static_cast<unsigned>(n));
        std::vector<std::byte> got(n + 16, std::byte{0xEE});
        Request send, recv;
        if (posted_first) job.p1->start_recv(recv, Envelope{kCtx, 0, 6}, got.data(), got.size());
        job.p0->start_send(send, 1, Envelope{kCtx, 0, 6}, data.data(), n, mode);
        if (!posted_first) {
          for (int i = 0; i < 10; ++i) job.p1->progress();  // arrives unexpected
          job.p1->start_recv(recv, Envelope{kCtx, 0, 6}, got.data(), got.size());
        }
        job.run({&send, &recv});
        ASSERT_EQ(recv.status.bytes, n) << n;
        ASSERT_EQ(recv.status.sent_bytes, n) << n;
        ASSERT_TRUE(std::equal(data.begin(), data.end(), got.begin())) << n;
        ASSERT_EQ(got[n], std::byte{0xEE}) << n;  // nothing written past the message
      }
    }
  }
}

// The wire cost of a small message: behind the ring's 4-byte record header
// and the 12-byte match prefix, a message of up to 16 bytes takes 32 bytes
// of ring (two 16-byte slots), one of up to 32 bytes 48 (three records in
// two cache lines) and one of up to 48 bytes one cache line. Counted by how
// many messages a 4 KiB ring takes before a send has to wait (one 16-byte
// slot stays free as the terminator), then every message arrives intact.
// The first message of up to 44 bytes travels in the pair's fast box, so
// one more fits.
TEST(Pml, SmallMessagesPackIntoRingSlots) {
  constexpr std::size_t kRing = 4096;
  struct Case {
    std::size_t bytes;
    std::size_t fit;
  };
  for (Case c : {Case{16, kRing / 32 - 1}, Case{17, (kRing - 16) / 48}, Case{32, (kRing - 16) / 48},
                 Case{33, kRing / 64 - 1}, Case{48, kRing / 64 - 1}}) {
    TwoRanks job(limits_of(512, 1024, 16384, 65536), kRing);
    std::vector<std::vector<std::byte>> data;
    const std::size_t total = c.fit + 2;  // at least one must wait
    std::vector<Request> sends(total), recvs(total);
    std::size_t left_at_once = 0;
    for (std::size_t i = 0; i < total; ++i) {
      data.push_back(pattern(c.bytes, static_cast<unsigned>(i)));
      job.p0->start_send(sends[i], 1, Envelope{kCtx, 0, 3}, data[i].data(), c.bytes);
      if (sends[i].complete) ++left_at_once;
    }
    const std::size_t boxed = kPrefixBytes + c.bytes <= btl::kBoxBody ? 1 : 0;
    EXPECT_EQ(left_at_once, c.fit + boxed) << c.bytes;
    std::vector<std::vector<std::byte>> got(total, std::vector<std::byte>(c.bytes));
    for (std::size_t i = 0; i < total; ++i) {
      job.p1->start_recv(recvs[i], Envelope{kCtx, 0, 3}, got[i].data(), c.bytes);
      job.run({&sends[i], &recvs[i]});
      ASSERT_EQ(got[i], data[i]) << c.bytes << " #" << i;
    }
  }
}

TEST(Pml, ProbeSeesWithoutReceivingAndTakeRemovesFromMatching) {
  TwoRanks job;
  int a = 1, b = 2;
  Request s1, s2;
  job.p0->start_send(s1, 1, Envelope{kCtx, 0, 10}, &a, sizeof a);
  job.p0->start_send(s2, 1, Envelope{kCtx, 0, 11}, &b, sizeof b);
  ProbeResult seen{};
  ASSERT_TRUE(job.p1->probe(Envelope{kCtx, kAnySource, 11}, seen));
  EXPECT_EQ(seen.tag, 11);
  EXPECT_EQ(seen.bytes, sizeof b);
  EXPECT_TRUE(job.p1->probe(Envelope{kCtx, 0, 11}, seen));  // still there
  Unexpected* message = job.p1->take_message(Envelope{kCtx, kAnySource, kAnyTag}, seen);
  ASSERT_NE(message, nullptr);
  EXPECT_EQ(seen.tag, 10);
  EXPECT_FALSE(job.p1->probe(Envelope{kCtx, 0, 10}, seen));  // taken: invisible to others
  int got = 0;
  Request r;
  job.p1->start_mrecv(r, *message, &got, sizeof got);
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(got, 1);
}

TEST(Pml, CancelledReceiveNeverMatches) {
  TwoRanks job;
  int got1 = 0, got2 = 0, v = 7;
  Request r1, r2, s;
  job.p1->start_recv(r1, Envelope{kCtx, 0, 3}, &got1, sizeof got1);
  job.p1->start_recv(r2, Envelope{kCtx, 0, 3}, &got2, sizeof got2);
  EXPECT_TRUE(job.p1->cancel(r1));
  EXPECT_TRUE(r1.complete);
  EXPECT_TRUE(r1.status.cancelled);
  job.p0->start_send(s, 1, Envelope{kCtx, 0, 3}, &v, sizeof v);
  job.run({&r2});
  EXPECT_EQ(got2, 7);
  EXPECT_EQ(got1, 0);
  EXPECT_FALSE(job.p1->cancel(r2));  // complete: nothing to cancel
}

// (Sends that left are withdrawn instead: pml_cancel_test.cpp.)
TEST(Pml, QueuedSendIsCancelledWhereItWaits) {
  // A 4 KiB ring holds three 1000-byte eager records; the fourth waits.
  TwoRanks job(limits_of(1024, 1024, 16384), 4096);
  std::vector<std::byte> data(1000);
  Request sends[4];
  for (Request& s : sends) job.p0->start_send(s, 1, Envelope{kCtx, 0, 1}, data.data(), data.size());
  EXPECT_TRUE(sends[2].complete);
  ASSERT_FALSE(sends[3].complete);
  EXPECT_TRUE(job.p0->cancel(sends[3]));
  EXPECT_TRUE(sends[3].status.cancelled);
  for (int i = 0; i < 100; ++i) job.p1->progress();
  EXPECT_EQ(job.p1->unexpected_count(), 3u);  // the cancelled one never arrives
}

TEST(Pml, SendToSelfThroughItsOwnRing) {
  btl::Transport t(0, 1, btl::Limits{});
  Pml p(t, default_limits(), WaitPolicy{});
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
