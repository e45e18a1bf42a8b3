#include "deadlock.hpp"

#include <gtest/gtest.h>

#include <cstdio>

#include "hang_report.hpp"

namespace shmpi::launcher {
namespace {

using S = WaitRecord::State;
WaitRecord blocked(int peer, int tag) { return {S::Blocked, "MPI_Recv", peer, tag}; }
WaitRecord running() { return {S::Running, "", -2, -1}; }

TEST(Deadlock, TwoRanksWaitingForEachOther) {
  std::vector<WaitRecord> r = {blocked(1, 7), blocked(0, 8)};
  auto cycles = find_wait_cycles(r);
  ASSERT_EQ(cycles.size(), 1u);
  EXPECT_EQ(cycles[0], (std::vector<int>{0, 1}));
  EXPECT_EQ(describe_cycle(r, cycles[0]),
            "deadlock: rank 0 waits in MPI_Recv for rank 1 (tag 7); rank 1 waits in MPI_Recv for rank 0 (tag 8)");
}

TEST(Deadlock, ThreeRankCycleStartsAtSmallestRank) {
  std::vector<WaitRecord> r = {blocked(2, 1), blocked(0, -1), blocked(1, 3)};
  auto cycles = find_wait_cycles(r);
  ASSERT_EQ(cycles.size(), 1u);
  EXPECT_EQ(cycles[0], (std::vector<int>{0, 2, 1}));
  EXPECT_EQ(describe_cycle(r, cycles[0]),
            "deadlock: rank 0 waits in MPI_Recv for rank 2 (tag 1); rank 2 waits in MPI_Recv for rank 1 "
            "(tag 3); rank 1 waits in MPI_Recv for rank 0 (any tag)");
}

TEST(Deadlock, ChainIntoCycleReportsOnlyTheCycle) {
  // 0 -> 1 -> 2 -> 1: rank 0 is stuck behind the cycle {1, 2}
  std::vector<WaitRecord> r = {blocked(1, 0), blocked(2, 0), blocked(1, 0)};
  auto cycles = find_wait_cycles(r);
  ASSERT_EQ(cycles.size(), 1u);
  EXPECT_EQ(cycles[0], (std::vector<int>{1, 2}));
}

TEST(Deadlock, TwoSeparateCyclesAndASelfWait) {
  std::vector<WaitRecord> r = {blocked(1, 0), blocked(0, 0), blocked(3, 0), blocked(2, 0), blocked(4, 0)};
  auto cycles = find_wait_cycles(r);
  ASSERT_EQ(cycles.size(), 3u);
  EXPECT_EQ(cycles[0], (std::vector<int>{0, 1}));
  EXPECT_EQ(cycles[1], (std::vector<int>{2, 3}));
  EXPECT_EQ(cycles[2], (std::vector<int>{4}));
}

TEST(Deadlock, NoCycleWhenSomeoneRunsOrWaitsForAnySource) {
  EXPECT_TRUE(find_wait_cycles(std::vector<WaitRecord>{blocked(1, 0), running()}).empty());
  EXPECT_TRUE(find_wait_cycles(std::vector<WaitRecord>{blocked(-1, 0), blocked(0, 0)}).empty());
  EXPECT_TRUE(find_wait_cycles(std::vector<WaitRecord>{blocked(5, 0), blocked(0, 0)}).empty());  // bad peer
  EXPECT_TRUE(find_wait_cycles(std::vector<WaitRecord>{}).empty());
}

TEST(Deadlock, WaitOnFinishedRank) {
  std::vector<WaitRecord> r = {blocked(1, 4), {S::Gone, "", -2, -1}};
  EXPECT_EQ(describe_waits_on_gone(r),
            std::vector<std::string>{"stuck: rank 0 waits in MPI_Recv for rank 1 (tag 4), which has finished"});
}

TEST(HangReport, TableAndVerdict) {
  RankSnapshot s;
  s.state = contract::RankState::Blocked;
  s.call = "MPI_Recv";
  s.peer = 1;
  s.tag = 7;
  s.count = 8;
  s.since_ns = 1'000'000'000;
  RankSnapshot t = s;
  t.peer = 0;
  t.tag = 8;
  std::vector<ReportRow> rows = {{0, 100, false, s}, {1, 101, false, t}};
  std::string report = format_hang_report(rows, 3'500'000'000);
  EXPECT_NE(report.find("shmpirun: hang report for 2 ranks\n"), std::string::npos);
  EXPECT_NE(report.find("blocked      MPI_Recv"), std::string::npos);
  EXPECT_NE(report.find("2.500"), std::string::npos);
  EXPECT_NE(report.find("deadlock: rank 0 waits in MPI_Recv for rank 1 (tag 7); rank 1 waits"), std::string::npos);
}

TEST(StatusPage, SeqlockReaderCopiesEvenAndFlagsOddRecords) {
  contract::RankStatus record{};
  record.sequence.store(2);
  record.state = static_cast<std::uint32_t>(contract::RankState::Blocked);
  std::snprintf(record.call, sizeof record.call, "MPI_Ssend");
  record.peer = 3;
  record.outstanding = 2;
  RankSnapshot snap = read_status(record);
  EXPECT_TRUE(snap.consistent);
  EXPECT_EQ(snap.state, contract::RankState::Blocked);
  EXPECT_EQ(snap.call, "MPI_Ssend");
  EXPECT_EQ(snap.peer, 3);
  EXPECT_EQ(snap.outstanding, 2u);
  record.sequence.store(3);  // a writer that died mid-update
  EXPECT_FALSE(read_status(record).consistent);
}

}  // namespace
}  // namespace shmpi::launcher
