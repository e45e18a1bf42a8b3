// CoreLocks: two holders never share a CPU, locks go with their holder, and
// nothing reaches the file system or a child process.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>
#include <string_view>

#include "core_locks.hpp"

namespace shmpi::launcher {
namespace {

// CPU numbers no real job on this machine uses: the names are only names,
// and ctest runs shmpirun jobs (holding the real CPUs) beside this test.
// Each test has its own three (base + 1..3): ctest runs these tests
// beside one another too, and shared names made them take each other's.
std::vector<int> cpus(int base) { return {base + 1, base + 2, base + 3}; }

// Entries of `directory` named like a lock file ("shmpi-c..."); other tests
// running beside this one come and go there with other names.
std::set<std::string> lock_like_names_in(const char* directory) {
  std::set<std::string> names;
  if (DIR* dir = ::opendir(directory)) {
    while (dirent* entry = ::readdir(dir))
      if (std::string_view(entry->d_name).starts_with("shmpi-c")) names.insert(entry->d_name);
    ::closedir(dir);
  }
  return names;
}

// True when an abstract Unix socket named `name` is bound in our namespace.
bool abstract_name_bound(const std::string& name) {
  std::ifstream table("/proc/net/unix");
  std::string line;
  while (std::getline(table, line))
    if (line.size() >= name.size() + 1 && line.ends_with("@" + name)) return true;
  return false;
}

std::string name_of(int cpu) { return "shmpi-cpu-" + std::to_string(::getuid()) + "-" + std::to_string(cpu); }

TEST(CoreLocks, SecondHolderSkipsHeldCpusAndSaysSo) {
  CoreLocks first, second;
  EXPECT_EQ(first.acquire(cpus(900000), 2), (std::vector<int>{900001, 900002}));
  EXPECT_FALSE(first.saw_busy());
  EXPECT_EQ(second.acquire(cpus(900000), 2), std::vector<int>{900003});
  EXPECT_TRUE(second.saw_busy());
  EXPECT_TRUE(abstract_name_bound(name_of(900001)));
}

TEST(CoreLocks, ReleasedAndDestroyedLocksAreFreeAgain) {
  CoreLocks second;
  {
    CoreLocks first;
    ASSERT_EQ(first.acquire(cpus(900010), 3), cpus(900010));
    first.release_except(std::vector<int>{900012});
    EXPECT_EQ(second.acquire(cpus(900010), 3), (std::vector<int>{900011, 900013}));
    EXPECT_TRUE(abstract_name_bound(name_of(900012)));
  }
  CoreLocks third;
  EXPECT_EQ(third.acquire(cpus(900010), 3), std::vector<int>{900012});
  EXPECT_TRUE(third.saw_busy());
}

TEST(CoreLocks, LeaveNoFileBehind) {
  const std::set<std::string> tmp = lock_like_names_in("/tmp"), shm = lock_like_names_in("/dev/shm");
  {
    CoreLocks locks;
    ASSERT_EQ(locks.acquire(cpus(900020), 1), std::vector<int>{900021});
    EXPECT_EQ(lock_like_names_in("/tmp"), tmp);
    EXPECT_EQ(lock_like_names_in("/dev/shm"), shm);
  }
  EXPECT_FALSE(abstract_name_bound(name_of(900021)));
}

TEST(CoreLocks, ChildProcessesDoNotInheritThem) {
  pid_t child = -1;
  {
    CoreLocks locks;
    ASSERT_EQ(locks.acquire(cpus(900030), 1), std::vector<int>{900031});
    int exec_seen[2];  // close-on-exec: end of file once the child has exec'd
    ASSERT_EQ(::pipe2(exec_seen, O_CLOEXEC), 0);
    child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::execl("/bin/sleep", "sleep", "30", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(exec_seen[1]);
    char byte;
    EXPECT_EQ(::read(exec_seen[0], &byte, 1), 0);
    ::close(exec_seen[0]);
  }
  // The holder is gone while the child still runs: its CPU is free.
  CoreLocks after;
  EXPECT_EQ(after.acquire(cpus(900030), 1), std::vector<int>{900031});
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
}

}  // namespace
}  // namespace shmpi::launcher
