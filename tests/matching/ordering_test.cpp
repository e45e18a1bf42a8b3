// The MPI ordering rules, one at a time, with and without wildcards.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "match_test_util.hpp"

namespace shmpi::pml::testing {
namespace {

// ------------------------------------------------------ posted receives

TEST(PostedOrdering, FifoPerSourceAndTag) {
  PostedQueue q;
  Recv r1(1, env(0, 3, 7)), r2(2, env(0, 3, 7)), r3(3, env(0, 3, 7));
  q.post(r1);
  q.post(r2);
  q.post(r3);
  EXPECT_EQ(id_of(q.match(env(0, 3, 7))), 1);
  EXPECT_EQ(id_of(q.match(env(0, 3, 7))), 2);
  EXPECT_EQ(id_of(q.match(env(0, 3, 7))), 3);
  EXPECT_EQ(q.match(env(0, 3, 7)), nullptr);
  EXPECT_TRUE(q.empty());
}

TEST(PostedOrdering, OnlyMatchingSourceAndTag) {
  PostedQueue q;
  Recv a(1, env(0, 1, 5)), b(2, env(0, 2, 5)), c(3, env(0, 1, 6));
  q.post(a);
  q.post(b);
  q.post(c);
  EXPECT_EQ(q.match(env(0, 3, 5)), nullptr);
  EXPECT_EQ(q.match(env(0, 1, 7)), nullptr);
  EXPECT_EQ(id_of(q.match(env(0, 1, 6))), 3);
  EXPECT_EQ(id_of(q.match(env(0, 2, 5))), 2);
  EXPECT_EQ(id_of(q.match(env(0, 1, 5))), 1);
  EXPECT_EQ(q.size(), 0U);
}

// Earliest-posted wins between an exact receive and each kind of wildcard
// receive, in both posting orders.
class ExactVersusWildcard
    : public ::testing::TestWithParam<std::tuple<Envelope, bool>> {};

TEST_P(ExactVersusWildcard, EarliestPostedWins) {
  const auto [wild, exact_first] = GetParam();
  PostedQueue q;
  Recv exact(1, env(0, 4, 9)), wildcard(2, wild);
  if (exact_first) {
    q.post(exact);
    q.post(wildcard);
  } else {
    q.post(wildcard);
    q.post(exact);
  }
  EXPECT_EQ(id_of(q.match(env(0, 4, 9))), exact_first ? 1 : 2);
  EXPECT_EQ(id_of(q.match(env(0, 4, 9))), exact_first ? 2 : 1);
  EXPECT_EQ(q.match(env(0, 4, 9)), nullptr);
}

INSTANTIATE_TEST_SUITE_P(
    AllWildcards, ExactVersusWildcard,
    ::testing::Combine(::testing::Values(Envelope{0, kAnySource, 9}, Envelope{0, 4, kAnyTag},
                                         Envelope{0, kAnySource, kAnyTag}),
                       ::testing::Bool()));

TEST(PostedOrdering, FourClassesMatchInPostingOrder) {
  // Post one receive of each class, in every one of the 24 orders; messages
  // that all four accept must take them in posting order.
  const Envelope patterns[4] = {env(0, 2, 3), env(0, 2, kAnyTag), env(0, kAnySource, 3),
                                env(0, kAnySource, kAnyTag)};
  std::vector<int> order = {0, 1, 2, 3};
  do {
    PostedQueue q;
    std::vector<Recv> recvs;
    recvs.reserve(4);
    for (int i : order) recvs.emplace_back(i, patterns[i]);
    for (Recv& r : recvs) q.post(r);
    for (int i : order) EXPECT_EQ(id_of(q.match(env(0, 2, 3))), i);
    EXPECT_TRUE(q.empty());
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST(PostedOrdering, WildcardSkipsToLaterExactForOtherSender) {
  PostedQueue q;
  Recv any_src(1, env(0, kAnySource, 5)), exact(2, env(0, 1, 5)), any_tag(3, env(0, 2, kAnyTag));
  q.post(any_src);
  q.post(exact);
  q.post(any_tag);
  // From rank 2 tag 5: both any_src and any_tag match; any_src is older.
  EXPECT_EQ(id_of(q.match(env(0, 2, 5))), 1);
  // From rank 1 tag 5: exact now.
  EXPECT_EQ(id_of(q.match(env(0, 1, 5))), 2);
  EXPECT_EQ(q.match(env(0, 1, 5)), nullptr);
  EXPECT_EQ(id_of(q.match(env(0, 2, 99))), 3);
}

TEST(PostedOrdering, ContextsNeverMatch) {
  PostedQueue q;
  Recv a(1, env(1, kAnySource, kAnyTag)), b(2, env(1, 0, 0)), c(3, env(1, kAnySource, 0)),
      d(4, env(1, 0, kAnyTag));
  q.post(a);
  q.post(b);
  q.post(c);
  q.post(d);
  EXPECT_EQ(q.match(env(2, 0, 0)), nullptr);
  EXPECT_EQ(q.match(env(0, 0, 0)), nullptr);
  EXPECT_EQ(q.size(), 4U);
  EXPECT_EQ(id_of(q.match(env(1, 0, 0))), 1);
}

TEST(PostedOrdering, LargeContextIdsAndRanks) {
  PostedQueue q;
  Recv a(1, env(0xFFFFFFFFU, 0x7FFFFFFF, 0x7FFFFFFF)), b(2, env(0xFFFFFFFEU, 0x7FFFFFFF, 0x7FFFFFFF));
  q.post(a);
  q.post(b);
  EXPECT_EQ(id_of(q.match(env(0xFFFFFFFEU, 0x7FFFFFFF, 0x7FFFFFFF))), 2);
  EXPECT_EQ(id_of(q.match(env(0xFFFFFFFFU, 0x7FFFFFFF, 0x7FFFFFFF))), 1);
}

// --------------------------------------------------- unexpected messages

TEST(UnexpectedOrdering, FifoPerSourceAndTag) {
  UnexpectedQueue q;
  Msg m1(1, env(0, 3, 7)), m2(2, env(0, 3, 7)), m3(3, env(0, 3, 7));
  q.push(m1);
  q.push(m2);
  q.push(m3);
  EXPECT_EQ(id_of(q.take(env(0, 3, 7))), 1);
  EXPECT_EQ(id_of(q.take(env(0, 3, 7))), 2);
  EXPECT_EQ(id_of(q.take(env(0, 3, 7))), 3);
  EXPECT_EQ(q.take(env(0, 3, 7)), nullptr);
}

TEST(UnexpectedOrdering, AnySourcePicksEarliestArrivalAcrossSources) {
  UnexpectedQueue q;
  Msg a(1, env(0, 5, 1)), b(2, env(0, 2, 1)), c(3, env(0, 9, 1)), d(4, env(0, 2, 2));
  for (Msg* m : {&a, &b, &c, &d}) q.push(*m);
  EXPECT_EQ(id_of(q.take(env(0, kAnySource, 1))), 1);
  EXPECT_EQ(id_of(q.take(env(0, kAnySource, 1))), 2);
  EXPECT_EQ(id_of(q.take(env(0, kAnySource, 1))), 3);
  EXPECT_EQ(q.take(env(0, kAnySource, 1)), nullptr);
  EXPECT_EQ(id_of(q.take(env(0, kAnySource, 2))), 4);
}

TEST(UnexpectedOrdering, AnyTagPicksEarliestArrivalFromThatSource) {
  UnexpectedQueue q;
  Msg a(1, env(0, 1, 30)), b(2, env(0, 2, 10)), c(3, env(0, 1, 20)), d(4, env(0, 1, 10));
  for (Msg* m : {&a, &b, &c, &d}) q.push(*m);
  EXPECT_EQ(id_of(q.take(env(0, 1, kAnyTag))), 1);
  EXPECT_EQ(id_of(q.take(env(0, 1, kAnyTag))), 3);
  EXPECT_EQ(id_of(q.take(env(0, 1, kAnyTag))), 4);
  EXPECT_EQ(q.take(env(0, 1, kAnyTag)), nullptr);
  EXPECT_EQ(id_of(q.take(env(0, 2, kAnyTag))), 2);
}

TEST(UnexpectedOrdering, AnySourceAnyTagIsArrivalOrder) {
  UnexpectedQueue q;
  std::vector<Msg> msgs;
  msgs.reserve(20);
  for (int i = 0; i < 20; ++i) msgs.emplace_back(i, env(0, (i * 7) % 5, (i * 3) % 4));
  for (Msg& m : msgs) q.push(m);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(id_of(q.take(env(0, kAnySource, kAnyTag))), i);
  EXPECT_TRUE(q.empty());
}

TEST(UnexpectedOrdering, ExactTakeLeavesWildcardOrderOfTheRest) {
  UnexpectedQueue q;
  Msg a(1, env(0, 1, 1)), b(2, env(0, 2, 2)), c(3, env(0, 1, 2));
  for (Msg* m : {&a, &b, &c}) q.push(*m);
  EXPECT_EQ(id_of(q.take(env(0, 2, 2))), 2);  // from the middle of every index
  EXPECT_EQ(id_of(q.take(env(0, kAnySource, 2))), 3);
  EXPECT_EQ(id_of(q.take(env(0, kAnySource, kAnyTag))), 1);
  EXPECT_TRUE(q.empty());
}

TEST(UnexpectedOrdering, ContextsNeverMatch) {
  UnexpectedQueue q;
  Msg a(1, env(1, 0, 0)), b(2, env(2, 0, 0));
  q.push(a);
  q.push(b);
  EXPECT_EQ(id_of(q.take(env(2, kAnySource, kAnyTag))), 2);
  EXPECT_EQ(q.take(env(2, kAnySource, kAnyTag)), nullptr);
  EXPECT_EQ(q.take(env(0, 0, 0)), nullptr);
  EXPECT_EQ(q.find(env(3, kAnySource, kAnyTag)), nullptr);
  EXPECT_EQ(id_of(q.take(env(1, kAnySource, kAnyTag))), 1);
}

// ------------------------------------------------- both queues together

TEST(Interleaving, PmlFlowFollowsMpiOrder) {
  MatchingRank rank;
  Recv r_any(1, env(0, kAnySource, kAnyTag)), r_exact(2, env(0, 1, 5)),
      r_tag(3, env(0, kAnySource, 5)), r_late(4, env(0, 1, kAnyTag));
  Msg m_a(10, env(0, 1, 5)), m_b(11, env(0, 2, 5)), m_c(12, env(0, 1, 5)), m_d(13, env(0, 1, 6)),
      m_e(14, env(0, 3, 6));

  EXPECT_EQ(rank.receive(r_any), nullptr);
  EXPECT_EQ(rank.receive(r_exact), nullptr);
  EXPECT_EQ(rank.arrive(m_a), &r_any);     // oldest receive wins
  EXPECT_EQ(rank.arrive(m_b), nullptr);    // r_exact wants source 1
  EXPECT_EQ(rank.receive(r_tag), &m_b);    // took the unexpected one
  EXPECT_EQ(rank.arrive(m_c), &r_exact);
  EXPECT_EQ(rank.arrive(m_d), nullptr);
  EXPECT_EQ(rank.arrive(m_e), nullptr);
  EXPECT_EQ(rank.unexpected.size(), 2U);
  EXPECT_EQ(rank.receive(r_late), &m_d);   // source 1, any tag
  EXPECT_EQ(id_of(rank.unexpected.take(env(0, kAnySource, kAnyTag))), 14);
  EXPECT_TRUE(rank.posted.empty());
  EXPECT_TRUE(rank.unexpected.empty());
}

TEST(Interleaving, PostMatchAlternationReusesNodes) {
  MatchingRank rank;
  Recv r(1, env(0, 0, 0));
  Msg m(2, env(0, 0, 0));
  for (int round = 0; round < 1000; ++round) {
    r.want = round % 3 == 0 ? env(0, kAnySource, round % 7) : env(0, 0, round % 7);
    m.env = env(0, 0, round % 7);
    if (round % 2 == 0) {
      ASSERT_EQ(rank.receive(r), nullptr);
      ASSERT_EQ(rank.arrive(m), &r);
    } else {
      ASSERT_EQ(rank.arrive(m), nullptr);
      ASSERT_EQ(rank.receive(r), &m);
    }
    ASSERT_FALSE(r.queued());
    ASSERT_FALSE(m.queued());
  }
}

}  // namespace
}  // namespace shmpi::pml::testing
