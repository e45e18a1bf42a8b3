// Unit tests of the pml's traffic counters (pml/traffic_stats.hpp): each
// message counted once, by protocol, by the side that chose it, and per
// destination.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "pml/pml.hpp"
#include "tests/unit/pml_job.hpp"

namespace shmpi::pml {
namespace {
using namespace shmpi::pml::test_job;

constexpr std::size_t kEager = 1024;
constexpr std::size_t kRndv = 16 * 1024;

ProtocolLimits limits(std::size_t split_threshold = 0) { return limits_of(kEager, 4096, kRndv, split_threshold); }

// How rank 1 posts its receive: Pml::start_recv, or start_operand_recv.
enum class Receive { Kept, Operand };

// One message of `bytes` from rank 0 to rank 1, the receive posted first.
void send_one(TwoRanks& job, std::size_t bytes, Receive as = Receive::Kept) {
  const std::vector<std::byte> data = pattern(bytes, static_cast<unsigned>(bytes));
  std::vector<std::byte> got(bytes);
  Request send, recv;
  if (as == Receive::Operand)
    job.p1->start_operand_recv(recv, Envelope{kCtx, 0, 1}, got.data(), bytes);
  else
    job.p1->start_recv(recv, Envelope{kCtx, 0, 1}, got.data(), bytes);
  job.p0->start_send(send, 1, Envelope{kCtx, 0, 1}, data.data(), bytes);
  job.run({&send, &recv});
  ASSERT_EQ(got, data) << bytes << " bytes";
}

const TrafficCount& of(const Pml& pml, Protocol p) { return pml.stats().totals()[p]; }

TEST(TrafficStats, CountsAddUp) {
  TrafficStats stats(3);
  stats.count(Protocol::Pipelined, 5000);
  stats.count(Protocol::Pipelined, 6000);
  stats.count_eager(true, 8);
  stats.count_eager(false, 100);
  stats.sent_to(2, 10);
  stats.sent_to(2, 20);
  stats.read_batch(true);
  stats.read_batch(false);
  EXPECT_EQ(stats.totals()[Protocol::Pipelined].messages, 2U);
  EXPECT_EQ(stats.totals()[Protocol::Pipelined].bytes, 11000U);
  EXPECT_EQ(stats.totals()[Protocol::Box].messages, 1U);
  EXPECT_EQ(stats.totals()[Protocol::Box].bytes, 8U);
  EXPECT_EQ(stats.totals()[Protocol::Eager].bytes, 100U);
  EXPECT_EQ(stats.totals()[Protocol::Split].messages, 0U);
  EXPECT_EQ(stats.totals().read_batches, 1U);
  ASSERT_EQ(stats.to_peers().size(), 3U);
  EXPECT_EQ(stats.to_peers()[2].messages, 2U);
  EXPECT_EQ(stats.to_peers()[2].bytes, 30U);
  EXPECT_EQ(stats.to_peers()[0].messages, 0U);
}

TEST(TrafficStats, EachProtocolOfASenderAndTheMatrix) {
  TwoRanks job(limits());  // rendezvous streams: no single copy
  for (int i = 0; i < 3; ++i) send_one(job, 8);        // box or ring
  for (int i = 0; i < 4; ++i) send_one(job, 512);      // eager, ring
  for (int i = 0; i < 2; ++i) send_one(job, 8192);     // pipelined
  for (int i = 0; i < 5; ++i) send_one(job, 65536);    // rendezvous, streamed
  const Pml& sender = *job.p0;
  EXPECT_GE(of(sender, Protocol::Box).messages, 1U);  // the first: the box starts empty and ours
  EXPECT_EQ(of(sender, Protocol::Box).messages + of(sender, Protocol::Eager).messages, 7U);
  EXPECT_EQ(of(sender, Protocol::Box).bytes + of(sender, Protocol::Eager).bytes, 3U * 8 + 4U * 512);
  EXPECT_EQ(of(sender, Protocol::Pipelined).messages, 2U);
  EXPECT_EQ(of(sender, Protocol::Pipelined).bytes, 2U * 8192);
  EXPECT_EQ(of(sender, Protocol::Rendezvous).messages, 5U);
  EXPECT_EQ(of(sender, Protocol::Rendezvous).bytes, 5U * 65536);
  EXPECT_EQ(of(sender, Protocol::Streamed).messages, 0U);  // counted by the receiver
  EXPECT_EQ(of(*job.p1, Protocol::Streamed).messages, 5U);
  EXPECT_EQ(of(*job.p1, Protocol::Streamed).bytes, 5U * 65536);
  EXPECT_EQ(of(*job.p1, Protocol::Rendezvous).messages, 0U);
  EXPECT_EQ(sender.stats().to_peers()[1].messages, 14U);
  EXPECT_EQ(sender.stats().to_peers()[1].bytes, 3U * 8 + 4U * 512 + 2U * 8192 + 5U * 65536);
  EXPECT_EQ(sender.stats().to_peers()[0].messages, 0U);
  EXPECT_EQ(job.p1->stats().to_peers()[0].messages, 0U);
}

TEST(TrafficStats, SingleCopySplitAndRefusedReadsAreCountedByTheReceiver) {
  TwoRanks job(limits(128 * 1024), 64 * 1024, Copy::Cma);
  send_one(job, 65536);       // single copy
  send_one(job, 256 * 1024);  // split: the sender has no receive posted
  EXPECT_EQ(of(*job.p1, Protocol::SingleCopy).messages, 1U);
  EXPECT_EQ(of(*job.p1, Protocol::SingleCopy).bytes, 65536U);
  EXPECT_EQ(of(*job.p1, Protocol::Split).messages, 1U);
  EXPECT_EQ(of(*job.p1, Protocol::Split).bytes, 256U * 1024);
  EXPECT_EQ(job.p0->split_parts_written(), 1U);
  EXPECT_EQ(of(*job.p0, Protocol::Rendezvous).messages, 2U);

  TwoRanks refused(limits(128 * 1024), 64 * 1024, Copy::CmaRefused);
  send_one(refused, 65536);
  EXPECT_EQ(of(*refused.p1, Protocol::SingleCopy).messages, 0U);
  EXPECT_EQ(of(*refused.p1, Protocol::Streamed).messages, 1U);
}

// A reduction's operand is copied whole by its receiver, whatever its size:
// the reduction reads it next, from the receiver's cache.
TEST(TrafficStats, AnOperandReceiveIsNeverSplit) {
  TwoRanks job(limits(128 * 1024), 64 * 1024, Copy::Cma);
  constexpr std::size_t kBytes = 256 * 1024;
  send_one(job, kBytes, Receive::Operand);
  EXPECT_EQ(of(*job.p1, Protocol::Split).messages, 0U);
  EXPECT_EQ(of(*job.p1, Protocol::SingleCopy).messages, 1U);
  EXPECT_EQ(job.p0->split_parts_written(), 0U);
  send_one(job, kBytes);  // the same size, received for keeping: split
  EXPECT_EQ(of(*job.p1, Protocol::Split).messages, 1U);
}

TEST(TrafficStats, UnexpectedPeakIsTheDeepestTheQueueWas) {
  TwoRanks job(limits());
  constexpr int kBurst = 5;
  std::vector<std::byte> data(100), got(100);
  std::vector<Request> sends(kBurst);
  std::vector<Request*> all;
  for (Request& s : sends) {
    job.p0->start_send(s, 1, Envelope{kCtx, 0, 1}, data.data(), data.size());
    all.push_back(&s);
  }
  job.run(all);
  while (job.p1->unexpected_count() < kBurst) job.p1->progress();
  for (int i = 0; i < kBurst; ++i) {
    Request recv;
    job.p1->start_recv(recv, Envelope{kCtx, 0, 1}, got.data(), got.size());
    job.run({&recv});
  }
  EXPECT_EQ(job.p1->unexpected_count(), 0U);
  EXPECT_EQ(job.p1->unexpected_peak(), static_cast<std::size_t>(kBurst));
  send_one(job, 100);  // a posted receive: not unexpected, the peak stays
  EXPECT_EQ(job.p1->unexpected_peak(), static_cast<std::size_t>(kBurst));
  EXPECT_EQ(job.p0->unexpected_peak(), 0U);
}

}  // namespace
}  // namespace shmpi::pml
