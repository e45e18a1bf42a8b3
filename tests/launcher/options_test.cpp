#include "options.hpp"

#include <gtest/gtest.h>

#include "launch_error.hpp"

namespace shmpi::launcher {
namespace {

ParsedArgs parse(std::vector<std::string> args) { return parse_args(args); }

std::string error_of(std::vector<std::string> args) {
  try {
    parse(std::move(args));
  } catch (const LaunchError& e) {
    EXPECT_EQ(e.exit_code(), kExitUsage);
    return e.what();
  }
  return "(no error)";
}

TEST(Options, MpirunSpellings) {
  auto p = parse({"-np", "4", "--oversubscribe", "-bind-to", "numa", "--map-by=numa", "--report-bindings",
                  "--tag-output", "--timestamp-output", "--output-filename", "out", "-x", "A=1", "-x", "B",
                  "--timeout", "2.5", "--kill-grace", "0", "--set", "eager_limit=8k", "prog", "-n", "9"});
  const Options& o = p.options;
  EXPECT_EQ(p.action, Action::Run);
  EXPECT_EQ(o.ranks, 4);
  EXPECT_TRUE(o.oversubscribe && o.report_bindings && o.tag_output && o.timestamp_output);
  EXPECT_EQ(o.bind_to, BindTo::Numa);
  EXPECT_EQ(o.map_by, MapBy::Numa);
  EXPECT_EQ(o.output_dir, "out");
  EXPECT_EQ(o.exports, (std::vector<std::string>{"A=1", "B"}));
  EXPECT_DOUBLE_EQ(o.timeout_s, 2.5);
  EXPECT_DOUBLE_EQ(o.kill_grace_s, 0);
  ASSERT_EQ(o.tunables.size(), 1u);
  EXPECT_EQ(o.tunables[0].first, "eager_limit");
  EXPECT_EQ(o.command, (std::vector<std::string>{"prog", "-n", "9"}));  // program's own args untouched
}

TEST(Options, CountTunablesTakeWholeNumbersInRange) {
  for (const char* value : {"0", "30", "1000"})
    EXPECT_EQ(parse({"--set", std::string("poll_gap_ns=") + value, "prog"}).options.tunables.at(0).second, value);
}

TEST(Options, TunableNamesIgnoreCase) {
  auto p = parse({"--set", "EAGER_LIMIT=64k", "prog"});
  ASSERT_EQ(p.options.tunables.size(), 1u);
  EXPECT_EQ(p.options.tunables[0].first, "eager_limit");
}

TEST(Options, DoubleDashEndsOptions) {
  auto p = parse({"-n", "2", "--", "-weird-name"});
  EXPECT_EQ(p.options.command, std::vector<std::string>{"-weird-name"});
}

TEST(Options, HelpAndVersion) {
  EXPECT_EQ(parse({"--help"}).action, Action::Help);
  EXPECT_EQ(parse({"-h"}).action, Action::Help);
  EXPECT_EQ(parse({"--version"}).action, Action::Version);
}

// The name is only kept here; whether such a profile exists is checked with
// the environment (SHMPI_PROFILE_FILE) before the start (job_defaults).
TEST(Options, ProfileIsKept) {
  EXPECT_EQ(parse({"--profile", "intel", "prog"}).options.profile, "intel");
  EXPECT_EQ(parse({"-profile=mine", "prog"}).options.profile, "mine");
  EXPECT_EQ(parse({"prog"}).options.profile, "");
}

TEST(Options, BadInputIsOneClearLine) {
  EXPECT_EQ(error_of({"-n", "2"}), "no program to run (usage: shmpirun -n N program [args...])");
  EXPECT_EQ(error_of({"-n", "0", "p"}), "-n needs a positive number of ranks, not '0'");
  EXPECT_EQ(error_of({"-n", "-3", "p"}), "-n needs a positive number of ranks, not '-3'");
  EXPECT_EQ(error_of({"-n", "2x", "p"}), "-n needs a positive number of ranks, not '2x'");
  EXPECT_EQ(error_of({"-n", "65536", "p"}), "-n 65536: shmpi runs at most 65535 ranks");
  EXPECT_EQ(error_of({"--fake-nodes", "0", "p"}), "--fake-nodes needs a positive number of nodes, not '0'");
  EXPECT_EQ(error_of({"-n"}), "option -n needs a value");
  EXPECT_EQ(error_of({"--bogus", "p"}), "unknown option '--bogus' (see shmpirun --help)");
  EXPECT_EQ(error_of({"--bind-to", "socket", "p"}), "--bind-to must be none|core|numa, not 'socket'");
  EXPECT_EQ(error_of({"--timeout", "0", "p"}), "--timeout needs a positive number of seconds, not '0'");
  EXPECT_EQ(error_of({"--tag-output=1", "p"}), "option --tag-output takes no value");
  EXPECT_EQ(error_of({"--set", "nope=1", "p"}), "unknown tunable 'nope' in --set (shmpi_info lists them)");
  EXPECT_EQ(error_of({"--set", "pingpong_limit=0", "p"}),
            "unknown tunable 'pingpong_limit' in --set (renamed reply_pipeline_limit)");
  EXPECT_EQ(error_of({"--profile=", "p"}), "--profile needs a profile name (shmpi_info lists them)");
  EXPECT_EQ(error_of({"--profile"}), "option --profile needs a value");
  EXPECT_EQ(error_of({"--set", "ring_size=1000", "p"}), "--set ring_size=1000: must be between 4096 and 67108864");
  EXPECT_EQ(error_of({"--set", "poll_gap_ns=3k", "p"}), "--set poll_gap_ns=3k: not a whole number");
  EXPECT_EQ(error_of({"--set", "poll_gap_ns=-1", "p"}), "--set poll_gap_ns=-1: not a whole number");
  EXPECT_EQ(error_of({"--set", "poll_gap_ns=", "p"}), "--set poll_gap_ns=: not a whole number");
  EXPECT_EQ(error_of({"--set", "poll_gap_ns=1001", "p"}), "--set poll_gap_ns=1001: must be between 0 and 1000");
  EXPECT_EQ(error_of({"--set", "eager_limit", "p"}), "--set needs NAME=VALUE, not 'eager_limit'");
  EXPECT_EQ(error_of({"-x", "1A=2", "p"}), "-x needs VAR or VAR=value, not '1A=2'");
}

}  // namespace
}  // namespace shmpi::launcher
