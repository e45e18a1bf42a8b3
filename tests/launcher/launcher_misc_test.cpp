// Unit tests of the launcher's small pure parts.
#include <sys/wait.h>

#include <gtest/gtest.h>

#include <shmpi/tunables.hpp>

#include "launch_error.hpp"
#include "placement.hpp"
#include "preflight.hpp"
#include "rank_env.hpp"
#include "topology.hpp"
#include "wait_status.hpp"

namespace shmpi::launcher {
namespace {

TEST(CpuList, ParseAndFormat) {
  EXPECT_EQ(parse_cpu_list("0-3,8\n"), (std::vector<int>{0, 1, 2, 3, 8}));
  EXPECT_EQ(parse_cpu_list("5"), std::vector<int>{5});
  EXPECT_TRUE(parse_cpu_list("3-1").empty());
  EXPECT_TRUE(parse_cpu_list("x").empty());
  EXPECT_EQ(format_cpu_list(std::vector<int>{8, 0, 1, 2, 3, 10}), "0-3,8,10");
  EXPECT_EQ(format_cpu_list(std::vector<int>{}), "");
}

Topology two_nodes() {
  Topology t;
  t.cpus = {0, 1, 2, 3};
  t.nodes = {{0, {0, 1}}, {1, {2, 3}}};
  return t;
}

TEST(Placement, CoresWhenRanksFit) {
  std::vector<int> owned = {0, 1, 2};
  Placement p = plan_placement(two_nodes(), 3, BindTo::Auto, MapBy::Core, owned);
  ASSERT_EQ(p.ranks.size(), 3u);
  EXPECT_EQ(p.ranks[2].cpus, std::vector<int>{2});
  EXPECT_EQ(p.ranks[2].numa, 1);
  EXPECT_FALSE(p.shared_cores || p.oversubscribed);
}

TEST(Placement, UnboundWhenOversubscribedOrCoresBusy) {
  Placement over = plan_placement(two_nodes(), 5, BindTo::Auto, MapBy::Core, std::vector<int>{});
  EXPECT_TRUE(over.oversubscribed);
  EXPECT_TRUE(over.ranks[4].cpus.empty());
  Placement busy = plan_placement(two_nodes(), 3, BindTo::Auto, MapBy::Core, std::vector<int>{3});
  EXPECT_TRUE(busy.shared_cores);
  EXPECT_TRUE(busy.ranks[0].cpus.empty());
}

TEST(Placement, MapByNumaAlternatesNodesAndBindNumaTakesTheNode) {
  EXPECT_EQ(mapping_order(two_nodes(), MapBy::Numa), (std::vector<int>{0, 2, 1, 3}));
  std::vector<int> owned = {0, 2};
  Placement p = plan_placement(two_nodes(), 2, BindTo::Numa, MapBy::Numa, owned);
  EXPECT_EQ(p.ranks[1].cpus, (std::vector<int>{2, 3}));
  EXPECT_EQ(p.ranks[1].numa, 1);
}

TEST(WaitStatus, Descriptions) {
  EXPECT_EQ(describe_wait_status(3 << 8), "exited with status 3");
  EXPECT_EQ(exit_code_of(3 << 8), 3);
  EXPECT_EQ(describe_wait_status(SIGKILL), "killed by signal 9 (Killed)");
  EXPECT_EQ(exit_code_of(SIGSEGV), 139);
  EXPECT_EQ(signal_name(SIGINT), "SIGINT");
}

TEST(RankEnv, DropsForeignLauncherAndAppliesSettings) {
  std::vector<std::string> inherited = {"PATH=/bin", "PMIX_RANK=3", "PMIX_MCA_ptl=tcp", "PMI_FD=4",
                                        "OMPI_COMM_WORLD_SIZE=2", "SHMPI_WAIT_POLICY=spin"};
  RankEnvInputs in{{{"eager_limit", "8k"}}, {"FOO=bar", "PATH"}, true};
  Environment env = rank_environment(inherited, in);
  EXPECT_EQ(find_variable(env, "PMIX_RANK"), nullptr);
  EXPECT_EQ(find_variable(env, "PMI_FD"), nullptr);
  EXPECT_EQ(find_variable(env, "OMPI_COMM_WORLD_SIZE"), nullptr);
  EXPECT_EQ(*find_variable(env, "PMIX_MCA_ptl"), "PMIX_MCA_ptl=tcp");
  EXPECT_EQ(*find_variable(env, "PMIX_MCA_gds"), "PMIX_MCA_gds=hash");
  EXPECT_EQ(*find_variable(env, "SHMPI_EAGER_LIMIT"), "SHMPI_EAGER_LIMIT=8k");
  EXPECT_EQ(*find_variable(env, "SHMPI_WAIT_POLICY"), "SHMPI_WAIT_POLICY=spin");  // the user's choice wins
  EXPECT_EQ(*find_variable(env, "FOO"), "FOO=bar");
  EXPECT_EQ(*find_variable(env, "PATH"), "PATH=/bin");
  Environment yielding = rank_environment(std::vector<std::string>{}, in);
  EXPECT_EQ(*find_variable(yielding, "SHMPI_WAIT_POLICY"), "SHMPI_WAIT_POLICY=yield");
}

TEST(Preflight, EffectiveTunables) {
  std::vector<std::string> env = {"SHMPI_RING_SIZE=8192"};
  const contract::TunableDefaults intel = job_defaults("intel", env, contract::this_cpu());
  std::vector<std::pair<std::string, std::string>> none;
  EXPECT_EQ(effective_tunable("ring_size", none, env, intel), "8192");
  std::vector<std::pair<std::string, std::string>> set = {{"ring_size", "16k"}};
  EXPECT_EQ(effective_tunable("ring_size", set, env, intel), "16k");
  EXPECT_EQ(effective_tunable("eager_limit", none, env, intel), "2048");
  EXPECT_EQ(effective_tunable("eager_limit", none, env, job_defaults("general", env, contract::this_cpu())), "8192");
  EXPECT_NO_THROW(check_environment_tunables(env));
  std::vector<std::string> bad = {"SHMPI_RING_SIZE=3"};
  EXPECT_ANY_THROW(check_environment_tunables(bad));
}

std::string usage_line(auto&& call) {
  try {
    call();
  } catch (const LaunchError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Preflight, TheOldNameOfATunableIsRefused) {
  std::vector<std::string> env = {"SHMPI_PINGPONG_LIMIT=0"};
  EXPECT_EQ(usage_line([&] { check_environment_tunables(env); }),
            "environment SHMPI_PINGPONG_LIMIT was renamed SHMPI_REPLY_PIPELINE_LIMIT");
}

// --profile wins over SHMPI_PROFILE, which wins over the CPU's; a profile
// file in the environment counts, and an unknown name stops the launch.
TEST(Preflight, TheJobsProfileIsChosenBeforeTheStart) {
  std::vector<std::string> env = {"SHMPI_PROFILE=intel"};
  EXPECT_EQ(job_defaults("", env, contract::this_cpu()).profile().name, "intel");
  EXPECT_EQ(job_defaults("", env, contract::this_cpu()).reason(), "SHMPI_PROFILE=intel");
  EXPECT_EQ(job_defaults("general", env, contract::this_cpu()).reason(), "--profile general");
  EXPECT_EQ(usage_line([&] { job_defaults("epyc9", env, contract::this_cpu()); }),
            "--profile epyc9: no such profile (profiles: far, general, intel)");
  const std::string path = ::testing::TempDir() + "/preflight_test.profile";
  std::FILE* file = std::fopen(path.c_str(), "w");
  ASSERT_NE(file, nullptr);
  std::fputs("profile mine\nmatch cpu_vendor=NoSuchVendor\nset ring_size=8k\n", file);
  std::fclose(file);
  std::vector<std::string> with_file = {"SHMPI_PROFILE_FILE=" + path};
  const contract::TunableDefaults mine = job_defaults("mine", with_file, contract::this_cpu());
  EXPECT_EQ(effective_tunable("ring_size", {}, with_file, mine), "8k");
  EXPECT_NE(job_defaults("", with_file, contract::this_cpu()).profile().name, "mine");  // matches no CPU
  std::remove(path.c_str());
  EXPECT_EQ(usage_line([&] { job_defaults("", with_file, contract::this_cpu()); }),
            "SHMPI_PROFILE_FILE=" + path + ": cannot read it: No such file or directory");
}

}  // namespace
}  // namespace shmpi::launcher
