// The command line of shmpirun: one Options value, parsed once, every field
// documented here. Parsing is pure (no environment, no file system) and
// throws LaunchError (exit 2) with one line for any bad input.
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "report_options.hpp"

namespace shmpi::launcher {

enum class BindTo { Auto, None, Core, Numa };  // Auto: core when ranks fit the cores, else none
enum class MapBy { Core, Numa };

struct Options {
  int ranks = 0;                   // -n/-np N; 0 = not given: one rank per available CPU
  bool oversubscribe = false;      // --oversubscribe: allow more ranks than CPUs
  BindTo bind_to = BindTo::Auto;   // --bind-to none|core|numa
  MapBy map_by = MapBy::Core;      // --map-by core|numa
  bool report_bindings = false;    // --report-bindings: one line per rank on stderr
  bool tag_output = false;         // --tag-output: "[1,rank]<stdout>:" before each line
  bool timestamp_output = false;   // --timestamp-output: wall-clock time before each line
  std::string output_dir;          // --output-filename DIR: DIR/1/rank.N/{stdout,stderr}
  std::vector<std::string> exports;  // -x VAR[=value], in order
  double timeout_s = 0;            // --timeout S; 0 = none. On expiry: report, stop, exit 124
  double kill_grace_s = 2.0;       // --kill-grace S: SIGTERM..SIGKILL delay when stopping
  std::vector<std::pair<std::string, std::string>> tunables;  // --set name=value (validated)
  std::string profile;             // --profile NAME: the tunables' defaults (checked before the start)
  int fake_nodes = 0;              // --fake-nodes K: rank r claims host "<host>-node<r % K>" (tests the network path)
  ReportOptions report;            // --report stats | comm-matrix FILE (report_options.hpp)
  std::vector<std::string> command;  // program and its arguments
};

enum class Action { Run, Help, Version };

struct ParsedArgs {
  Action action = Action::Run;
  Options options;
};

// `args` excludes argv[0].
ParsedArgs parse_args(std::span<const std::string> args);

// The text of --help.
std::string usage_text();

}  // namespace shmpi::launcher
