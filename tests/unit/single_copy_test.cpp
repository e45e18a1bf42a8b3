// Unit tests of single-copy (CMA) transfers: byte-exact reads and writes into
// a forked peer at awkward sizes and offsets, splitting into chunks, partial
// transfers that hit a bad page, dead peers, the forced-failure hook, and a
// real kernel refusal (non-dumpable peer).
#include "btl/single_copy.hpp"

#include <gtest/gtest.h>
#include <linux/capability.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <vector>

namespace shmpi::btl {
namespace {

constexpr std::size_t kPage = 4096;
constexpr std::size_t kMiB = std::size_t{1} << 20;
constexpr std::uint32_t kChildSeed = 1;
constexpr std::uint32_t kParentSeed = 2;

// Depends on the byte index and on the page index, so a byte copied to the
// wrong place or a page copied twice shows.
std::byte pattern(std::uint32_t seed, std::size_t i) {
  return static_cast<std::byte>((i * 131 + (i >> 12) * 7 + seed * 29) & 0xFF);
}

void fill(std::byte* p, std::size_t bytes, std::uint32_t seed, std::size_t first_index) {
  for (std::size_t i = 0; i < bytes; ++i) p[i] = pattern(seed, first_index + i);
}

// First index in [0, bytes) where p differs from the pattern, or bytes.
std::size_t first_mismatch(const std::byte* p, std::size_t bytes, std::uint32_t seed, std::size_t first_index) {
  for (std::size_t i = 0; i < bytes; ++i)
    if (p[i] != pattern(seed, first_index + i)) return i;
  return bytes;
}

// An anonymous private mapping, unmapped on destruction.
class Region {
 public:
  explicit Region(std::size_t bytes) : bytes_(bytes) {
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    data_ = p == MAP_FAILED ? nullptr : static_cast<std::byte*>(p);
  }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;
  ~Region() {
    if (data_ != nullptr) ::munmap(data_, bytes_);
  }
  std::byte* data() const { return data_; }
  std::uint64_t address(std::size_t offset = 0) const { return reinterpret_cast<std::uintptr_t>(data_ + offset); }

 private:
  std::size_t bytes_;
  std::byte* data_;
};

// A forked peer that owns its copy of `region` (same address as ours, by
// fork): it fills the whole region with pattern(kChildSeed), says ready, and
// waits until finish(). It then checks that [offset, offset + bytes) holds
// pattern(kParentSeed) when `expect_write`, and that every other byte is
// still its own, and exits 0 if all is well.
class Peer {
 public:
  Peer(std::byte* region, std::size_t size, std::size_t offset, std::size_t bytes, bool expect_write) {
    int ready[2];
    int go[2];
    if (::pipe(ready) != 0 || ::pipe(go) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(ready[0]);
      ::close(go[1]);
      fill(region, size, kChildSeed, 0);
      char c = 'r';
      if (::write(ready[1], &c, 1) != 1) ::_exit(10);
      while (::read(go[0], &c, 1) > 0) {
      }
      const std::size_t written = expect_write ? bytes : 0;
      if (first_mismatch(region, offset, kChildSeed, 0) != offset) ::_exit(1);
      if (first_mismatch(region + offset, written, kParentSeed, offset) != written) ::_exit(2);
      const std::size_t rest = size - offset - written;
      if (first_mismatch(region + offset + written, rest, kChildSeed, offset + written) != rest) ::_exit(3);
      ::_exit(0);
    }
    ::close(ready[1]);
    ::close(go[0]);
    go_ = go[1];
    char c = 0;
    ready_ = pid_ > 0 && ::read(ready[0], &c, 1) == 1;
    ::close(ready[0]);
  }
  Peer(const Peer&) = delete;
  Peer& operator=(const Peer&) = delete;
  ~Peer() {
    if (pid_ > 0 && go_ >= 0) {
      ::kill(pid_, SIGKILL);
      finish();
    }
  }

  pid_t pid() const { return pid_; }
  bool ready() const { return ready_; }

  // Lets the peer check its memory and exit; returns its exit code (-1 if
  // it did not exit normally).
  int finish() {
    ::close(go_);
    go_ = -1;
    int status = 0;
    if (::waitpid(pid_, &status, 0) != pid_) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  pid_t pid_ = -1;
  int go_ = -1;
  bool ready_ = false;
};

// A pid that no longer names a process: a child that exited and was reaped.
pid_t reaped_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  return child;
}

class SingleCopySizes : public ::testing::TestWithParam<std::size_t> {};

// Odd offset: the remote range starts mid-page, so 4096 bytes span two pages.
constexpr std::size_t kOffset = 1;

TEST_P(SingleCopySizes, ReadsAPeersMemoryByteExactly) {
  const std::size_t bytes = GetParam();
  const std::size_t size = bytes + 2 * kPage;
  Region region(size);
  ASSERT_NE(region.data(), nullptr);
  Peer peer(region.data(), size, kOffset, bytes, /*expect_write=*/false);
  ASSERT_TRUE(peer.ready());

  std::vector<std::byte> local(bytes + 1, std::byte{0xEE});
  SingleCopy copy(true);
  ASSERT_EQ(copy.read(peer.pid(), region.address(kOffset), local.data(), bytes), CopyResult::Done);
  EXPECT_EQ(first_mismatch(local.data(), bytes, kChildSeed, kOffset), bytes);
  EXPECT_EQ(local[bytes], std::byte{0xEE}) << "wrote past the end";
  EXPECT_TRUE(copy.enabled());
  EXPECT_EQ(peer.finish(), 0);
}

TEST_P(SingleCopySizes, WritesIntoAPeersMemoryByteExactly) {
  const std::size_t bytes = GetParam();
  const std::size_t size = bytes + 2 * kPage;
  Region region(size);
  ASSERT_NE(region.data(), nullptr);
  Peer peer(region.data(), size, kOffset, bytes, /*expect_write=*/true);
  ASSERT_TRUE(peer.ready());

  std::vector<std::byte> local(bytes);
  fill(local.data(), bytes, kParentSeed, kOffset);
  SingleCopy copy(true);
  ASSERT_EQ(copy.write(peer.pid(), region.address(kOffset), local.data(), bytes), CopyResult::Done);
  // The peer checks the written range and that nothing around it moved.
  EXPECT_EQ(peer.finish(), 0);
}

INSTANTIATE_TEST_SUITE_P(Sizes, SingleCopySizes,
                         ::testing::Values(std::size_t{0}, std::size_t{1}, std::size_t{4095}, std::size_t{4096},
                                           kMiB, 16 * kMiB + 3),
                         [](const auto& size) { return std::to_string(size.param) + "B"; });

TEST(SingleCopy, SplitsIntoChunksOfAtMostMaxChunk) {
  // 1000-byte calls: chunk edges fall everywhere relative to pages.
  const std::size_t bytes = kMiB + 3;
  const std::size_t size = bytes + 2 * kPage;
  Region region(size);
  ASSERT_NE(region.data(), nullptr);
  Peer peer(region.data(), size, kOffset, bytes, /*expect_write=*/true);
  ASSERT_TRUE(peer.ready());

  SingleCopy copy(true, false, 1000);
  std::vector<std::byte> seen(bytes);
  ASSERT_EQ(copy.read(peer.pid(), region.address(kOffset), seen.data(), bytes), CopyResult::Done);
  EXPECT_EQ(first_mismatch(seen.data(), bytes, kChildSeed, kOffset), bytes);
  std::vector<std::byte> local(bytes);
  fill(local.data(), bytes, kParentSeed, kOffset);
  ASSERT_EQ(copy.write(peer.pid(), region.address(kOffset), local.data(), bytes), CopyResult::Done);
  EXPECT_EQ(peer.finish(), 0);
}

TEST(SingleCopy, CopiesWithinItsOwnProcess) {
  std::vector<std::byte> source(3 * kPage + 5);
  fill(source.data(), source.size(), kChildSeed, 0);
  std::vector<std::byte> target(source.size());
  SingleCopy copy(true);
  ASSERT_EQ(copy.read(::getpid(), reinterpret_cast<std::uintptr_t>(source.data()), target.data(), target.size()),
            CopyResult::Done);
  EXPECT_EQ(target, source);
  fill(source.data(), source.size(), kParentSeed, 0);
  ASSERT_EQ(copy.write(::getpid(), reinterpret_cast<std::uintptr_t>(target.data()), source.data(), source.size()),
            CopyResult::Done);
  EXPECT_EQ(target, source);
}

TEST(SingleCopy, ReadsPiecesInOneCall) {
  std::vector<std::byte> source(5 * kPage);
  fill(source.data(), source.size(), kChildSeed, 0);
  std::vector<std::byte> target(5 * kPage, std::byte{0});
  const auto at = [&](std::size_t offset) { return reinterpret_cast<std::uintptr_t>(source.data() + offset); };
  // Out of order, odd sizes, one empty: each lands where it was asked to.
  const std::vector<ReadPiece> pieces = {{at(3 * kPage), target.data(), kPage + 7},
                                         {at(0), target.data() + 2 * kPage, 100},
                                         {at(kPage), target.data() + 3 * kPage, 0},
                                         {at(4 * kPage + 9), target.data() + 4 * kPage, kPage - 9}};
  SingleCopy copy(true);
  ASSERT_EQ(copy.read_pieces(::getpid(), pieces), CopyResult::Done);
  EXPECT_TRUE(std::equal(target.begin(), target.begin() + kPage + 7, source.begin() + 3 * kPage));
  EXPECT_TRUE(std::equal(target.begin() + 2 * kPage, target.begin() + 2 * kPage + 100, source.begin()));
  EXPECT_TRUE(std::equal(target.begin() + 4 * kPage, target.end() - 9, source.begin() + 4 * kPage + 9));
  EXPECT_EQ(target[kPage + 7], std::byte{0}) << "nothing beyond a piece";

  std::vector<ReadPiece> too_many(SingleCopy::kMaxPieces + 1, ReadPiece{at(0), target.data(), 1});
  errno = 0;
  EXPECT_EQ(copy.read_pieces(::getpid(), too_many), CopyResult::Failed);
  EXPECT_EQ(errno, EINVAL);
  EXPECT_TRUE(copy.enabled());
}

TEST(SingleCopy, ReadPiecesReportsABadPageAndARefusal) {
  Region region(2 * kPage);
  ASSERT_NE(region.data(), nullptr);
  ASSERT_EQ(::mprotect(region.data() + kPage, kPage, PROT_NONE), 0);
  std::vector<std::byte> local(2 * kPage);
  const std::vector<ReadPiece> pieces = {{region.address(), local.data(), 64},
                                         {region.address(kPage), local.data() + kPage, 64}};
  SingleCopy copy(true);
  EXPECT_EQ(copy.read_pieces(::getpid(), pieces), CopyResult::Failed);
  EXPECT_TRUE(copy.enabled());
  SingleCopy refusing(true, /*forced_failure=*/true);
  errno = 0;
  EXPECT_EQ(refusing.read_pieces(::getpid(), std::span(pieces).first(1)), CopyResult::NotPermitted);
  EXPECT_EQ(errno, EPERM);
  EXPECT_FALSE(refusing.enabled());
}

TEST(SingleCopy, ForcedFailureAnswersNotPermittedAndDisablesItself) {
  std::vector<std::byte> source(64, std::byte{7});
  std::vector<std::byte> target(64, std::byte{0});
  const auto remote = reinterpret_cast<std::uintptr_t>(source.data());
  SingleCopy copy(true, /*forced_failure=*/true);
  EXPECT_TRUE(copy.enabled());
  errno = 0;
  EXPECT_EQ(copy.read(::getpid(), remote, target.data(), target.size()), CopyResult::NotPermitted);
  EXPECT_EQ(errno, EPERM);
  EXPECT_FALSE(copy.enabled());
  EXPECT_EQ(copy.write(::getpid(), remote, target.data(), target.size()), CopyResult::NotPermitted);
  EXPECT_EQ(copy.read(::getpid(), remote, target.data(), 0), CopyResult::NotPermitted);
  EXPECT_FALSE(copy.probe(::getpid(), remote, source.size()));
  EXPECT_EQ(target, std::vector<std::byte>(64, std::byte{0})) << "nothing may be copied";
  EXPECT_EQ(source, std::vector<std::byte>(64, std::byte{7}));
}

TEST(SingleCopy, DisabledByTheTunableNeverCopies) {
  std::byte source{1};
  std::byte target{0};
  SingleCopy copy(false);
  EXPECT_FALSE(copy.enabled());
  EXPECT_EQ(copy.read(::getpid(), reinterpret_cast<std::uintptr_t>(&source), &target, 1), CopyResult::NotPermitted);
  EXPECT_EQ(target, std::byte{0});
}

TEST(SingleCopy, ADeadPeerFailsWithoutDisablingSingleCopy) {
  std::byte local{};
  SingleCopy copy(true);
  const pid_t gone = reaped_pid();
  errno = 0;
  EXPECT_NE(copy.read(gone, reinterpret_cast<std::uintptr_t>(&local), &local, 1), CopyResult::Done);
  EXPECT_EQ(errno, ESRCH);
  EXPECT_NE(copy.write(gone, reinterpret_cast<std::uintptr_t>(&local), &local, 1), CopyResult::Done);
  EXPECT_FALSE(copy.probe(gone, reinterpret_cast<std::uintptr_t>(&local), 1));

  // A zombie (exited, not yet reaped) has no memory left either.
  const pid_t zombie = ::fork();
  ASSERT_GE(zombie, 0);
  if (zombie == 0) ::_exit(0);
  ::siginfo_t info{};
  ASSERT_EQ(::waitid(P_PID, static_cast<id_t>(zombie), &info, WEXITED | WNOWAIT), 0);
  EXPECT_EQ(copy.read(zombie, reinterpret_cast<std::uintptr_t>(&local), &local, 1), CopyResult::Failed);
  ::waitpid(zombie, nullptr, 0);

  EXPECT_TRUE(copy.enabled()) << "a dead peer is not a refusal";
}

TEST(SingleCopy, StopsAtABadPageAfterCopyingWhatItCould) {
  Region region(2 * kPage);
  ASSERT_NE(region.data(), nullptr);
  fill(region.data(), kPage, kChildSeed, 0);
  ASSERT_EQ(::mprotect(region.data() + kPage, kPage, PROT_NONE), 0);
  std::vector<std::byte> local(2 * kPage, std::byte{0});
  SingleCopy copy(true);
  errno = 0;
  EXPECT_EQ(copy.read(::getpid(), region.address(), local.data(), local.size()), CopyResult::Failed);
  EXPECT_EQ(errno, EFAULT);
  EXPECT_EQ(first_mismatch(local.data(), kPage, kChildSeed, 0), kPage) << "the good page arrives first";
  EXPECT_EQ(copy.read(::getpid(), 0, local.data(), 1), CopyResult::Failed);
  EXPECT_TRUE(copy.enabled());
}

TEST(SingleCopy, ProbeUsesARealTransfer) {
  const std::size_t size = 3 * kPage;
  Region region(size);
  ASSERT_NE(region.data(), nullptr);
  Peer peer(region.data(), size, 0, 0, /*expect_write=*/false);
  ASSERT_TRUE(peer.ready());
  SingleCopy copy(true);
  EXPECT_TRUE(copy.probe(peer.pid(), region.address(), 1));
  EXPECT_TRUE(copy.probe(peer.pid(), region.address(5), size - 5)) << "more than the scratch buffer";
  EXPECT_FALSE(copy.probe(peer.pid(), 0, 8)) << "an unmapped address proves nothing";
  errno = 0;
  EXPECT_FALSE(copy.probe(peer.pid(), region.address(), 0));
  EXPECT_EQ(errno, EINVAL);
  EXPECT_TRUE(copy.enabled());
  EXPECT_EQ(peer.finish(), 0);
}

// Drops CAP_SYS_PTRACE from this process (a forked child): with it, root
// may read even non-dumpable processes.
bool drop_ptrace_capability() {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
  if (::syscall(SYS_capget, &header, data) != 0) return false;
  const unsigned word = CAP_SYS_PTRACE / 32;
  const std::uint32_t bit = 1U << (CAP_SYS_PTRACE % 32);
  data[word].effective &= ~bit;
  data[word].permitted &= ~bit;
  return ::syscall(SYS_capset, &header, data) == 0;
}

TEST(SingleCopy, ANonDumpablePeerIsARealRefusal) {
  Region region(kPage);
  ASSERT_NE(region.data(), nullptr);
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t target = ::fork();
  ASSERT_GE(target, 0);
  if (target == 0) {
    ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    char c = 'r';
    if (::write(ready[1], &c, 1) != 1) ::_exit(1);
    ::pause();
    ::_exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  ::close(ready[0]);
  ::close(ready[1]);

  const pid_t reader = ::fork();
  ASSERT_GE(reader, 0);
  if (reader == 0) {
    if (!drop_ptrace_capability()) ::_exit(3);
    SingleCopy copy(true);
    std::byte local{};
    const CopyResult r = copy.read(target, region.address(), &local, 1);
    if (r == CopyResult::Done) ::_exit(1);
    if (r == CopyResult::Failed) ::_exit(2);
    ::_exit(copy.enabled() || copy.probe(target, region.address(), 1) ? 4 : 0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(reader, &status, 0), reader);
  ::kill(target, SIGKILL);
  ::waitpid(target, nullptr, 0);
  ASSERT_TRUE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 3) GTEST_SKIP() << "cannot drop CAP_SYS_PTRACE here";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: copied anyway, 2: Failed instead of NotPermitted, 4: stayed enabled";
}

TEST(SingleCopy, PeerAccessHelpersAnswer) {
  EXPECT_TRUE(allow_peer_access());
  EXPECT_TRUE(process_is_dumpable());
}

}  // namespace
}  // namespace shmpi::btl
