// ArrivalList: senders are seen once each, in the order they announced, and
// a slot claimed but not yet stored holds back the ones after it.
#include "btl/arrivals.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace shmpi::btl {
namespace {

struct Arrivals {
  ArrivalsHeader header{};
  std::vector<ArrivalSlot> slots;
  explicit Arrivals(std::uint32_t nranks) : slots(nranks) {}
};

TEST(Arrivals, SendersAreListedOnceInOrderOfArrival) {
  Arrivals a(8);
  ArrivalList list(&a.header, a.slots.data(), 8);
  EXPECT_FALSE(list.changed());
  announce_arrival(a.header, a.slots.data(), 5);
  announce_arrival(a.header, a.slots.data(), 2);
  EXPECT_TRUE(list.changed());
  EXPECT_EQ(list.refresh(), 2u);
  EXPECT_FALSE(list.changed());
  announce_arrival(a.header, a.slots.data(), 0);
  EXPECT_EQ(list.refresh(), 1u);
  EXPECT_EQ(list.senders(), (std::vector<std::uint32_t>{5, 2, 0}));
  EXPECT_EQ(list.refresh(), 0u);
}

TEST(Arrivals, AClaimedSlotNotYetStoredWaitsForTheNextRefresh) {
  Arrivals a(4);
  ArrivalList list(&a.header, a.slots.data(), 4);
  a.header.count.fetch_add(1);  // a sender between its claim and its store
  announce_arrival(a.header, a.slots.data(), 3);  // takes slot 1
  EXPECT_EQ(list.refresh(), 0u);
  EXPECT_TRUE(list.changed());
  a.slots[0].store(1 + 1);  // the first sender, rank 1, stores at last
  EXPECT_EQ(list.refresh(), 2u);
  EXPECT_EQ(list.senders(), (std::vector<std::uint32_t>{1, 3}));
}

}  // namespace
}  // namespace shmpi::btl
