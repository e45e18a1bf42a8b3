// The blocking calls' fast paths (Pml::try_send_eager_now and
// Pml::try_receive_now): they take only what the usual path would have
// done the same way, and leave everything else to it, in order.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "pml/pml.hpp"
#include "tests/unit/pml_job.hpp"

namespace shmpi::pml {
namespace {
using namespace shmpi::pml::test_job;

// A receive through the usual path, run to completion.
void receive(TwoRanks& job, Request& recv, int tag, void* buffer, std::size_t capacity) {
  job.p1->start_recv(recv, Envelope{kCtx, 0, tag}, buffer, capacity);
  job.run({&recv});
}

TEST(PmlFastPath, EagerSendLeavesAtOnceAndArrivesIntact) {
  TwoRanks job;
  for (std::size_t bytes : {std::size_t{0}, std::size_t{1}, std::size_t{44}, std::size_t{45}, std::size_t{4096}}) {
    auto data = pattern(bytes, static_cast<unsigned>(bytes));
    ASSERT_TRUE(job.p0->try_send_eager_now(1, Envelope{kCtx, 0, 4}, data.data(), bytes)) << bytes;
    std::vector<std::byte> got(bytes);
    Request recv;
    receive(job, recv, 4, got.data(), got.size());
    EXPECT_EQ(got, data) << bytes;
    EXPECT_EQ(recv.status.bytes, bytes);
    EXPECT_EQ(recv.status.source, 0);
  }
}

TEST(PmlFastPath, SendTakesTheUsualPathWhenNotOneEagerRecordOrBehindAQueuedOne) {
  // A 4 KiB ring holds three 1000-byte eager records; the fourth waits.
  TwoRanks job(limits_of(1024, 1024, 2048), 4096);
  std::vector<std::byte> big(1025), data(1000);
  EXPECT_FALSE(job.p0->try_send_eager_now(1, Envelope{kCtx, 0, 1}, big.data(), big.size()));  // over the eager limit
  Request sends[4];
  for (Request& s : sends) job.p0->start_send(s, 1, Envelope{kCtx, 0, 1}, data.data(), data.size());
  ASSERT_FALSE(sends[3].complete);
  int value = 5;
  // The ring has no room, and a message sent now must not pass the queued one.
  EXPECT_FALSE(job.p0->try_send_eager_now(1, Envelope{kCtx, 0, 1}, &value, sizeof value));
  job.p1->progress();  // room again, but sends[3] still waits in the queue
  EXPECT_FALSE(job.p0->try_send_eager_now(1, Envelope{kCtx, 0, 1}, &value, sizeof value));
}

TEST(PmlFastPath, ReceiveNowTakesTheMatchingRecord) {
  TwoRanks job;
  auto data = pattern(40, 9);
  Request send;
  job.p0->start_send(send, 1, Envelope{kCtx, 0, 6}, data.data(), data.size());
  std::vector<std::byte> got(64);
  Status status;
  ASSERT_TRUE(job.p1->try_receive_now(0, Envelope{kCtx, 0, kAnyTag}, got.data(), got.size(), status));
  EXPECT_TRUE(std::equal(data.begin(), data.end(), got.begin()));
  EXPECT_EQ(status.source, 0);
  EXPECT_EQ(status.tag, 6);
  EXPECT_EQ(status.bytes, 40u);
  EXPECT_EQ(job.p1->posted_count(), 0u);
  EXPECT_EQ(job.p1->unexpected_count(), 0u);
  // The reply goes over the delivered record, and back the same way.
  int reply = 11, back = 0;
  ASSERT_TRUE(job.p1->try_send_eager_now(0, Envelope{kCtx, 1, 6}, &reply, sizeof reply));
  ASSERT_TRUE(job.p0->try_receive_now(1, Envelope{kCtx, 1, 6}, &back, sizeof back, status));
  EXPECT_EQ(back, 11);
}

TEST(PmlFastPath, ReceiveNowLeavesARecordOfAnotherTagToMatching) {
  TwoRanks job;
  int seven = 7, got = 0;
  Request send;
  job.p0->start_send(send, 1, Envelope{kCtx, 0, 7}, &seven, sizeof seven);
  Status status;
  EXPECT_FALSE(job.p1->try_receive_now(0, Envelope{kCtx, 0, 8}, &got, sizeof got, status));
  EXPECT_FALSE(job.p1->try_receive_now(0, Envelope{kCtx + 2, 0, 7}, &got, sizeof got, status));  // another communicator
  EXPECT_EQ(got, 0);
  Request recv;
  receive(job, recv, 7, &got, sizeof got);
  EXPECT_EQ(got, 7);
}

TEST(PmlFastPath, ReceiveNowNeverPassesAnEarlierMatch) {
  TwoRanks job;
  int first = 1, second = 2, got = 0;
  Request s1, s2;
  job.p0->start_send(s1, 1, Envelope{kCtx, 0, 3}, &first, sizeof first);
  job.p1->progress();  // arrives unexpected
  job.p1->progress();  // an idle poll hands the box back
  job.p0->start_send(s2, 1, Envelope{kCtx, 0, 3}, &second, sizeof second);
  Request r;
  Status status;
  EXPECT_FALSE(job.p1->try_receive_now(0, Envelope{kCtx, 0, 3}, &got, sizeof got, status));
  receive(job, r, 3, &got, sizeof got);
  EXPECT_EQ(got, 1);
  EXPECT_TRUE(job.p1->try_receive_now(0, Envelope{kCtx, 0, 3}, &got, sizeof got, status));
  EXPECT_EQ(got, 2);
}

TEST(PmlFastPath, ReceiveNowWaitsForNothingWhileAnotherReceiveIsPosted) {
  TwoRanks job;
  int value = 4, posted_got = 0, got = 0;
  Request posted;
  job.p1->start_recv(posted, Envelope{kCtx, kAnySource, 3}, &posted_got, sizeof posted_got);
  Request send;
  job.p0->start_send(send, 1, Envelope{kCtx, 0, 3}, &value, sizeof value);
  Status status;
  EXPECT_FALSE(job.p1->try_receive_now(0, Envelope{kCtx, 0, 3}, &got, sizeof got, status));
  job.run({&posted});
  EXPECT_EQ(posted_got, 4);  // the earlier posted receive matched it
  EXPECT_EQ(got, 0);
}

TEST(PmlFastPath, ReceiveNowLeavesRingRecordsFirst) {
  TwoRanks job;
  auto big = pattern(1000, 4);  // through the ring
  int small = 9;
  Request s1, s2;
  job.p0->start_send(s1, 1, Envelope{kCtx, 0, 1}, big.data(), big.size());
  job.p0->start_send(s2, 1, Envelope{kCtx, 0, 2}, &small, sizeof small);  // through the box, after it
  int got = 0;
  Status status;
  EXPECT_FALSE(job.p1->try_receive_now(0, Envelope{kCtx, 0, 2}, &got, sizeof got, status));
  EXPECT_EQ(got, 0);
  std::vector<std::byte> got_big(1000);
  Request r1, r2;
  receive(job, r1, 1, got_big.data(), got_big.size());
  receive(job, r2, 2, &got, sizeof got);
  EXPECT_EQ(got_big, big);
  EXPECT_EQ(got, 9);
}

TEST(PmlFastPath, ReceiveNowTakesAnEagerMessageFromTheRing) {
  TwoRanks job;
  for (std::size_t bytes : {std::size_t{45}, std::size_t{1000}, std::size_t{4096}}) {
    auto data = pattern(bytes, static_cast<unsigned>(bytes));
    Request send;
    job.p0->start_send(send, 1, Envelope{kCtx, 0, 3}, data.data(), data.size());  // too big for the box
    std::vector<std::byte> got(bytes + 8);
    Status status;
    ASSERT_TRUE(job.p1->try_receive_now(0, Envelope{kCtx, 0, kAnyTag}, got.data(), got.size(), status)) << bytes;
    EXPECT_TRUE(std::equal(data.begin(), data.end(), got.begin())) << bytes;
    EXPECT_EQ(status.bytes, bytes);
    EXPECT_EQ(status.tag, 3);
    EXPECT_EQ(job.p1->posted_count(), 0u);
    EXPECT_EQ(job.p1->unexpected_count(), 0u);
  }
  // The box after a ring record taken this way still arrives, in order.
  auto big = pattern(500, 2);
  int small = 5, got_small = 0;
  Request s1, s2;
  job.p0->start_send(s1, 1, Envelope{kCtx, 0, 1}, big.data(), big.size());
  job.p0->start_send(s2, 1, Envelope{kCtx, 0, 1}, &small, sizeof small);
  std::vector<std::byte> got_big(500);
  Status status;
  ASSERT_TRUE(job.p1->try_receive_now(0, Envelope{kCtx, 0, 1}, got_big.data(), got_big.size(), status));
  ASSERT_TRUE(job.p1->try_receive_now(0, Envelope{kCtx, 0, 1}, &got_small, sizeof got_small, status));
  EXPECT_EQ(got_big, big);
  EXPECT_EQ(got_small, 5);
}

TEST(PmlFastPath, ReceiveNowTakesNoRingRecordBeforeAnEarlierBoxRecord) {
  TwoRanks job;
  int small = 6, got_small = 0;
  auto big = pattern(300, 8);
  Request s1, s2;
  job.p0->start_send(s1, 1, Envelope{kCtx, 0, 2}, &small, sizeof small);    // box
  job.p0->start_send(s2, 1, Envelope{kCtx, 0, 1}, big.data(), big.size());  // ring, after it
  std::vector<std::byte> got_big(300);
  Status status;
  // Tag 1 may pass tag 2 in MPI, but not in the channel: the usual path.
  EXPECT_FALSE(job.p1->try_receive_now(0, Envelope{kCtx, 0, 1}, got_big.data(), got_big.size(), status));
  Request r1, r2;
  receive(job, r1, 1, got_big.data(), got_big.size());
  receive(job, r2, 2, &got_small, sizeof got_small);
  EXPECT_EQ(got_big, big);
  EXPECT_EQ(got_small, 6);
}

TEST(PmlFastPath, SynchronousAndTruncatedMessagesTakeTheUsualPath) {
  TwoRanks job;
  int value = 3;
  int got[16] = {};  // room for the record's cookie too
  Request ssend;
  job.p0->start_send(ssend, 1, Envelope{kCtx, 0, 5}, &value, sizeof value, SendMode::Synchronous);
  Request r;
  Status status;
  EXPECT_FALSE(job.p1->try_receive_now(0, Envelope{kCtx, 0, 5}, got, sizeof got, status));
  receive(job, r, 5, got, sizeof got);
  job.run({&ssend});  // the usual path acknowledged the match
  EXPECT_EQ(got[0], 3);
  EXPECT_EQ(r.status.bytes, sizeof value);

  auto data = pattern(40, 1);
  std::vector<std::byte> small(8);
  Request send;
  job.p0->start_send(send, 1, Envelope{kCtx, 0, 6}, data.data(), data.size());
  Request t;
  EXPECT_FALSE(job.p1->try_receive_now(0, Envelope{kCtx, 0, 6}, small.data(), small.size(), status));
  receive(job, t, 6, small.data(), small.size());
  EXPECT_EQ(t.status.result, Completion::Truncated);
  EXPECT_EQ(t.status.sent_bytes, 40u);
}

TEST(PmlFastPath, FinishNowCompletesTheOnePostedReceive) {
  TwoRanks job;
  for (std::size_t bytes : {std::size_t{8}, std::size_t{1000}}) {  // box, ring
    auto data = pattern(bytes, static_cast<unsigned>(bytes) + 3);
    std::vector<std::byte> got(bytes + 16);
    Request recv, send;
    job.p1->start_recv(recv, Envelope{kCtx, 0, 4}, got.data(), got.size());
    job.p0->start_send(send, 1, Envelope{kCtx, 0, 4}, data.data(), data.size());
    ASSERT_TRUE(job.p1->try_finish_now(recv, 0)) << bytes;
    EXPECT_TRUE(recv.complete);
    EXPECT_EQ(recv.status.result, Completion::Ok);
    EXPECT_EQ(recv.status.bytes, bytes);
    EXPECT_EQ(recv.status.tag, 4);
    EXPECT_TRUE(std::equal(data.begin(), data.end(), got.begin()));
    EXPECT_EQ(job.p1->posted_count(), 0u);
    EXPECT_FALSE(job.p1->try_finish_now(recv, 0));  // complete: nothing to do
  }
}

TEST(PmlFastPath, FinishNowLeavesWhatItMayNotTake) {
  TwoRanks job;
  int value = 7, first = 0, second = 0;
  // Two receives posted: a message goes to the earlier one, by matching.
  Request r1, r2, send;
  job.p1->start_recv(r1, Envelope{kCtx, 0, 5}, &first, sizeof first);
  job.p1->start_recv(r2, Envelope{kCtx, 0, 5}, &second, sizeof second);
  job.p0->start_send(send, 1, Envelope{kCtx, 0, 5}, &value, sizeof value);
  EXPECT_FALSE(job.p1->try_finish_now(r2, 0));
  job.run({&r1});
  EXPECT_EQ(first, 7);
  EXPECT_FALSE(r2.complete);
  // A receive from any source, and a message larger than the buffer.
  Request any, big_send;
  ASSERT_TRUE(job.p1->cancel(r2));
  job.p1->start_recv(any, Envelope{kCtx, kAnySource, 6}, &second, sizeof second);
  job.p0->start_send(send, 1, Envelope{kCtx, 0, 6}, &value, sizeof value);
  EXPECT_FALSE(job.p1->try_finish_now(any, 0));
  job.run({&any});
  EXPECT_EQ(second, 7);
  auto big = pattern(100, 1);
  Request small;
  job.p1->start_recv(small, Envelope{kCtx, 0, 8}, &first, sizeof first);
  job.p0->start_send(big_send, 1, Envelope{kCtx, 0, 8}, big.data(), big.size());
  EXPECT_FALSE(job.p1->try_finish_now(small, 0));
  job.run({&small});
  EXPECT_EQ(small.status.result, Completion::Truncated);
}

TEST(PmlFastPath, ReceiveNowGivesUpWhenNothingComes) {
  TwoRanks job;
  int got = 0;
  Status status;
  EXPECT_FALSE(job.p1->try_receive_now(0, Envelope{kCtx, 0, 1}, &got, sizeof got, status));
  EXPECT_EQ(job.p1->posted_count(), 0u);
}

}  // namespace
}  // namespace shmpi::pml
