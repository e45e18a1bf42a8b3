// Unit tests of cancelling sends that have left (pml/withdrawal.cpp): the
// receiver withdraws an unmatched message from its unexpected queue, or
// answers that a receive matched it first.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "pml/pml.hpp"
#include "tests/unit/pml_job.hpp"

namespace shmpi::pml {
namespace {
using namespace shmpi::pml::test_job;

// Receives one message of `bytes` on `tag` at rank 1 (progressing both).
std::vector<std::byte> receive(TwoRanks& job, int tag, std::size_t bytes) {
  std::vector<std::byte> got(bytes);
  Request r;
  job.p1->start_recv(r, Envelope{kCtx, 0, tag}, got.data(), got.size());
  job.run({&r});
  EXPECT_EQ(r.status.bytes, bytes);
  return got;
}

// A send of `bytes` that nobody receives is withdrawn, completes cancelled,
// leaves the receiver's queue empty, and the next message goes through.
void expect_withdrawn(TwoRanks& job, std::size_t bytes, SendMode mode = SendMode::Standard) {
  auto data = pattern(bytes, 3);
  Request s;
  job.p0->start_send(s, 1, Envelope{kCtx, 0, 7}, data.data(), data.size(), mode);
  for (int i = 0; i < 4; ++i) job.p1->progress();  // it (or its offer, or its start) is unexpected
  EXPECT_FALSE(job.p0->cancel(s));                  // not at once: the receiver answers
  EXPECT_FALSE(s.complete);
  job.run({&s});
  EXPECT_TRUE(s.status.cancelled) << bytes << " bytes";
  EXPECT_EQ(job.p1->unexpected_count(), 0u);
  EXPECT_EQ(job.p1->messages_withdrawn(), 1u);
  EXPECT_FALSE(job.p0->cancel(s));  // asked once only
  auto next = pattern(bytes, 9);
  Request s2;
  job.p0->start_send(s2, 1, Envelope{kCtx, 0, 7}, next.data(), next.size(), mode);
  EXPECT_EQ(receive(job, 7, bytes), next);
  job.run({&s2});
  EXPECT_FALSE(s2.status.cancelled);
}

TEST(PmlCancel, EagerSendWithdrawn) {
  TwoRanks job;
  expect_withdrawn(job, 100);
}

TEST(PmlCancel, EmptySendWithdrawn) {
  TwoRanks job;
  expect_withdrawn(job, 0);
}

TEST(PmlCancel, SynchronousEagerSendWithdrawn) {
  TwoRanks job;
  expect_withdrawn(job, 8, SendMode::Synchronous);
}

TEST(PmlCancel, PipelinedSendWithdrawn) {
  TwoRanks job;  // eager 4 KiB, rendezvous from 16 KiB
  expect_withdrawn(job, 10000);
}

TEST(PmlCancel, RendezvousSendWithdrawn) {
  TwoRanks job;
  expect_withdrawn(job, 64 * 1024);
}

TEST(PmlCancel, SynchronousRendezvousSendWithdrawnWithSingleCopy) {
  TwoRanks job(default_limits(), 64 * 1024, Copy::Cma);
  expect_withdrawn(job, 100 * 1024, SendMode::Synchronous);
}

// A pipelined message still being pushed (the ring is too small for it) is
// withdrawn while its fragments stream in: the receiver drops the rest.
TEST(PmlCancel, PipelinedSendWithdrawnMidStream) {
  TwoRanks job(limits_of(1024, 1024, 1 << 20), 4096);
  auto data = pattern(20000, 1);
  Request s;
  job.p0->start_send(s, 1, Envelope{kCtx, 0, 7}, data.data(), data.size());
  ASSERT_FALSE(s.pushed);
  EXPECT_FALSE(job.p0->cancel(s));
  job.run({&s});
  EXPECT_TRUE(s.status.cancelled);
  EXPECT_EQ(job.p1->unexpected_count(), 0u);
  auto next = pattern(3000, 2);
  Request s2;
  job.p0->start_send(s2, 1, Envelope{kCtx, 0, 7}, next.data(), next.size());
  EXPECT_EQ(receive(job, 7, next.size()), next);
}

// Of three messages with one envelope, the cancelled one (the middle) goes.
TEST(PmlCancel, WithdrawsTheRightMessageOfOneEnvelope) {
  TwoRanks job;
  int values[3] = {1, 2, 3};
  Request s[3];
  for (int i = 0; i < 3; ++i) job.p0->start_send(s[i], 1, Envelope{kCtx, 0, 4}, &values[i], sizeof(int));
  job.p0->cancel(s[1]);
  job.run({&s[1]});
  EXPECT_TRUE(s[1].status.cancelled);
  EXPECT_FALSE(s[0].status.cancelled);
  int got = 0;
  std::memcpy(&got, receive(job, 4, sizeof got).data(), sizeof got);
  EXPECT_EQ(got, 1);
  std::memcpy(&got, receive(job, 4, sizeof got).data(), sizeof got);
  EXPECT_EQ(got, 3);
  EXPECT_EQ(job.p1->unexpected_count(), 0u);
}

// Messages sent and received on the fast paths (no request) count in the
// pair's sequence like every other: the right message is withdrawn.
TEST(PmlCancel, SequencesCountFastPathMessages) {
  TwoRanks job;
  int values[5] = {1, 2, 3, 4, 5};
  int got = 0;
  // Sent on the fast path, received the usual way.
  ASSERT_TRUE(job.p0->try_send_eager_now(1, Envelope{kCtx, 0, 4}, &values[0], sizeof(int)));
  Request s[3];
  job.p0->start_send(s[0], 1, Envelope{kCtx, 0, 4}, &values[1], sizeof(int));
  job.p0->cancel(s[0]);
  job.run({&s[0]});
  EXPECT_TRUE(s[0].status.cancelled);
  std::memcpy(&got, receive(job, 4, sizeof got).data(), sizeof got);
  EXPECT_EQ(got, 1);
  // Sent the usual way, received on the fast path.
  job.p0->start_send(s[1], 1, Envelope{kCtx, 0, 4}, &values[2], sizeof(int));
  Status status;
  ASSERT_TRUE(job.p1->try_receive_now(0, Envelope{kCtx, 0, 4}, &got, sizeof got, status));
  EXPECT_EQ(got, 3);
  job.p0->start_send(s[1], 1, Envelope{kCtx, 0, 4}, &values[3], sizeof(int));
  job.p0->start_send(s[2], 1, Envelope{kCtx, 0, 4}, &values[4], sizeof(int));
  job.p0->cancel(s[1]);
  job.run({&s[1]});
  EXPECT_TRUE(s[1].status.cancelled);
  std::memcpy(&got, receive(job, 4, sizeof got).data(), sizeof got);
  EXPECT_EQ(got, 5);
  EXPECT_EQ(job.p1->unexpected_count(), 0u);
}

// A receive matched the message before the Withdraw arrived: the send
// completes normally, not cancelled, and the receive has the data.
void expect_too_late(TwoRanks& job, std::size_t bytes, SendMode mode) {
  auto data = pattern(bytes, 5);
  std::vector<std::byte> got(bytes);
  Request r, s;
  job.p1->start_recv(r, Envelope{kCtx, 0, 7}, got.data(), got.size());
  job.p0->start_send(s, 1, Envelope{kCtx, 0, 7}, data.data(), data.size(), mode);
  job.p1->progress();  // matched
  job.p0->cancel(s);
  job.run({&s, &r});
  EXPECT_FALSE(s.status.cancelled) << bytes << " bytes";
  EXPECT_FALSE(r.status.cancelled);
  EXPECT_EQ(got, data);
  EXPECT_EQ(job.p1->messages_withdrawn(), 0u);
}

TEST(PmlCancel, MatchedEagerSendCompletesNormally) {
  TwoRanks job;
  expect_too_late(job, 100, SendMode::Standard);
}

TEST(PmlCancel, MatchedSynchronousSendCompletesNormally) {
  TwoRanks job;
  expect_too_late(job, 100, SendMode::Synchronous);
}

TEST(PmlCancel, MatchedRendezvousSendCompletesNormally) {
  TwoRanks job;
  expect_too_late(job, 64 * 1024, SendMode::Standard);
}

TEST(PmlCancel, MatchedRendezvousSendByCmaCompletesNormally) {
  TwoRanks job(default_limits(), 64 * 1024, Copy::Cma);
  expect_too_late(job, 64 * 1024, SendMode::Synchronous);
}

// Many cancels: every record is recycled, the queue stays shallow.
TEST(PmlCancel, ManyCancelsLeaveNothingBehind) {
  TwoRanks job;
  auto data = pattern(2000, 1);
  for (int round = 0; round < 200; ++round) {
    Request s[4];
    for (Request& r : s) job.p0->start_send(r, 1, Envelope{kCtx, 0, 1}, data.data(), data.size());
    for (Request& r : s) job.p0->cancel(r);
    job.run({&s[0], &s[1], &s[2], &s[3]});
    for (Request& r : s) ASSERT_TRUE(r.status.cancelled);
  }
  EXPECT_EQ(job.p1->unexpected_count(), 0u);
  EXPECT_EQ(job.p1->messages_withdrawn(), 800u);
  EXPECT_LE(job.p1->unexpected_peak(), 4u);
}

}  // namespace
}  // namespace shmpi::pml
