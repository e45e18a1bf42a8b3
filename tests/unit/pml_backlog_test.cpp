// Unit tests of the receiver's backlog flag (ProtocolLimits::
// unexpected_budget): past its budget of unexpected payload bytes a
// receiver asks its senders to send offers only (rendezvous), and lets them
// send payloads again once half drained. MPI's rules hold for the messages
// so held back: order, probes, synchronous sends, cancel, truncation.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "pml/pml.hpp"
#include "tests/unit/pml_job.hpp"

namespace shmpi::pml {
namespace {
using namespace shmpi::pml::test_job;

ProtocolLimits budget_of(std::uint64_t budget) {
  ProtocolLimits limits = default_limits();  // eager 4 KiB, rendezvous from 16 KiB
  limits.unexpected_budget = budget;
  return limits;
}

// What one unexpected eager message of `bytes` is charged.
constexpr std::uint64_t charge(std::uint64_t bytes) { return bytes + UnexpectedStore::kRecordCharge; }

void send(TwoRanks& job, Request& s, int tag, const std::vector<std::byte>& data,
          SendMode mode = SendMode::Standard) {
  job.p0->start_send(s, 1, Envelope{kCtx, 0, tag}, data.data(), data.size(), mode);
}

// Receives the message on `tag` at rank 1 into `capacity` bytes.
Request receive(TwoRanks& job, int tag, std::vector<std::byte>& into) {
  Request r;
  job.p1->start_recv(r, Envelope{kCtx, 0, tag}, into.data(), into.size());
  job.run({&r});
  return r;
}

void settle(TwoRanks& job) {
  for (int i = 0; i < 8; ++i) {
    job.p1->progress();
    job.p0->progress();
  }
}

TEST(PmlBacklog, RaisedPastTheBudgetDroppedAtHalf) {
  TwoRanks job(budget_of(2 * charge(1000)));
  std::vector<Request> sends(5);
  std::vector<std::vector<std::byte>> data;
  for (int i = 0; i < 5; ++i) data.push_back(pattern(1000, i));
  for (int i = 0; i < 3; ++i) send(job, sends[i], i, data[i]);  // eager, all three unexpected
  settle(job);
  EXPECT_TRUE(job.p1->backlogged());
  EXPECT_EQ(job.p1->unexpected_held_peak(), 3 * charge(1000));
  send(job, sends[3], 3, data[3]);  // held back: an offer only
  settle(job);
  EXPECT_EQ(job.p0->sends_held_back(), 1u);
  EXPECT_FALSE(sends[3].complete);  // it waits for its receive
  EXPECT_EQ(job.p1->unexpected_held_peak(), 3 * charge(1000));  // the offer holds no payload
  std::vector<std::byte> got(1000);
  EXPECT_EQ(receive(job, 3, got).status.bytes, 1000u);  // the later one first
  EXPECT_EQ(got, data[3]);
  job.run({&sends[3]});
  EXPECT_EQ(receive(job, 0, got).status.bytes, 1000u);
  EXPECT_EQ(got, data[0]);
  EXPECT_TRUE(job.p1->backlogged());  // 2 charges held: not down to half yet
  EXPECT_EQ(receive(job, 1, got).status.bytes, 1000u);
  EXPECT_EQ(got, data[1]);
  EXPECT_FALSE(job.p1->backlogged());
  send(job, sends[4], 4, data[4]);  // eager again
  settle(job);
  EXPECT_TRUE(sends[4].complete);
  EXPECT_EQ(job.p0->sends_held_back(), 1u);
  EXPECT_EQ(receive(job, 2, got).status.bytes, 1000u);
  EXPECT_EQ(got, data[2]);
  EXPECT_EQ(receive(job, 4, got).status.bytes, 1000u);
  EXPECT_EQ(got, data[4]);
  EXPECT_EQ(job.p1->backlogs_raised(), 1u);
}

// Budget 0: every message to the peer is an offer, whatever its size.
class PmlZeroBudget : public ::testing::TestWithParam<Copy> {
 protected:
  TwoRanks job{budget_of(0), 64 * 1024, GetParam()};
};

TEST_P(PmlZeroBudget, LaterMessageReceivedFirst) {
  for (std::size_t bytes : {std::size_t{0}, std::size_t{8}, std::size_t{100}, std::size_t{6000}}) {
    const auto a = pattern(bytes, 1), b = pattern(bytes, 2);
    Request sa, sb;
    send(job, sa, 1, a);
    send(job, sb, 2, b);
    std::vector<std::byte> got(bytes);
    EXPECT_EQ(receive(job, 2, got).status.bytes, bytes);
    EXPECT_EQ(got, b);
    EXPECT_EQ(receive(job, 1, got).status.bytes, bytes);
    EXPECT_EQ(got, a);
    job.run({&sa, &sb});
  }
  EXPECT_EQ(job.p0->sends_held_back(), 8u);
  EXPECT_EQ(job.p1->unexpected_held_peak(), 0u);
}

TEST_P(PmlZeroBudget, ProbeSeesTheWholeLength) {
  const auto data = pattern(100, 5);
  Request s;
  send(job, s, 3, data);
  ProbeResult found{};
  for (int i = 0; i < 100 && !job.p1->probe(Envelope{kCtx, 0, 3}, found); ++i) job.p0->progress();
  EXPECT_EQ(found.bytes, 100u);
  Unexpected* message = job.p1->take_message(Envelope{kCtx, kAnySource, kAnyTag}, found);
  ASSERT_NE(message, nullptr);
  EXPECT_EQ(found.bytes, 100u);
  std::vector<std::byte> got(100);
  Request r;
  job.p1->start_mrecv(r, *message, got.data(), got.size());
  job.run({&r, &s});
  EXPECT_EQ(got, data);
}

TEST_P(PmlZeroBudget, SynchronousSendWaitsForItsReceive) {
  const auto data = pattern(8, 6);
  Request s;
  send(job, s, 4, data, SendMode::Synchronous);
  settle(job);
  EXPECT_FALSE(s.complete);
  std::vector<std::byte> got(8);
  receive(job, 4, got);
  job.run({&s});
  EXPECT_EQ(got, data);
}

TEST_P(PmlZeroBudget, HeldBackSendWithdrawn) {
  const auto data = pattern(100, 7);
  Request s;
  send(job, s, 5, data);
  settle(job);
  EXPECT_EQ(job.p1->unexpected_count(), 1u);
  EXPECT_FALSE(job.p0->cancel(s));
  job.run({&s});
  EXPECT_TRUE(s.status.cancelled);
  EXPECT_EQ(job.p1->unexpected_count(), 0u);
  EXPECT_EQ(job.p1->messages_withdrawn(), 1u);
}

TEST_P(PmlZeroBudget, TruncatedToNothing) {
  const auto data = pattern(64, 8);
  Request s;
  send(job, s, 6, data);
  std::vector<std::byte> none;
  const Request r = receive(job, 6, none);
  EXPECT_EQ(r.status.result, Completion::Truncated);
  EXPECT_EQ(r.status.sent_bytes, 64u);
  job.run({&s});
}

TEST_P(PmlZeroBudget, SendToSelfStaysEager) {
  const auto data = pattern(100, 9);
  Request s;
  job.p0->start_send(s, 0, Envelope{kCtx, 0, 7}, data.data(), data.size());
  job.p0->progress();
  EXPECT_TRUE(s.complete);  // eager: a blocking send to oneself must not wait
  std::vector<std::byte> got(100);
  Request r;
  job.p0->start_recv(r, Envelope{kCtx, 0, 7}, got.data(), got.size());
  job.run({&r});
  EXPECT_EQ(got, data);
  EXPECT_EQ(job.p0->sends_held_back(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Copies, PmlZeroBudget, ::testing::Values(Copy::Streamed, Copy::Cma));

}  // namespace
}  // namespace shmpi::pml
