// Unit tests of NUMA placement on memfd segments. They check what the
// kernel reports (get_mempolicy / move_pages), so they are meaningful on a
// one-node machine too: the policy mode is recorded whatever the topology,
// and touched pages must land on a node the policy allows.
#include "btl/numa_placement.hpp"

#include <gtest/gtest.h>
#include <numa.h>
#include <numaif.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "btl/segment.hpp"

namespace shmpi::btl {
namespace {

constexpr std::size_t kPages = 16;

std::size_t page_size() { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }

void touch_every_page(std::byte* data, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; i += page_size()) data[i] = std::byte{1};
}

class NumaPlacement : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::numa_available() < 0) GTEST_SKIP() << "no NUMA support in this kernel";
  }
  Segment segment_ = Segment::create(kPages * page_size());
};

TEST_F(NumaPlacement, CurrentNodeIsAValidNode) {
  const int node = current_numa_node();
  EXPECT_GE(node, 0);
  EXPECT_LE(node, ::numa_max_node());
}

TEST_F(NumaPlacement, UntouchedPagesHaveNoNodeYet) {
  const PagePlacement p = query_placement(segment_.data(), segment_.size());
  EXPECT_EQ(p.mode, MPOL_DEFAULT);
  ASSERT_EQ(p.page_nodes.size(), kPages);
  for (int node : p.page_nodes) EXPECT_EQ(node, -ENOENT);
}

TEST_F(NumaPlacement, LocalPrefersTheLocalNodeForEveryPage) {
  const int node = current_numa_node();
  ASSERT_TRUE(place_memory(segment_.data(), segment_.size(), NumaPolicy::Local, node)) << std::strerror(errno);
  EXPECT_EQ(query_placement(segment_.data(), segment_.size()).mode, MPOL_PREFERRED);
  touch_every_page(segment_.data(), segment_.size());
  const PagePlacement p = query_placement(segment_.data(), segment_.size());
  EXPECT_EQ(p.mode, MPOL_PREFERRED);
  ASSERT_EQ(p.page_nodes.size(), kPages);
  for (int page_node : p.page_nodes) EXPECT_EQ(page_node, node);
}

TEST_F(NumaPlacement, LocalWithoutANodeUsesTheCallersNode) {
  ASSERT_TRUE(place_memory(segment_.data(), segment_.size(), NumaPolicy::Local, -1)) << std::strerror(errno);
  touch_every_page(segment_.data(), segment_.size());
  const PagePlacement p = query_placement(segment_.data(), segment_.size());
  EXPECT_EQ(p.mode, MPOL_PREFERRED);
  for (int page_node : p.page_nodes) EXPECT_EQ(page_node, current_numa_node());
}

TEST_F(NumaPlacement, InterleaveSpreadsOverAllowedNodes) {
  ASSERT_TRUE(place_memory(segment_.data(), segment_.size(), NumaPolicy::Interleave, 0)) << std::strerror(errno);
  EXPECT_EQ(query_placement(segment_.data(), segment_.size()).mode, MPOL_INTERLEAVE);
  touch_every_page(segment_.data(), segment_.size());
  const PagePlacement p = query_placement(segment_.data(), segment_.size());
  EXPECT_EQ(p.mode, MPOL_INTERLEAVE);
  ASSERT_EQ(p.page_nodes.size(), kPages);
  for (int page_node : p.page_nodes) {
    ASSERT_GE(page_node, 0);
    EXPECT_NE(::numa_bitmask_isbitset(::numa_all_nodes_ptr, static_cast<unsigned>(page_node)), 0);
  }
}

TEST_F(NumaPlacement, NoneLeavesTheDefaultPolicy) {
  ASSERT_TRUE(place_memory(segment_.data(), segment_.size(), NumaPolicy::None, 0));
  touch_every_page(segment_.data(), segment_.size());
  const PagePlacement p = query_placement(segment_.data(), segment_.size());
  EXPECT_EQ(p.mode, MPOL_DEFAULT);
  for (int page_node : p.page_nodes) EXPECT_GE(page_node, 0);
}

// The policy lives with the memfd, not with one mapping: a peer that maps
// the segment sees it, and a page the peer touches first is placed by it.
TEST_F(NumaPlacement, PolicyIsVisibleThroughASecondMapping) {
  for (NumaPolicy policy : {NumaPolicy::Local, NumaPolicy::Interleave}) {
    Segment owner = Segment::create(kPages * page_size());
    ASSERT_TRUE(place_memory(owner.data(), owner.size(), policy, current_numa_node())) << std::strerror(errno);
    Segment peer = Segment::attach(::getpid(), owner.fd(), owner.size());
    ASSERT_NE(peer.data(), owner.data());
    const int expected = policy == NumaPolicy::Local ? MPOL_PREFERRED : MPOL_INTERLEAVE;
    EXPECT_EQ(query_placement(peer.data(), peer.size()).mode, expected);
    touch_every_page(peer.data(), peer.size());
    const PagePlacement p = query_placement(peer.data(), peer.size());
    EXPECT_EQ(p.mode, expected);
    ASSERT_EQ(p.page_nodes.size(), kPages);
    for (int page_node : p.page_nodes) {
      if (policy == NumaPolicy::Local) EXPECT_EQ(page_node, current_numa_node());
      else EXPECT_GE(page_node, 0);
    }
    // move_pages looks through this process's page tables: the owner's
    // mapping reports a page only once it maps it too (a read is enough),
    // and then it is the page the peer placed.
    EXPECT_EQ(query_placement(owner.data(), owner.size()).page_nodes.front(), -ENOENT);
    for (std::size_t i = 0; i < owner.size(); i += page_size()) {
      EXPECT_EQ(owner.data()[i], std::byte{1});
    }
    EXPECT_EQ(query_placement(owner.data(), owner.size()).page_nodes, p.page_nodes);
  }
}

TEST_F(NumaPlacement, PolicyCoversOnlyTheGivenRange) {
  const std::size_t half = kPages / 2 * page_size();
  ASSERT_TRUE(place_memory(segment_.data() + half, half, NumaPolicy::Interleave, 0)) << std::strerror(errno);
  EXPECT_EQ(query_placement(segment_.data(), 1).mode, MPOL_DEFAULT);
  EXPECT_EQ(query_placement(segment_.data() + half, 1).mode, MPOL_INTERLEAVE);
}

TEST_F(NumaPlacement, BadArgumentsFailWithErrno) {
  errno = 0;
  EXPECT_FALSE(place_memory(segment_.data(), segment_.size(), NumaPolicy::Local, ::numa_max_node() + 1));
  EXPECT_EQ(errno, EINVAL);
  errno = 0;
  EXPECT_FALSE(place_memory(segment_.data() + 1, page_size(), NumaPolicy::Local, 0)) << "not page-aligned";
  EXPECT_EQ(errno, EINVAL);
  EXPECT_TRUE(place_memory(segment_.data(), 0, NumaPolicy::Local, 0)) << "nothing to place";
  EXPECT_EQ(query_placement(segment_.data(), segment_.size()).mode, MPOL_DEFAULT) << "failures set nothing";
}

TEST_F(NumaPlacement, QueryOfAnUnalignedRangeCoversItsPages) {
  // Two bytes across a page boundary are two pages.
  EXPECT_EQ(query_placement(segment_.data() + page_size() - 1, 2).page_nodes.size(), 2U);
  EXPECT_TRUE(query_placement(segment_.data(), 0).page_nodes.empty());
}

}  // namespace
}  // namespace shmpi::btl
