// datatype::next_run_pairs / copy_run_pairs (the batches of a single copy
// between two layouts) and btl::SingleCopy::read_runs, on this process.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "btl/single_copy.hpp"
#include "datatype/copy.hpp"
#include "datatype/run_pairs.hpp"

namespace shmpi::datatype {
namespace {

// `count` runs of `bytes`, `stride` apart: one element.
Program strided(std::uint64_t count, std::uint64_t bytes, Offset stride) {
  Program p;
  p.ops = {Op{0, stride, count, bytes, 0, false}};
  p.size = count * bytes;
  return p;
}

std::vector<std::byte> pattern(std::size_t n, unsigned seed) {
  std::vector<std::byte> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::byte>((seed + i * 7 + (i >> 8)) & 0xff);
  return v;
}

// What copying the stream of `from` (over `src`) into `to` (over a copy of
// `dst`) must give: pack, then unpack.
std::vector<std::byte> packed_then_unpacked(const Program& from, const std::vector<std::byte>& src, const Program& to,
                                            std::vector<std::byte> dst) {
  Cursor a(from, 1, 0);
  std::vector<std::byte> stream(a.total());
  pack(a, src.data(), stream.data(), a.total());
  Cursor b(to, 1, 0);
  unpack(b, stream.data(), dst.data(), stream.size());
  return dst;
}

std::uint64_t covered(const iovec* iov, std::size_t n) {
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < n; ++i) total += iov[i].iov_len;
  return total;
}

TEST(RunPairs, AColumnPairsWithOneContiguousRun) {
  const Program column = strided(100, 8, 32);
  const Program flat = strided(1, 800, 0);
  std::vector<std::byte> mine(100 * 32);
  std::vector<std::byte> theirs(800);
  Cursor local(column, 1, 0), remote(flat, 1, 0);
  RunPairs pairs;
  ASSERT_EQ(next_run_pairs(local, mine.data(), remote, reinterpret_cast<std::uintptr_t>(theirs.data()), 1 << 20, pairs),
            800U);
  EXPECT_EQ(pairs.local_count, 100U);
  EXPECT_EQ(pairs.remote_count, 1U);
  EXPECT_EQ(pairs.local[3].iov_base, mine.data() + 96);
  EXPECT_EQ(pairs.local[3].iov_len, 8U);
  EXPECT_EQ(pairs.remote[0].iov_base, theirs.data());
  EXPECT_EQ(next_run_pairs(local, mine.data(), remote, 0, 1 << 20, pairs), 0U);
}

TEST(RunPairs, BatchesStopAtTheIovecLimitOfEitherSide) {
  // 3000 runs here, 1000 larger ones there: the local side fills first.
  const Program column = strided(3000, 4, 16);
  const Program wide = strided(1000, 12, 20);
  const auto src = pattern(1000 * 20, 3);
  std::vector<std::byte> dst(3000 * 16, std::byte{0xEE});
  const auto want = packed_then_unpacked(wide, src, column, dst);
  Cursor local(column, 1, 0), remote(wide, 1, 0);
  RunPairs pairs;
  std::vector<std::uint64_t> batches;
  while (const std::uint64_t n =
             next_run_pairs(local, dst.data(), remote, reinterpret_cast<std::uintptr_t>(src.data()), 1 << 30, pairs)) {
    EXPECT_LE(pairs.local_count, RunPairs::kMaxIovecs);
    EXPECT_LE(pairs.remote_count, RunPairs::kMaxIovecs);
    EXPECT_EQ(covered(pairs.local.data(), pairs.local_count), n);
    EXPECT_EQ(covered(pairs.remote.data(), pairs.remote_count), n);
    EXPECT_EQ(local.position(), remote.position());
    copy_run_pairs(pairs);
    batches.push_back(n);
  }
  EXPECT_EQ(batches, (std::vector<std::uint64_t>{4096, 4096, 3808}));
  EXPECT_EQ(dst, want);  // the gaps keep 0xEE
}

TEST(RunPairs, TheRemoteSideRunningOutGivesTheLocalSideItsBytesBack) {
  // 2048 runs there pair with 512 long runs here: the remote side fills
  // first, and the local side's last iovec is cut to the paired bytes.
  const Program many = strided(2048, 3, 5);
  const Program few = strided(512, 12, 16);
  const auto src = pattern(2048 * 5, 9);
  std::vector<std::byte> dst(512 * 16, std::byte{0xEE});
  const auto want = packed_then_unpacked(many, src, few, dst);
  Cursor local(few, 1, 0), remote(many, 1, 0);
  RunPairs pairs;
  ASSERT_EQ(next_run_pairs(local, dst.data(), remote, reinterpret_cast<std::uintptr_t>(src.data()), 1 << 30, pairs),
            3072U);
  EXPECT_EQ(pairs.remote_count, 1024U);
  EXPECT_EQ(pairs.local_count, 256U);
  EXPECT_EQ(local.position(), 3072U);
  copy_run_pairs(pairs);
  while (next_run_pairs(local, dst.data(), remote, reinterpret_cast<std::uintptr_t>(src.data()), 1 << 30, pairs))
    copy_run_pairs(pairs);
  EXPECT_EQ(dst, want);
}

TEST(RunPairs, ABatchHoldsAtMostMaxBytes) {
  const Program column = strided(64, 8, 24);
  const Program flat = strided(1, 512, 0);
  std::vector<std::byte> mine(64 * 24), theirs(512);
  Cursor local(column, 1, 0), remote(flat, 1, 0);
  RunPairs pairs;
  EXPECT_EQ(next_run_pairs(local, mine.data(), remote, reinterpret_cast<std::uintptr_t>(theirs.data()), 100, pairs),
            100U);
  EXPECT_EQ(pairs.local_count, 13U);  // 12 whole runs and 4 bytes of the 13th
  EXPECT_EQ(pairs.local[12].iov_len, 4U);
  EXPECT_EQ(local.position(), 100U);
  EXPECT_EQ(remote.position(), 100U);
}

TEST(RunPairs, SingleCopyReadsRunsIntoRuns) {
  const Program column = strided(5000, 8, 40);
  const Program rows = strided(2500, 16, 24);
  const auto src = pattern(2500 * 24, 5);
  std::vector<std::byte> dst(5000 * 40, std::byte{0xEE});
  const auto want = packed_then_unpacked(rows, src, column, dst);
  btl::SingleCopy copy(true);
  Cursor local(column, 1, 0), remote(rows, 1, 0);
  RunPairs pairs;
  while (next_run_pairs(local, dst.data(), remote, reinterpret_cast<std::uintptr_t>(src.data()), 1 << 30, pairs)) {
    const btl::CopyResult result = copy.read_runs(getpid(), std::span(pairs.local.data(), pairs.local_count),
                                                  std::span(pairs.remote.data(), pairs.remote_count), pairs.bytes);
    if (result == btl::CopyResult::NotPermitted) GTEST_SKIP() << "CMA is not permitted here";
    ASSERT_EQ(result, btl::CopyResult::Done);
  }
  EXPECT_EQ(dst, want);
}

TEST(RunPairs, ARefusedSingleCopyReadsNothing) {
  btl::SingleCopy copy(true, /*forced_failure=*/true);
  std::byte a[8]{}, b[8]{std::byte{1}};
  iovec mine{a, 8}, theirs{b, 8};
  EXPECT_EQ(copy.read_runs(getpid(), std::span(&mine, 1), std::span(&theirs, 1), 8), btl::CopyResult::NotPermitted);
  EXPECT_EQ(a[0], std::byte{0});
  EXPECT_FALSE(copy.enabled());
}

}  // namespace
}  // namespace shmpi::datatype
