// copy_small(): every length up to kSmallCopyMax, at every alignment of
// source and destination, copies exactly those bytes and writes nothing
// around them.
#include "btl/small_copy.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>

namespace shmpi::btl {
namespace {

TEST(SmallCopy, CopiesExactlyTheBytesAtEveryLengthAndAlignment) {
  constexpr std::size_t kGuard = 16;
  std::array<std::byte, kSmallCopyMax + 2 * kGuard> src{}, dst{};
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::byte>(i * 7 + 1);
  for (std::size_t n = 0; n <= kSmallCopyMax; ++n) {
    for (std::size_t from = 0; from < 8; ++from) {
      for (std::size_t to = 0; to < 8; ++to) {
        dst.fill(std::byte{0xEE});
        copy_small(dst.data() + kGuard + to, src.data() + from, n);
        for (std::size_t i = 0; i < dst.size(); ++i) {
          const bool inside = i >= kGuard + to && i < kGuard + to + n;
          const std::byte want = inside ? src[from + i - kGuard - to] : std::byte{0xEE};
          ASSERT_EQ(dst[i], want) << "n " << n << " from " << from << " to " << to << " byte " << i;
        }
      }
    }
  }
}

}  // namespace
}  // namespace shmpi::btl
