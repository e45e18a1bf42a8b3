// Unit tests of memfd segments: creation, sharing with another process,
// and clear failures.
#include "btl/segment.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <system_error>

namespace shmpi::btl {
namespace {

TEST(Segment, CreateRoundsToPagesAndZeroFills) {
  Segment s = Segment::create(100);
  EXPECT_EQ(s.size(), round_to_pages(100));
  EXPECT_GE(s.fd(), 0);
  for (std::size_t i = 0; i < s.size(); ++i) ASSERT_EQ(s.data()[i], std::byte{0});
}

TEST(Segment, AttachSeesTheOwnersWrites) {
  Segment owner = Segment::create(8192);
  Segment peer = Segment::attach(::getpid(), owner.fd(), owner.size());
  std::memcpy(owner.data() + 5000, "shared", 7);
  EXPECT_STREQ(reinterpret_cast<const char*>(peer.data() + 5000), "shared");
}

TEST(Segment, AnotherProcessWritesIntoIt) {
  Segment owner = Segment::create(4096);
  const pid_t parent = ::getpid();
  const int fd = owner.fd();
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // A fresh process without the inherited mapping would do the same.
    Segment peer = Segment::attach(parent, fd, 4096);
    std::memcpy(peer.data(), "from child", 11);
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_STREQ(reinterpret_cast<const char*>(owner.data()), "from child");
}

TEST(Segment, AttachToAMissingProcessFailsClearly) {
  try {
    Segment::attach(999999999, 3, 4096);
    FAIL() << "attach should have thrown";
  } catch (const std::system_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot reach the segment of process 999999999"), std::string::npos)
        << e.what();
  }
}

TEST(Segment, MovedFromSegmentOwnsNothing) {
  Segment a = Segment::create(4096);
  std::byte* data = a.data();
  Segment b = std::move(a);
  EXPECT_EQ(b.data(), data);
  EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(a.fd(), -1);         // NOLINT(bugprone-use-after-move)
}

}  // namespace
}  // namespace shmpi::btl
