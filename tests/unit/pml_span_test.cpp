// Unit tests of spanning messages (kSpans, Pml::start_spanning_send and
// start_spanned_recv): a message that fills the receive it matches and the
// receives posted for the tags just below its own, as a partitioned
// transfer's ready partitions do (runtime/partitioned.hpp). Every protocol
// (eager, pipelined, rendezvous streamed or by single copy), with the
// receives posted first or the messages waiting first, and the sender's
// next round right behind.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <vector>

#include "pml/pml.hpp"
#include "tests/unit/pml_job.hpp"

namespace shmpi::pml {
namespace {
using namespace shmpi::pml::test_job;

constexpr int kParts = 4;
constexpr std::int32_t kFirstTag = -10;  // partition i has tag kFirstTag - i

Envelope part_envelope(int i) { return Envelope{kCtx, 0, kFirstTag - i}; }

struct Case {
  std::size_t unit;  // bytes per partition
  Copy copy;
};

class PmlSpan : public ::testing::TestWithParam<Case> {
 protected:
  PmlSpan() : job(default_limits(), 64 * 1024, GetParam().copy), unit(GetParam().unit) {}

  // The partition after parts[i] and the ones its message also filled.
  static int next_part(const std::array<Request, kParts>& parts, int i) {
    return i + 1 + static_cast<int>(parts[i].spanned);
  }
  // One round of the receiver: a receive per partition not yet filled by
  // an earlier one's message, each with room to the end of the buffer.
  void post_round(std::vector<std::byte>& buffer, std::array<Request, kParts>& parts) {
    for (int i = 0; i < kParts; i = next_part(parts, i)) {
      const std::size_t at = static_cast<std::size_t>(i) * unit;
      job.p1->start_spanned_recv(parts[i], part_envelope(i), buffer.data() + at, buffer.size() - at, unit);
    }
  }
  // The receives that got messages, in order: partition index and its span.
  std::vector<std::pair<int, std::uint32_t>> leaders(const std::array<Request, kParts>& parts) const {
    std::vector<std::pair<int, std::uint32_t>> out;
    for (int i = 0; i < kParts; i = next_part(parts, i)) out.emplace_back(i, parts[i].spanned);
    return out;
  }
  void run_leaders(std::array<Request, kParts>& parts) {
    std::vector<Request*> waited;
    for (auto [i, span] : leaders(parts)) waited.push_back(&parts[static_cast<std::size_t>(i)]);
    job.run(waited);
  }
  // Sends partitions [first, end) of `data` as one message (spanning when more than one).
  void send(Request& r, const std::vector<std::byte>& data, int first, int end) {
    const std::byte* from = data.data() + static_cast<std::size_t>(first) * unit;
    const std::size_t bytes = static_cast<std::size_t>(end - first) * unit;
    if (end - first > 1)
      job.p0->start_spanning_send(r, 1, part_envelope(first), from, bytes);
    else
      job.p0->start_send(r, 1, part_envelope(first), from, bytes);
  }

  TwoRanks job;
  std::size_t unit;
};

// Receives posted first. Round 1's message for partition 1 follows round
// 0's span of partitions 0-2 at once: it must not land in round 0's
// receive for partition 1, which the span filled.
TEST_P(PmlSpan, PostedReceivesTakenWhenTheSpanMatches) {
  const std::size_t total = kParts * unit;
  auto round0 = pattern(total, 1);
  auto round1 = pattern(total, 2);
  std::vector<std::byte> got(total);
  std::array<Request, kParts> parts{};
  post_round(got, parts);
  Request a, b, c, d, e;
  send(a, round0, 0, 3);
  send(b, round0, 3, 4);
  send(c, round1, 1, 2);  // the next round runs ahead
  send(d, round1, 0, 1);
  send(e, round1, 2, 4);
  run_leaders(parts);
  ASSERT_EQ(leaders(parts), (std::vector<std::pair<int, std::uint32_t>>{{0, 2}, {3, 0}}));
  EXPECT_EQ(parts[0].status.bytes, 3 * unit);
  EXPECT_EQ(parts[3].status.bytes, unit);
  EXPECT_EQ(got, round0);
  // Round 1: partition 0 alone, 1 alone (it arrived first), 2-3 spanned.
  std::vector<std::byte> next(total);
  std::array<Request, kParts> parts1{};
  post_round(next, parts1);
  run_leaders(parts1);
  job.run({&a, &b, &c, &d, &e});
  EXPECT_EQ(leaders(parts1), (std::vector<std::pair<int, std::uint32_t>>{{0, 0}, {1, 0}, {2, 1}}));
  EXPECT_EQ(next, round1);
  EXPECT_EQ(job.p1->unexpected_count(), 0u);
}

// Messages first: the receive of partition 0 takes the waiting span and
// says how many partitions it filled, so their receives are not posted.
TEST_P(PmlSpan, WaitingSpanSkipsTheReceivesItFills) {
  const std::size_t total = kParts * unit;
  auto round0 = pattern(total, 5);
  auto round1 = pattern(total, 6);
  Request a, b, c;
  send(a, round0, 0, 2);
  send(b, round0, 2, 4);
  send(c, round1, 0, 4);
  for (int i = 0; i < 8; ++i) {  // offers or messages arrive, unexpected
    job.p0->progress();
    job.p1->progress();
  }
  std::vector<std::byte> got(total);
  std::array<Request, kParts> parts{};
  post_round(got, parts);
  run_leaders(parts);
  EXPECT_EQ(leaders(parts), (std::vector<std::pair<int, std::uint32_t>>{{0, 1}, {2, 1}}));
  EXPECT_EQ(got, round0);
  std::vector<std::byte> next(total);
  std::array<Request, kParts> parts1{};
  post_round(next, parts1);
  run_leaders(parts1);
  job.run({&a, &b, &c});
  EXPECT_EQ(leaders(parts1), (std::vector<std::pair<int, std::uint32_t>>{{0, 3}}));
  EXPECT_EQ(next, round1);
}

// 100-byte units: eager spans; 3000: pipelined (eager limit 4096);
// 8192: rendezvous from two units (threshold 16384), streamed or copied.
INSTANTIATE_TEST_SUITE_P(Protocols, PmlSpan,
                         ::testing::Values(Case{100, Copy::Streamed}, Case{3000, Copy::Streamed},
                                           Case{8192, Copy::Streamed}, Case{8192, Copy::Cma}),
                         [](const ::testing::TestParamInfo<Case>& p) {
                           return std::to_string(p.param.unit) + (p.param.copy == Copy::Cma ? "_cma" : "_streamed");
                         });

}  // namespace
}  // namespace shmpi::pml
