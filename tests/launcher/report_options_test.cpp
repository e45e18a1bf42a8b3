// shmpirun --report: parsing, the ranks' environment, the gnuplot script.
#include <gtest/gtest.h>

#include <filesystem>

#include "heat_map.hpp"
#include "launch_error.hpp"
#include "options.hpp"
#include "report_options.hpp"

namespace shmpi::launcher {
namespace {

Options parse(std::vector<std::string> args) { return parse_args(args).options; }

std::string error_of(std::vector<std::string> args) {
  try {
    parse(std::move(args));
  } catch (const LaunchError& e) {
    EXPECT_EQ(e.exit_code(), kExitUsage);
    return e.what();
  }
  return "(no error)";
}

TEST(ReportOptions, StatsAndMatrixTogether) {
  Options o = parse({"--report", "stats", "--report", "comm-matrix", "m.csv", "prog", "x.csv"});
  EXPECT_TRUE(o.report.stats);
  EXPECT_EQ(o.report.comm_matrix, "m.csv");
  EXPECT_EQ(o.command, (std::vector<std::string>{"prog", "x.csv"}));
}

TEST(ReportOptions, InlineSpellings) {
  Options o = parse({"--report=comm-matrix=out/m.csv", "-report=stats", "prog"});
  EXPECT_TRUE(o.report.stats);
  EXPECT_EQ(o.report.comm_matrix, "out/m.csv");
  o = parse({"--report=comm-matrix", "m.csv", "prog"});
  EXPECT_EQ(o.report.comm_matrix, "m.csv");
  EXPECT_FALSE(o.report.stats);
}

TEST(ReportOptions, NothingAskedByDefault) {
  Options o = parse({"prog"});
  EXPECT_FALSE(o.report.stats);
  EXPECT_TRUE(o.report.comm_matrix.empty());
}

TEST(ReportOptions, BadInputIsOneLine) {
  EXPECT_EQ(error_of({"--report", "matrix", "prog"}), "--report must be stats or comm-matrix FILE, not 'matrix'");
  EXPECT_EQ(error_of({"--report", "comm-matrix"}), "--report comm-matrix needs a FILE");
  EXPECT_EQ(error_of({"--report=comm-matrix=", "prog"}), "--report comm-matrix needs a FILE");
  EXPECT_EQ(error_of({"--report"}), "option --report needs a value");
}

TEST(ReportOptions, PrepareSetsTheRanksVariablesWithAnAbsoluteFile) {
  ReportOptions report{true, "m.csv"};
  Environment env{"PATH=/bin"};
  prepare_report(report, env);
  const std::string absolute = (std::filesystem::current_path() / "m.csv").string();
  EXPECT_EQ(report.comm_matrix, absolute);
  EXPECT_EQ(env, (Environment{"PATH=/bin", "SHMPI_STATS=1", "SHMPI_COMM_MATRIX=" + absolute}));
}

TEST(ReportOptions, PrepareWithoutReportSetsNothing) {
  ReportOptions report;
  Environment env{"PATH=/bin"};
  prepare_report(report, env);
  EXPECT_EQ(env, (Environment{"PATH=/bin"}));
}

TEST(ReportOptions, PrepareRefusesAMissingDirectory) {
  ReportOptions report{false, "/nonexistent-shmpi-dir/m.csv"};
  Environment env;
  try {
    prepare_report(report, env);
    FAIL() << "no error";
  } catch (const LaunchError& e) {
    EXPECT_EQ(e.exit_code(), kExitUsage);
    EXPECT_STREQ(e.what(),
                 "--report comm-matrix /nonexistent-shmpi-dir/m.csv: no writable directory /nonexistent-shmpi-dir");
  }
  EXPECT_TRUE(env.empty());
}

TEST(HeatMap, ScriptQuotesPathsAndPutsRankZeroOnTop) {
  const std::string s = heat_map_script("/tmp/it's.csv", "/tmp/it's.csv.png", 4);
  EXPECT_NE(s.find("set output '/tmp/it''s.csv.png';"), std::string::npos) << s;
  EXPECT_NE(s.find("plot '/tmp/it''s.csv' matrix rowheaders columnheaders"), std::string::npos) << s;
  EXPECT_NE(s.find("set yrange [4-0.5:-0.5]"), std::string::npos) << s;
  EXPECT_NE(s.find("set logscale cb"), std::string::npos) << s;
  EXPECT_NE(s.find("set xtics 1"), std::string::npos) << s;
  EXPECT_EQ(heat_map_script("a", "b", 64).find("set xtics 1"), std::string::npos);
}

}  // namespace
}  // namespace shmpi::launcher
