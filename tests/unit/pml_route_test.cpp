// Unit tests of the rendezvous route choice in the pml (rndv_route=auto):
// each epoch of one peer's rendezvous messages takes one route, is timed
// once, and every message arrives byte-exact whichever way it went.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "pml/pml.hpp"
#include "tests/unit/pml_job.hpp"

namespace shmpi::pml {
namespace {
using namespace shmpi::pml::test_job;

constexpr std::size_t kRndv = 128 * 1024;

ProtocolLimits choosing() {
  ProtocolLimits limits = limits_of(4096, 16384, kRndv, kRndv);
  limits.choose_route = true;
  return limits;
}

// Rank 1 posts a receive for each of `sizes`, rank 0 sends them all at
// once (one epoch), and each must arrive intact.
void send_window(TwoRanks& job, const std::vector<std::size_t>& sizes, unsigned seed) {
  const std::size_t count = sizes.size();
  std::vector<std::vector<std::byte>> data, got;
  std::vector<Request> sends(count), recvs(count);
  std::vector<Request*> all;
  for (std::size_t i = 0; i < count; ++i) {
    data.push_back(pattern(sizes[i], seed + static_cast<unsigned>(i)));
    got.emplace_back(sizes[i]);
  }
  for (std::size_t i = 0; i < count; ++i) {
    job.p1->start_recv(recvs[i], Envelope{kCtx, 0, 1}, got[i].data(), sizes[i]);
    all.push_back(&recvs[i]);
  }
  for (std::size_t i = 0; i < count; ++i) {
    job.p0->start_send(sends[i], 1, Envelope{kCtx, 0, 1}, data[i].data(), sizes[i]);
    all.push_back(&sends[i]);
  }
  job.run(all);
  for (std::size_t i = 0; i < count; ++i) EXPECT_EQ(got[i], data[i]) << "message " << i;
}

ProtocolLimits replies_pipelined_below(std::size_t limit) {
  ProtocolLimits limits = limits_of(2048, 16384, 4096, kRndv);
  limits.reply_pipeline_limit = limit;
  return limits;
}

// One message from `from` to `to`, received intact; the receive is posted
// first, as in a ping-pong.
void send_one(TwoRanks& job, Pml& from, Pml& to, std::size_t bytes, unsigned seed) {
  const std::vector<std::byte> data = pattern(bytes, seed);
  std::vector<std::byte> got(bytes);
  Request send, recv;
  to.start_recv(recv, Envelope{kCtx, 0, 1}, got.data(), bytes);
  from.start_send(send, &to == job.p1.get() ? 1 : 0, Envelope{kCtx, 0, 1}, data.data(), bytes);
  job.run({&send, &recv});
  EXPECT_EQ(got, data) << bytes << " bytes";
}

// Rendezvous-sized replies below reply_pipeline_limit go through the ring; at the
// limit, and without a limit, by rendezvous (read by single copy).
TEST(PmlRoute, RepliesBelowTheLimitArePipelined) {
  TwoRanks job(replies_pipelined_below(5632), 64 * 1024, Copy::Cma);
  send_one(job, *job.p0, *job.p1, 4096, 1);
  send_one(job, *job.p1, *job.p0, 5631, 2);
  send_one(job, *job.p0, *job.p1, 5000, 3);
  EXPECT_EQ(job.p0->pipelined_replies(), 2U);
  EXPECT_EQ(job.p1->pipelined_replies(), 1U);
  send_one(job, *job.p1, *job.p0, 5632, 4);  // not below the limit
  send_one(job, *job.p0, *job.p1, 4095, 5);  // below the rendezvous threshold: pipelined anyway
  EXPECT_EQ(job.p0->pipelined_replies(), 2U);
  EXPECT_EQ(job.p1->pipelined_replies(), 1U);
  TwoRanks never(replies_pipelined_below(0), 64 * 1024, Copy::Cma);
  send_one(never, *never.p0, *never.p1, 4096, 6);
  send_one(never, *never.p1, *never.p0, 4096, 7);
  EXPECT_EQ(never.p0->pipelined_replies() + never.p1->pipelined_replies(), 0U);
}

// A window: only its first message replies to the peer; the rest go by
// rendezvous and are read in batches.
TEST(PmlRoute, AWindowAfterItsFirstMessageGoesByRendezvous) {
  TwoRanks job(replies_pipelined_below(5632), 64 * 1024, Copy::Cma);
  send_window(job, std::vector<std::size_t>(16, 4096), 11);
  EXPECT_EQ(job.p0->pipelined_replies(), 1U);
  EXPECT_GE(job.p1->reads_batched(), 2U);
  // A message back from the peer makes our next send a reply again.
  send_one(job, *job.p1, *job.p0, 64, 12);
  send_window(job, std::vector<std::size_t>(4, 5000), 13);
  EXPECT_EQ(job.p0->pipelined_replies(), 2U);
}

TEST(PmlRoute, EachLoneMessageIsAnEpochAndBothRoutesDeliverExactly) {
  TwoRanks job(choosing(), 64 * 1024, Copy::Cma);
  for (unsigned i = 0; i < 40; ++i) send_window(job, {kRndv + i * 3001}, i);  // up to 248 KiB
  EXPECT_EQ(job.p1->epochs_recorded(), 40U);
  EXPECT_GE(job.p1->routes_taken(Route::Stream), 1U);  // the third epoch tries it at least
  EXPECT_GE(job.p1->routes_taken(Route::SingleCopy), 2U);
  EXPECT_EQ(job.p1->routes_taken(Route::Stream) + job.p1->routes_taken(Route::SingleCopy), 40U);
}

TEST(PmlRoute, AWindowOfMessagesIsOneEpochOnOneRoute) {
  TwoRanks job(choosing(), 64 * 1024, Copy::Cma);
  const std::vector<std::size_t> window(16, kRndv);
  for (unsigned w = 0; w < 3; ++w) send_window(job, window, 10 * w);
  EXPECT_EQ(job.p1->epochs_recorded(), 3U);
  // Two epochs by single copy, then the try: all 16 of the third streamed.
  EXPECT_EQ(job.p1->routes_taken(Route::SingleCopy), 32U);
  EXPECT_EQ(job.p1->routes_taken(Route::Stream), 16U);
}

TEST(PmlRoute, AnEpochMixingSizesIsNotTimed) {
  TwoRanks job(choosing(), 64 * 1024, Copy::Cma);
  send_window(job, {kRndv, std::size_t{1} << 20, kRndv}, 1);  // 1 MiB: not a chosen size
  send_window(job, {2 * kRndv, kRndv}, 2);                    // opened by one not chosen
  EXPECT_EQ(job.p1->epochs_recorded(), 0U);
  send_window(job, {kRndv, kRndv}, 3);
  EXPECT_EQ(job.p1->epochs_recorded(), 1U);
}

// Small rendezvous messages of a window with receives posted are read in
// batches (several in one system call), byte-exact; refused, they stream.
TEST(PmlRoute, SmallRendezvousReadsOfAWindowAreBatched) {
  ProtocolLimits limits = limits_of(2048, 16384, 4096, kRndv);
  std::vector<std::size_t> sizes;
  for (std::size_t i = 0; i < 40; ++i) sizes.push_back(4096 + i * 1531);  // 4 KiB to 64 KiB
  TwoRanks job(limits, 64 * 1024, Copy::Cma);
  send_window(job, sizes, 7);
  EXPECT_GE(job.p1->reads_batched(), 2U);
  TwoRanks refused(limits, 64 * 1024, Copy::CmaRefused);
  send_window(refused, sizes, 8);
  EXPECT_EQ(refused.p1->reads_batched(), 0U);
}

// Both ways at once: while our own offers wait for the peer, its messages
// to us are copied out by single copy, never streamed (a stream would wait
// behind the peer's copies of ours), and no route is timed.
TEST(PmlRoute, MessagesBothWaysAtOnceAreNeverStreamed) {
  TwoRanks job(choosing(), 64 * 1024, Copy::Cma);
  constexpr int kWindow = 16;
  for (unsigned round = 0; round < 4; ++round) {
    std::vector<std::vector<std::byte>> out0, out1, in0, in1;
    std::vector<Request> s0(kWindow), s1(kWindow), r0(kWindow), r1(kWindow);
    std::vector<Request*> all;
    for (int i = 0; i < kWindow; ++i) {
      out0.push_back(pattern(kRndv, 100 * round + static_cast<unsigned>(i)));
      out1.push_back(pattern(kRndv, 100 * round + 50 + static_cast<unsigned>(i)));
      in0.emplace_back(kRndv);
      in1.emplace_back(kRndv);
    }
    for (int i = 0; i < kWindow; ++i) {
      job.p0->start_recv(r0[i], Envelope{kCtx, 1, 1}, in0[i].data(), kRndv);
      job.p1->start_recv(r1[i], Envelope{kCtx, 0, 1}, in1[i].data(), kRndv);
      all.insert(all.end(), {&r0[i], &r1[i], &s0[i], &s1[i]});
    }
    for (int i = 0; i < kWindow; ++i) {
      job.p0->start_send(s0[i], 1, Envelope{kCtx, 0, 1}, out0[i].data(), kRndv);
      job.p1->start_send(s1[i], 0, Envelope{kCtx, 1, 1}, out1[i].data(), kRndv);
    }
    job.run(all);
    for (int i = 0; i < kWindow; ++i) {
      EXPECT_EQ(in1[i], out0[i]) << "round " << round << " message " << i << " to rank 1";
      EXPECT_EQ(in0[i], out1[i]) << "round " << round << " message " << i << " to rank 0";
    }
  }
  for (Pml* p : {job.p0.get(), job.p1.get()}) {
    EXPECT_EQ(p->routes_taken(Route::Stream), 0U);
    EXPECT_EQ(p->epochs_recorded(), 0U);
  }
  // One way again: routes are chosen and timed again.
  for (unsigned i = 0; i < 8; ++i) send_window(job, {kRndv}, 500 + i);
  EXPECT_EQ(job.p1->epochs_recorded(), 8U);
  EXPECT_GE(job.p1->routes_taken(Route::Stream), 1U);
}

TEST(PmlRoute, ARefusedSingleCopySpoilsItsEpochAndLaterOnesStreamUnchosen) {
  TwoRanks job(choosing(), 64 * 1024, Copy::CmaRefused);
  for (unsigned i = 0; i < 5; ++i) send_window(job, {kRndv, kRndv}, i);
  EXPECT_EQ(job.p1->epochs_recorded(), 0U);
  EXPECT_EQ(job.p1->routes_taken(Route::SingleCopy), 1U);  // the first message: refused, then off
  EXPECT_EQ(job.p1->routes_taken(Route::Stream), 0U);
}

}  // namespace
}  // namespace shmpi::pml
