// BsendBuffer: a buffer sized by the standard's formula (the sum of
// size + MPI_BSEND_OVERHEAD) holds every message it was sized for, whatever
// the buffer's alignment; each copy is aligned and stays inside the buffer
// and its own slot; released space is reused.
#include "runtime/bsend_buffer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

namespace shmpi::runtime {
namespace {

struct Placed {
  std::size_t offset;
  std::byte* data;
  std::size_t bytes;
};

// Allocates each size in turn; fails the test if one does not fit.
std::vector<Placed> place_all(BsendBuffer& space, const std::vector<std::size_t>& sizes) {
  std::vector<Placed> placed;
  for (std::size_t bytes : sizes) {
    auto offset = space.allocate(bytes);
    EXPECT_TRUE(offset.has_value()) << "a " << bytes << "-byte message did not fit after " << placed.size();
    if (offset) placed.push_back(Placed{*offset, space.at(*offset), bytes});
  }
  return placed;
}

// Every copy aligned, inside [base, base + size), and disjoint from the others.
void expect_sound(const std::vector<Placed>& placed, const std::byte* base, std::size_t size) {
  for (std::size_t i = 0; i < placed.size(); ++i) {
    const Placed& p = placed[i];
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p.data) % BsendBuffer::kDataAlign, 0U) << "message " << i;
    EXPECT_GE(p.data, base);
    EXPECT_LE(p.data + p.bytes, base + size) << "message " << i << " runs past the buffer";
    for (std::size_t j = 0; j < i; ++j) {
      const Placed& q = placed[j];
      EXPECT_TRUE(p.data + p.bytes <= q.data || q.data + q.bytes <= p.data) << "messages " << j << " and " << i;
    }
  }
}

std::size_t formula(const std::vector<std::size_t>& sizes) {
  std::size_t total = 0;
  for (std::size_t s : sizes) total += s + MPI_BSEND_OVERHEAD;
  return total;
}

// The external suite's case: 4 x (68000 + MPI_BSEND_OVERHEAD) bytes hold four
// 68000-byte messages (slots rounded to 64 bytes refused the fourth).
TEST(BsendBuffer, FourMessagesFitTheBufferTheStandardsFormulaSizes) {
  const std::vector<std::size_t> sizes(4, 68000);
  std::vector<std::byte> memory(formula(sizes));
  BsendBuffer space;
  space.attach(memory.data(), memory.size());
  const auto placed = place_all(space, sizes);
  EXPECT_EQ(placed.size(), 4U);
  expect_sound(placed, memory.data(), memory.size());
  EXPECT_FALSE(space.allocate(0).has_value()) << "a fifth message cannot fit";
  EXPECT_EQ(space.in_use(), 4U);
}

// Odd sizes and every misalignment of the user's buffer.
TEST(BsendBuffer, OddSizesFitAtEveryBufferAlignment) {
  const std::vector<std::size_t> sizes{0, 1, 63, 64, 65, 4095, 7, 100000, 3};
  const std::size_t size = formula(sizes);
  std::vector<std::byte> memory(size + BsendBuffer::kDataAlign);
  for (std::size_t shift = 0; shift < BsendBuffer::kDataAlign; ++shift) {
    BsendBuffer space;
    space.attach(memory.data() + shift, size);
    const auto placed = place_all(space, sizes);
    EXPECT_EQ(placed.size(), sizes.size()) << "shift " << shift;
    expect_sound(placed, memory.data() + shift, size);
  }
}

TEST(BsendBuffer, OneByteShortOfTheFormulaRefusesTheLastMessage) {
  const std::vector<std::size_t> sizes{1000, 1000};
  std::vector<std::byte> memory(formula(sizes) - 1);
  BsendBuffer space;
  space.attach(memory.data(), memory.size());
  EXPECT_TRUE(space.allocate(1000).has_value());
  EXPECT_FALSE(space.allocate(1000).has_value());
}

TEST(BsendBuffer, ReleasedSlotsAreReused) {
  const std::vector<std::size_t> sizes{500, 500, 500};
  std::vector<std::byte> memory(formula(sizes));
  BsendBuffer space;
  space.attach(memory.data(), memory.size());
  const auto placed = place_all(space, sizes);
  ASSERT_EQ(placed.size(), 3U);
  EXPECT_FALSE(space.allocate(500).has_value());
  space.release(placed[1].offset);
  EXPECT_FALSE(space.allocate(501).has_value()) << "the gap holds 500 bytes, no more";
  auto again = space.allocate(500);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(*again, placed[1].offset);
  space.release(placed[0].offset);
  space.release(*again);
  EXPECT_EQ(space.in_use(), 1U);  // the third is still held
  EXPECT_TRUE(space.allocate(500 + MPI_BSEND_OVERHEAD + 500).has_value()) << "the first two slots' space merged";
}

TEST(BsendBuffer, ASizeThatWouldOverflowIsRefused) {
  std::vector<std::byte> memory(1024);
  BsendBuffer space;
  space.attach(memory.data(), memory.size());
  EXPECT_FALSE(space.allocate(std::numeric_limits<std::size_t>::max() - 1).has_value());
  EXPECT_EQ(space.in_use(), 0U);
}

}  // namespace
}  // namespace shmpi::runtime
