// prefetch_for_write(): the CPU feature check agrees with the kernel's, and
// the hint changes nothing it touches.
#include "btl/prefetch.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace {

#if defined(__x86_64__) || defined(__i386__)
// True if /proc/cpuinfo's first "flags" line lists `flag`.
bool kernel_lists_flag(const std::string& flag) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    for (std::string word; words >> word;)
      if (word == flag) return true;
    return false;
  }
  ADD_FAILURE() << "no flags line in /proc/cpuinfo";
  return false;
}

// The kernel calls PREFETCHW's CPUID bit "3dnowprefetch".
TEST(Prefetch, UsesPrefetchwExactlyWhenTheKernelSeesIt) {
  EXPECT_EQ(shmpi::btl::prefetch_detail::kHasPrefetchw, kernel_lists_flag("3dnowprefetch"));
}
#endif

TEST(Prefetch, AHintedLineKeepsWhatThePeerWrote) {
  alignas(64) std::uint64_t line[8] = {};
  std::atomic_ref<std::uint64_t> word(line[0]);
  std::thread writer([&word] {
    for (std::uint64_t i = 1; i <= 100000; ++i) word.store(i, std::memory_order_release);
  });
  std::uint64_t last = 0;
  while (last != 100000) {
    shmpi::btl::prefetch_for_write(line);
    const std::uint64_t now = word.load(std::memory_order_acquire);
    ASSERT_GE(now, last);
    last = now;
  }
  writer.join();
  for (int i = 1; i < 8; ++i) EXPECT_EQ(line[i], 0u);
}

}  // namespace
