// Pml with RunLayouts (pml/run_layout.hpp): non-contiguous sends and
// receives move without packing, one copy between the two sides' runs, in
// all four combinations when runs are long; short runs and refused copies
// are packed by the sender fragment by fragment;
// eager and pipelined payloads are unpacked straight from the ring (by a
// blocking receive's fast path too).
#include <gtest/gtest.h>

#include <vector>

#include "datatype/copy.hpp"
#include "pml_job.hpp"

namespace shmpi::pml {
namespace {

using test_job::Copy;
using test_job::kCtx;
using test_job::TwoRanks;

// A column of `rows` values of `width` bytes in a matrix of 4 of them a
// row: one element of a strided run (vector types compile to this).
struct Column {
  explicit Column(std::uint64_t rows, std::uint64_t value_bytes = 8)
      : width(value_bytes), bytes(rows * 4 * value_bytes, std::byte{0xEE}) {
    program.ops = {datatype::Op{0, static_cast<datatype::Offset>(4 * width), rows, width, 0, false}};
    program.size = rows * width;
  }
  RunLayout layout() { return describe_runs(program, 1, static_cast<std::int64_t>(bytes.size()), bytes.data()); }
  std::uint64_t width;
  datatype::Program program;
  std::vector<std::byte> bytes;
};

// The packed stream of a column.
std::vector<std::byte> packed(const Column& column) {
  datatype::Cursor cursor(column.program, 1, 0);
  std::vector<std::byte> out(cursor.total());
  datatype::pack(cursor, column.bytes.data(), out.data(), out.size());
  return out;
}

// Every value of the column is the stream, and every gap is still 0xEE.
void expect_column(const Column& column, const std::vector<std::byte>& stream) {
  ASSERT_EQ(packed(column), stream);
  for (std::size_t i = 0; i < column.bytes.size(); ++i)
    if (i % (4 * column.width) >= column.width) {
      ASSERT_EQ(column.bytes[i], std::byte{0xEE}) << "gap byte " << i;
    }
}

Column column_of(const std::vector<std::byte>& stream, std::uint64_t width = 8) {
  Column c(stream.size() / width, width);
  for (std::size_t row = 0; row < stream.size() / width; ++row)
    std::memcpy(&c.bytes[row * 4 * width], &stream[row * width], width);
  return c;
}

constexpr std::uint64_t kRows = 40000;  // of 8 bytes, 320 KiB: rendezvous, and more runs than one batch takes
// Values long enough to be copied run to run (pml/run_copies.cpp streams
// shorter ones), more of them than one batch takes.
constexpr std::uint64_t kLongWidth = 1024, kLongRows = 1100;

struct Sides {
  bool send_runs, recv_runs;
};

// Sends a stream from rank 0 to rank 1, each side contiguous or a column
// of `width`-byte values.
void exchange(TwoRanks& job, Sides sides, const std::vector<std::byte>& stream, std::uint64_t width = 8) {
  Column from = column_of(stream, width), to(stream.size() / width, width);
  const RunLayout send_layout = from.layout(), recv_layout = to.layout();
  std::vector<std::byte> flat_in(stream.size(), std::byte{0xEE});
  Request send, recv;
  job.p1->start_recv(recv, Envelope{kCtx, 0, 3}, flat_in.data(), stream.size(),
                     sides.recv_runs ? &recv_layout : nullptr);
  job.p0->start_send(send, 1, Envelope{kCtx, 0, 3}, stream.data(), stream.size(), SendMode::Standard,
                     sides.send_runs ? &send_layout : nullptr);
  job.run({&send, &recv});
  EXPECT_EQ(recv.status.bytes, stream.size());
  if (sides.recv_runs) {
    expect_column(to, stream);
  } else {
    EXPECT_EQ(flat_in, stream);
  }
}

// The three exchanges with runs on one side or both.
void exchange_runs(TwoRanks& job, const std::vector<std::byte>& stream, std::uint64_t width = 8) {
  exchange(job, {true, false}, stream, width);
  exchange(job, {false, true}, stream, width);
  exchange(job, {true, true}, stream, width);
}

TEST(PmlRuns, EachCombinationIsOneCopyBetweenRuns) {
  const auto stream = test_job::pattern(kLongRows * kLongWidth, 4);
  TwoRanks job(test_job::default_limits(), 64 * 1024, Copy::Cma);
  exchange_runs(job, stream, kLongWidth);
  if (!job.c1.enabled()) GTEST_SKIP() << "CMA is not permitted here";
  EXPECT_EQ(job.p1->run_copies(), 3U);
  exchange(job, {false, false}, stream);  // contiguous: the usual path
  EXPECT_EQ(job.p1->run_copies(), 3U);
  EXPECT_EQ(job.p1->stats().totals()[Protocol::SingleCopy].messages, 4U);
}

// From split_threshold the sender writes the second half of the stream run
// to run while the receiver reads the first: both cores copy.
TEST(PmlRuns, LargeCopiesAreSplitWithTheSender) {
  const auto stream = test_job::pattern(kLongRows * kLongWidth, 11);
  TwoRanks job(test_job::limits_of(4096, 16384, 16384, 65536), 64 * 1024, Copy::Cma);
  exchange_runs(job, stream, kLongWidth);
  if (!job.c1.enabled()) GTEST_SKIP() << "CMA is not permitted here";
  EXPECT_EQ(job.p1->run_copies(), 3U);
  EXPECT_EQ(job.p1->stats().totals()[Protocol::Split].messages, 3U);
  EXPECT_EQ(job.p0->split_parts_written(), 3U);
}

// The sender's half fails: the receiver has the whole message streamed.
TEST(PmlRuns, ASplitTheSenderCannotWriteIsStreamed) {
  const auto stream = test_job::pattern(kLongRows * kLongWidth, 12);
  for (const Sides sides : {Sides{true, false}, Sides{false, true}, Sides{true, true}}) {
    TwoRanks job(test_job::limits_of(4096, 16384, 16384, 65536), 64 * 1024, Copy::CmaRefusedToRank0);
    exchange(job, sides, stream, kLongWidth);
    if (!job.c1.enabled()) GTEST_SKIP() << "CMA is not permitted here";
    EXPECT_EQ(job.p0->split_parts_written(), 0U);
    EXPECT_EQ(job.p1->stats().totals()[Protocol::Streamed].messages, 1U);
    EXPECT_EQ(job.p1->run_copies(), 0U);
  }
}

// A split of a truncated receive: the sender writes up to the receive's
// end, not the message's.
TEST(PmlRuns, ASplitTruncatedReceiveFillsItsRunsAndNoMore) {
  const auto stream = test_job::pattern(kLongRows * kLongWidth, 13);
  TwoRanks job(test_job::limits_of(4096, 16384, 16384, 65536), 64 * 1024, Copy::Cma);
  Column from = column_of(stream, kLongWidth), to(kLongRows / 2, kLongWidth);
  const RunLayout send_layout = from.layout(), recv_layout = to.layout();
  Request send, recv;
  job.p1->start_recv(recv, Envelope{kCtx, 0, 7}, nullptr, stream.size() / 2, &recv_layout);
  job.p0->start_send(send, 1, Envelope{kCtx, 0, 7}, nullptr, stream.size(), SendMode::Standard, &send_layout);
  job.run({&send, &recv});
  EXPECT_EQ(recv.status.result, Completion::Truncated);
  expect_column(to, std::vector<std::byte>(stream.begin(), stream.begin() + stream.size() / 2));
  if (!job.c1.enabled()) GTEST_SKIP() << "CMA is not permitted here";
  EXPECT_EQ(job.p1->stats().totals()[Protocol::Split].messages, 1U);
}

// 8-byte runs: a system call's page walk per run costs more than packing.
TEST(PmlRuns, ShortRunsAreStreamed) {
  const auto stream = test_job::pattern(kRows * 8, 5);
  TwoRanks job(test_job::default_limits(), 64 * 1024, Copy::Cma);
  exchange_runs(job, stream);
  if (!job.c1.enabled()) GTEST_SKIP() << "CMA is not permitted here";
  EXPECT_EQ(job.p1->run_copies(), 0U);
  EXPECT_EQ(job.p1->stats().totals()[Protocol::Streamed].messages, 3U);
}

TEST(PmlRuns, RefusedTheSenderPacksEachFragment) {
  const auto stream = test_job::pattern(kRows * 8, 6);
  TwoRanks job(test_job::default_limits(), 64 * 1024, Copy::CmaRefused);
  exchange_runs(job, stream);
  EXPECT_EQ(job.p1->run_copies(), 0U);
  EXPECT_EQ(job.p1->stats().totals()[Protocol::Streamed].messages, 3U);
}

TEST(PmlRuns, EagerAndPipelinedPayloadsLandInTheRuns) {
  TwoRanks job;  // streamed rendezvous, eager up to 4 KiB, pipelined below 16 KiB
  for (const std::size_t bytes : {std::size_t{8}, std::size_t{1000}, std::size_t{12000}, std::size_t{48000}}) {
    const auto stream = test_job::pattern(bytes, static_cast<unsigned>(bytes));
    exchange(job, {false, true}, stream);
  }
}

// A blocking receive's fast path (Pml::try_receive_now) scatters an eager
// message from the box or the ring straight into the runs, gaps untouched.
TEST(PmlRuns, ReceiveNowScattersAnEagerMessageIntoTheRuns) {
  TwoRanks job;
  for (const std::size_t bytes : {std::size_t{16}, std::size_t{1000}, std::size_t{4000}}) {
    const auto stream = test_job::pattern(bytes, static_cast<unsigned>(bytes) + 1);
    Column to(bytes / 8);
    const RunLayout layout = to.layout();
    Request send;
    job.p0->start_send(send, 1, Envelope{kCtx, 0, 6}, stream.data(), stream.size());
    Status status;
    ASSERT_TRUE(job.p1->try_receive_now(0, Envelope{kCtx, 0, 6}, layout, bytes, status)) << bytes;
    EXPECT_EQ(status.bytes, bytes);
    EXPECT_EQ(job.p1->unexpected_count(), 0U);
    expect_column(to, stream);
  }
}

TEST(PmlRuns, AnUnexpectedOfferIsReadIntoTheRunsWhenTheReceiveComes) {
  const auto stream = test_job::pattern(kRows * 8, 8);
  TwoRanks job(test_job::default_limits(), 64 * 1024, Copy::Cma);
  Column from = column_of(stream), to(kRows);
  const RunLayout send_layout = from.layout(), recv_layout = to.layout();
  Request send, recv;
  job.p0->start_send(send, 1, Envelope{kCtx, 0, 4}, nullptr, stream.size(), SendMode::Synchronous, &send_layout);
  for (int i = 0; i < 100; ++i) job.p1->progress();
  EXPECT_EQ(job.p1->unexpected_count(), 1U);
  job.p1->start_recv(recv, Envelope{kCtx, 0, 4}, nullptr, stream.size(), &recv_layout);
  job.run({&send, &recv});
  expect_column(to, stream);
}

TEST(PmlRuns, ATruncatedReceiveFillsItsRunsAndNoMore) {
  const auto stream = test_job::pattern(kRows * 8, 10);
  TwoRanks job(test_job::default_limits(), 64 * 1024, Copy::Cma);
  Column to(kRows / 2);
  const RunLayout recv_layout = to.layout();
  Request send, recv;
  job.p1->start_recv(recv, Envelope{kCtx, 0, 5}, nullptr, kRows * 4, &recv_layout);
  job.p0->start_send(send, 1, Envelope{kCtx, 0, 5}, stream.data(), stream.size());
  job.run({&send, &recv});
  EXPECT_EQ(recv.status.result, Completion::Truncated);
  expect_column(to, std::vector<std::byte>(stream.begin(), stream.begin() + kRows * 4));
}

}  // namespace
}  // namespace shmpi::pml
