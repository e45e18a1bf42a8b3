// cancel / find / remove / take and node lifecycle.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <memory>
#include <new>
#include <vector>

#include "match_test_util.hpp"

namespace shmpi::pml::testing {
namespace {

TEST(PostedCancel, RemovesOnlyTheTarget) {
  for (int victim = 0; victim < 3; ++victim) {  // head, middle, tail
    PostedQueue q;
    Recv r[3] = {Recv(0, env(0, 1, 1)), Recv(1, env(0, 1, 1)), Recv(2, env(0, 1, 1))};
    for (Recv& x : r) q.post(x);
    EXPECT_TRUE(q.cancel(r[victim]));
    EXPECT_FALSE(r[victim].queued());
    EXPECT_EQ(q.size(), 2U);
    for (int i = 0; i < 3; ++i) {
      if (i != victim) {
        EXPECT_EQ(id_of(q.match(env(0, 1, 1))), i);
      }
    }
    EXPECT_EQ(q.match(env(0, 1, 1)), nullptr);
  }
}

TEST(PostedCancel, WildcardCancelRestoresFastPath) {
  PostedQueue q;
  Recv wild(1, env(0, kAnySource, kAnyTag)), exact(2, env(0, 3, 3));
  q.post(wild);
  q.post(exact);
  EXPECT_TRUE(q.cancel(wild));
  EXPECT_EQ(q.match(env(0, 4, 4)), nullptr);  // the wildcard is really gone
  EXPECT_EQ(id_of(q.match(env(0, 3, 3))), 2);
}

TEST(PostedCancel, TwiceOrNeverPostedReturnsFalse) {
  PostedQueue q;
  Recv a(1, env(0, 1, 1)), never(2, env(0, 1, 1));
  q.post(a);
  EXPECT_FALSE(q.cancel(never));
  EXPECT_TRUE(q.cancel(a));
  EXPECT_FALSE(q.cancel(a));
  EXPECT_TRUE(q.empty());
}

TEST(PostedCancel, MatchedReceiveCannotBeCancelled) {
  PostedQueue q;
  Recv a(1, env(0, kAnySource, 1));
  q.post(a);
  EXPECT_EQ(q.match(env(0, 5, 1)), &a);
  EXPECT_FALSE(q.cancel(a));
}

TEST(PostedCancel, RepostGoesToTheBack) {
  PostedQueue q;
  Recv a(1, env(0, 1, 1)), b(2, env(0, kAnySource, 1));
  q.post(a);
  q.post(b);
  const std::uint64_t first = a.stamp;
  EXPECT_TRUE(q.cancel(a));
  q.post(a);
  EXPECT_GT(a.stamp, b.stamp);
  EXPECT_GT(a.stamp, first);
  EXPECT_EQ(id_of(q.match(env(0, 1, 1))), 2);
  EXPECT_EQ(id_of(q.match(env(0, 1, 1))), 1);
}

TEST(UnexpectedFind, DoesNotRemove) {
  UnexpectedQueue q;
  Msg a(1, env(0, 2, 3));
  q.push(a);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(q.find(env(0, 2, 3)), &a);
    EXPECT_EQ(q.find(env(0, kAnySource, 3)), &a);
    EXPECT_EQ(q.find(env(0, 2, kAnyTag)), &a);
    EXPECT_EQ(q.find(env(0, kAnySource, kAnyTag)), &a);
  }
  EXPECT_EQ(q.find(env(0, 2, 4)), nullptr);
  EXPECT_EQ(q.size(), 1U);
  EXPECT_TRUE(a.queued());
}

TEST(UnexpectedFind, TakeAfterFindReturnsTheSameMessage) {
  UnexpectedQueue q;
  Msg a(1, env(0, 2, 3)), b(2, env(0, 1, 3));
  q.push(a);
  q.push(b);
  UnexpectedMsg* probed = q.find(env(0, kAnySource, 3));
  EXPECT_EQ(probed, &a);
  EXPECT_EQ(q.take(env(0, kAnySource, 3)), probed);
  EXPECT_EQ(q.find(env(0, kAnySource, 3)), &b);
}

TEST(UnexpectedRemove, FromTheMiddleKeepsEveryIndexInOrder) {
  UnexpectedQueue q;
  Msg m[5] = {Msg(0, env(0, 1, 1)), Msg(1, env(0, 1, 2)), Msg(2, env(0, 2, 1)),
              Msg(3, env(0, 1, 1)), Msg(4, env(0, 2, 2))};
  for (Msg& x : m) q.push(x);
  q.remove(m[3]);  // (1,1): middle of ctx list, tail of exact/src/tag lists
  q.remove(m[1]);
  EXPECT_FALSE(m[1].queued());
  EXPECT_EQ(q.size(), 3U);
  EXPECT_EQ(id_of(q.find(env(0, 1, kAnyTag))), 0);
  EXPECT_EQ(id_of(q.take(env(0, kAnySource, 1))), 0);
  EXPECT_EQ(q.find(env(0, 1, kAnyTag)), nullptr);
  EXPECT_EQ(id_of(q.take(env(0, kAnySource, kAnyTag))), 2);
  EXPECT_EQ(id_of(q.take(env(0, kAnySource, 2))), 4);
  EXPECT_TRUE(q.empty());
}

TEST(UnexpectedRemove, UnqueuedIsANoOp) {
  UnexpectedQueue q;
  Msg a(1, env(0, 1, 1)), b(2, env(0, 1, 1));
  q.push(a);
  q.remove(b);
  EXPECT_EQ(q.size(), 1U);
  q.remove(a);
  q.remove(a);
  EXPECT_TRUE(q.empty());
}

// find_exact_if walks one envelope's messages in arrival order: how a
// cancelled send is found to be withdrawn (pml/withdrawal.cpp).
TEST(UnexpectedFindExactIf, WalksOneEnvelopeInArrivalOrder) {
  UnexpectedQueue q;
  Msg m[5] = {Msg(0, env(0, 1, 1)), Msg(1, env(0, 1, 2)), Msg(2, env(0, 1, 1)),
              Msg(3, env(1, 1, 1)), Msg(4, env(0, 1, 1))};
  for (Msg& x : m) q.push(x);
  std::vector<int> seen;
  auto record = [&seen](const UnexpectedMsg& u) {
    seen.push_back(static_cast<const Msg&>(u).id);
    return false;
  };
  EXPECT_EQ(q.find_exact_if(env(0, 1, 1), record), nullptr);
  EXPECT_EQ(seen, (std::vector<int>{0, 2, 4}));  // not 1 (other tag) nor 3 (other context)
  auto id_is = [](int id) { return [id](const UnexpectedMsg& u) { return static_cast<const Msg&>(u).id == id; }; };
  EXPECT_EQ(q.find_exact_if(env(0, 1, 1), id_is(2)), &m[2]);
  EXPECT_EQ(q.find_exact_if(env(0, 1, 1), id_is(1)), nullptr);
  EXPECT_EQ(q.find_exact_if(env(0, 7, 7), id_is(0)), nullptr);  // no such bin
  EXPECT_EQ(q.size(), 5U);                                       // nothing removed
}

TEST(UnexpectedFindExactIf, RemovingTheFoundOneKeepsTheOthersMatchable) {
  UnexpectedQueue q;
  Msg a(0, env(0, 1, 1)), b(1, env(0, 1, 1)), c(2, env(0, 1, 1));
  q.push(a);
  q.push(b);
  q.push(c);
  UnexpectedMsg* found = q.find_exact_if(env(0, 1, 1), [&b](const UnexpectedMsg& u) { return &u == &b; });
  ASSERT_EQ(found, &b);
  q.remove(*found);
  EXPECT_EQ(id_of(q.take(env(0, kAnySource, kAnyTag))), 0);
  EXPECT_EQ(id_of(q.take(env(0, 1, kAnyTag))), 2);
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.find_exact_if(env(0, 1, 1), [](const UnexpectedMsg&) { return true; }), nullptr);
}

TEST(Stamps, IncreaseInPostAndArrivalOrder) {
  PostedQueue pq;
  UnexpectedQueue uq;
  Recv r[3] = {Recv(0, env(0, 1, 1)), Recv(1, env(0, kAnySource, 1)), Recv(2, env(0, 1, 9))};
  Msg m[3] = {Msg(0, env(0, 1, 1)), Msg(1, env(1, 2, 1)), Msg(2, env(0, 1, 9))};
  for (Recv& x : r) pq.post(x);
  for (Msg& x : m) uq.push(x);
  EXPECT_LT(r[0].stamp, r[1].stamp);
  EXPECT_LT(r[1].stamp, r[2].stamp);
  EXPECT_LT(m[0].stamp, m[1].stamp);
  EXPECT_LT(m[1].stamp, m[2].stamp);
}

TEST(Lifecycle, ClearUnlinksEverything) {
  PostedQueue pq;
  UnexpectedQueue uq;
  Recv r[3] = {Recv(0, env(0, kAnySource, 1)), Recv(1, env(0, 1, 1)), Recv(2, env(1, 1, kAnyTag))};
  Msg m[3] = {Msg(0, env(0, 1, 1)), Msg(1, env(0, 2, 1)), Msg(2, env(1, 1, 5))};
  for (Recv& x : r) pq.post(x);
  for (Msg& x : m) uq.push(x);
  pq.clear();
  uq.clear();
  EXPECT_TRUE(pq.empty());
  EXPECT_TRUE(uq.empty());
  for (Recv& x : r) EXPECT_FALSE(x.queued());
  for (Msg& x : m) EXPECT_FALSE(x.queued());
  EXPECT_EQ(pq.match(env(0, 1, 1)), nullptr);
  EXPECT_EQ(uq.find(env(0, kAnySource, kAnyTag)), nullptr);
  PostedQueue again;  // the nodes are usable in another queue
  again.post(r[0]);
  EXPECT_EQ(again.match(env(0, 3, 1)), &r[0]);
  uq.push(m[2]);
  EXPECT_EQ(uq.take(env(1, 1, 5)), &m[2]);
}

// Teardown order is free: a queue destroyed after its nodes touches none of
// them. The nodes' memory is overwritten once they are gone; a queue that
// wrote to it on destruction (unlinking) would change the pattern, one that
// followed its links would fault.
TEST(Lifecycle, NodesMayDieBeforeTheQueue) {
  constexpr unsigned char kGone = 0xa5;
  auto pq = std::make_unique<PostedQueue>();
  auto uq = std::make_unique<UnexpectedQueue>();
  alignas(Recv) unsigned char recv_memory[sizeof(Recv)];
  alignas(Msg) unsigned char msg_memory[sizeof(Msg)];
  Recv* r = new (recv_memory) Recv(1, env(0, kAnySource, 1));
  Msg* m = new (msg_memory) Msg(2, env(0, 1, 1));
  pq->post(*r);
  uq->push(*m);
  r->~Recv();
  m->~Msg();
  std::memset(recv_memory, kGone, sizeof recv_memory);
  std::memset(msg_memory, kGone, sizeof msg_memory);
  pq.reset();
  uq.reset();
  EXPECT_EQ(std::count(std::begin(recv_memory), std::end(recv_memory), kGone), static_cast<long>(sizeof(Recv)));
  EXPECT_EQ(std::count(std::begin(msg_memory), std::end(msg_memory), kGone), static_cast<long>(sizeof(Msg)));
}

TEST(Lifecycle, CopyOfAQueuedNodeIsNotQueued) {
  PostedQueue q;
  Recv a(1, env(0, 1, 1));
  q.post(a);
  Recv copy = a;
  EXPECT_TRUE(a.queued());
  EXPECT_FALSE(copy.queued());
  EXPECT_EQ(copy.want.tag, 1);
  copy = a;  // assignment leaves the target's links alone
  EXPECT_FALSE(copy.queued());
  EXPECT_EQ(q.match(env(0, 1, 1)), &a);
}

}  // namespace
}  // namespace shmpi::pml::testing
