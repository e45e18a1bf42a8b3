// The hand-off probe (launcher/handoff_probe.hpp): what it measures between
// two CPUs, and which hand-off a job's profile choice sees.
#include "handoff_probe.hpp"

#include <gtest/gtest.h>
#include <sched.h>

#include <string>
#include <vector>

#include "launch_error.hpp"

namespace shmpi::launcher {
namespace {

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  return cpus;
}

TEST(HandoffProbe, TwoAllowedCpusGiveAPositiveTime) {
  const std::vector<int> cpus = allowed_cpus();
  if (cpus.size() < 2) GTEST_SKIP() << "needs two allowed CPUs";
  const std::optional<unsigned> ns = measure_handoff_ns(cpus[0], cpus[1]);
  ASSERT_TRUE(ns.has_value());
  EXPECT_GE(*ns, 1u);
}

TEST(HandoffProbe, ACpuThatCannotBeTakenGivesNoMeasurement) {
  EXPECT_FALSE(measure_handoff_ns(0, CPU_SETSIZE + 5).has_value());
  EXPECT_FALSE(measure_handoff_ns(-3, 0).has_value());
}

TEST(JobCpu, AStatedHandoffIsTakenAsItIs) {
  const std::vector<std::string> env{"SHMPI_MEASURED_HANDOFF_NS=57"};
  EXPECT_EQ(cpu_for_job(env, false, 0, 1).handoff_ns, 57u);
  EXPECT_EQ(cpu_for_job(env, true, -1, -1).handoff_ns, 57u);
  EXPECT_EQ(cpu_for_job(std::vector<std::string>{"SHMPI_MEASURED_HANDOFF_NS=0"}, false, 0, 1).handoff_ns, 0u);
}

TEST(JobCpu, NothingIsMeasuredForANamedProfileOrUnboundRanks) {
  const std::vector<std::string> none;
  EXPECT_EQ(cpu_for_job(none, true, 0, 1).handoff_ns, 0u);
  EXPECT_EQ(cpu_for_job(none, false, -1, 1).handoff_ns, 0u);
  EXPECT_EQ(cpu_for_job(none, false, 0, 0).handoff_ns, 0u);
}

TEST(JobCpu, AStatedHandoffThatIsNoNumberIsAUsageError) {
  for (const char* bad :
       {"SHMPI_MEASURED_HANDOFF_NS=fast", "SHMPI_MEASURED_HANDOFF_NS=-1",
        "SHMPI_MEASURED_HANDOFF_NS=", "SHMPI_MEASURED_HANDOFF_NS=1000000000", "SHMPI_MEASURED_HANDOFF_NS=+5",
        "SHMPI_MEASURED_HANDOFF_NS= 5", "SHMPI_MEASURED_HANDOFF_NS=5 "}) {
    try {
      cpu_for_job(std::vector<std::string>{bad}, false, 0, 1);
      ADD_FAILURE() << bad << " was taken";
    } catch (const LaunchError& e) {
      EXPECT_EQ(e.exit_code(), kExitUsage);
      EXPECT_EQ(std::string(e.what()),
                std::string("environment ") + bad + ": must be a number of ns below 1000000000 (0: none)");
    }
  }
}

}  // namespace
}  // namespace shmpi::launcher
