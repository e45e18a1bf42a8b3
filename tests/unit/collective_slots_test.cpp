// Unit tests of the collective slots (btl/collective_slots.hpp): a
// publication is found by its stamp only, a slot is free again only once
// every reader released it, and a peer sees what the owner published.
#include "btl/collective_slots.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "btl/transport.hpp"

namespace shmpi::btl {
namespace {

constexpr std::uint64_t stamp(std::uint32_t context, std::uint32_t call) { return std::uint64_t{context} << 32 | call; }

// kCollectiveSlots slots as a fresh (zeroed) segment has them.
struct Slots {
  std::unique_ptr<CollectiveSlot[]> slots{new CollectiveSlot[kCollectiveSlots]()};
  CollectiveSlot& operator[](std::size_t i) { return slots[i]; }
};

TEST(CollectiveSlots, AFreshSlotIsFreeAndHoldsNoCall) {
  Slots s;
  std::uint8_t hint = 0;
  EXPECT_TRUE(s[0].free());
  EXPECT_EQ(find_slot(s.slots.get(), stamp(3, 1), hint), nullptr);
}

TEST(CollectiveSlots, APublicationIsFoundByItsStampOnlyWhereverTheHintPoints) {
  Slots s;
  std::memcpy(s[2].data, "abc", 3);
  s[2].publish(stamp(3, 7), 1, 3);
  for (std::uint8_t start = 0; start < kCollectiveSlots; ++start) {
    std::uint8_t hint = start;
    EXPECT_EQ(find_slot(s.slots.get(), stamp(3, 7), hint), &s[2]);
    EXPECT_EQ(hint, 3) << "the next publication is looked for in the next slot";
  }
  std::uint8_t hint = 0;
  EXPECT_EQ(find_slot(s.slots.get(), stamp(3, 8), hint), nullptr) << "the next call";
  EXPECT_EQ(find_slot(s.slots.get(), stamp(4, 7), hint), nullptr) << "another communicator";
  EXPECT_EQ(s[2].header.bytes, 3u);
  EXPECT_EQ(std::memcmp(s[2].data, "abc", 3), 0);
}

TEST(CollectiveSlots, ASlotIsFreeOnlyOnceEveryReaderReleasedIt) {
  Slots s;
  s[0].publish(stamp(1, 1), 3, 0);
  EXPECT_FALSE(s[0].free());
  EXPECT_FALSE(s[0].release());
  EXPECT_FALSE(s[0].release());
  EXPECT_FALSE(s[0].free());
  EXPECT_TRUE(s[0].release()) << "the last reader is told, to wake the owner";
  EXPECT_TRUE(s[0].free());
  // Reused: the old stamp is gone, the count starts over.
  s[0].publish(stamp(1, 2), 1, 0);
  std::uint8_t hint = 0;
  EXPECT_EQ(find_slot(s.slots.get(), stamp(1, 1), hint), nullptr);
  EXPECT_FALSE(s[0].free());
}

TEST(CollectiveSlots, APeerReadsWhatTheOwnerPublishedInItsSegment) {
  Transport a(0, 2, Limits{4096}), b(1, 2, Limits{4096});
  a.connect(1, b.address());
  b.connect(0, a.address());
  CollectiveSlot* own = a.collective_slots(0);
  ASSERT_NE(own, nullptr);
  EXPECT_TRUE(own[0].free()) << "a new segment's slots are free";
  std::memcpy(own[1].data, "slot", 4);
  own[1].publish(stamp(9, 1), 1, 4);
  CollectiveSlot* seen = b.collective_slots(0);
  ASSERT_NE(seen, nullptr);
  std::uint8_t hint = 0;
  CollectiveSlot* found = find_slot(seen, stamp(9, 1), hint);
  ASSERT_EQ(found, &seen[1]);
  EXPECT_EQ(std::memcmp(found->data, "slot", 4), 0);
  EXPECT_TRUE(found->release());
  EXPECT_TRUE(own[1].free());
  EXPECT_NE(b.collective_slots(1), nullptr) << "its own";
}

TEST(CollectiveSlots, APeerOnAnotherNodeHasNone) {
  Transport a(0, 2, Limits{4096});
  a.close(1);
  EXPECT_EQ(a.collective_slots(1), nullptr);
}

}  // namespace
}  // namespace shmpi::btl
