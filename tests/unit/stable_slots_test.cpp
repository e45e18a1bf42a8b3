#include "runtime/stable_slots.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace shmpi::runtime {
namespace {

TEST(StableSlots, GrowingMovesNoElement) {
  StableSlots<std::optional<std::string>, 4> slots(2);
  ASSERT_EQ(slots.size(), 2u);
  EXPECT_FALSE(slots[0].has_value());
  slots[1] = "first chunk";
  const std::optional<std::string>* held = &slots[1];
  for (int i = 0; i < 1000; ++i) slots.push_back(std::to_string(i));
  EXPECT_EQ(slots.size(), 1002u);
  EXPECT_EQ(held, &slots[1]);
  EXPECT_EQ(*slots[1], "first chunk");
  EXPECT_EQ(*slots[2], "0");
  EXPECT_EQ(*slots[1001], "999");
}

TEST(StableSlots, EmplaceBackGivesAFreshSlotAtTheEnd) {
  StableSlots<int, 2> slots;
  slots.emplace_back() = 7;
  slots.emplace_back() = 8;
  int& third = slots.emplace_back();  // opens the second chunk
  EXPECT_EQ(third, 0);
  third = 9;
  EXPECT_EQ(slots.size(), 3u);
  EXPECT_EQ(slots[0] + slots[1] + slots[2], 24);
}

}  // namespace
}  // namespace shmpi::runtime
