#include "options.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include <shmpi/job_contract.hpp>
#include <shmpi/tunables.hpp>

#include "launch_error.hpp"

namespace shmpi::launcher {
namespace {

// A count of `what` (ranks, nodes), at most the ranks shmpi runs.
int parse_count(std::string_view flag, std::string_view value, const char* what) {
  int n = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc{} || end != value.data() + value.size() || n <= 0)
    throw usage_error(std::string(flag) + " needs a positive number of " + what + ", not '" + std::string(value) +
                      "'");
  if (static_cast<std::uint32_t>(n) > contract::kMaxRanks)
    throw usage_error(std::string(flag) + " " + std::string(value) + ": shmpi runs at most " +
                      std::to_string(contract::kMaxRanks) + " ranks");
  return n;
}

int parse_ranks(std::string_view flag, std::string_view value) { return parse_count(flag, value, "ranks"); }

double parse_seconds(std::string_view flag, std::string_view value, bool allow_zero) {
  std::string text(value);
  char* end = nullptr;
  double seconds = std::strtod(text.c_str(), &end);
  bool ok = !text.empty() && end == text.c_str() + text.size() && std::isfinite(seconds) &&
            (allow_zero ? seconds >= 0 : seconds > 0) && seconds < 1e9;
  if (!ok)
    throw usage_error(std::string(flag) + " needs a " + (allow_zero ? "non-negative" : "positive") +
                      " number of seconds, not '" + text + "'");
  return seconds;
}

std::pair<std::string, std::string> parse_tunable(std::string_view value) {
  auto eq = value.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw usage_error("--set needs NAME=VALUE, not '" + std::string(value) + "'");
  std::string name(value.substr(0, eq));  // EAGER_LIMIT works as well as eager_limit
  for (char& c : name) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  std::string setting(value.substr(eq + 1));
  const contract::TunableSpec* spec = contract::find_tunable(name);
  if (const char* renamed = contract::renamed_to(name))
    throw usage_error("unknown tunable '" + name + "' in --set (renamed " + renamed + ")");
  if (spec == nullptr)
    throw usage_error("unknown tunable '" + name + "' in --set (shmpi_info lists them)");
  if (std::string reason = contract::validate_tunable(*spec, setting); !reason.empty())
    throw usage_error("--set " + reason);
  return {name, setting};
}

std::string parse_export(std::string_view value) {
  std::string_view name = value.substr(0, value.find('='));
  bool ok = !name.empty() && !(name[0] >= '0' && name[0] <= '9');
  for (char c : name) ok = ok && (c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'));
  if (!ok) throw usage_error("-x needs VAR or VAR=value, not '" + std::string(value) + "'");
  return std::string(value);
}

template <class Enum>
Enum parse_choice(std::string_view flag, std::string_view value,
                  std::initializer_list<std::pair<std::string_view, Enum>> choices) {
  std::string names;
  for (const auto& [name, e] : choices) {
    if (name == value) return e;
    if (!names.empty()) names += '|';
    names += name;
  }
  throw usage_error(std::string(flag) + " must be " + names + ", not '" + std::string(value) + "'");
}

struct Flag {
  std::string_view name;  // without dashes; accepted with "-" or "--"
  bool takes_value;
  void (*apply)(ParsedArgs&, std::string_view flag, std::string_view value);
};

constexpr Flag kFlags[] = {
    {"n", true, [](ParsedArgs& p, auto f, auto v) { p.options.ranks = parse_ranks(f, v); }},
    {"np", true, [](ParsedArgs& p, auto f, auto v) { p.options.ranks = parse_ranks(f, v); }},
    {"oversubscribe", false, [](ParsedArgs& p, auto, auto) { p.options.oversubscribe = true; }},
    {"bind-to", true, [](ParsedArgs& p, auto f, auto v) {
       p.options.bind_to = parse_choice<BindTo>(f, v, {{"none", BindTo::None}, {"core", BindTo::Core},
                                                        {"numa", BindTo::Numa}});
     }},
    {"map-by", true, [](ParsedArgs& p, auto f, auto v) {
       p.options.map_by = parse_choice<MapBy>(f, v, {{"core", MapBy::Core}, {"numa", MapBy::Numa}});
     }},
    {"report-bindings", false, [](ParsedArgs& p, auto, auto) { p.options.report_bindings = true; }},
    {"tag-output", false, [](ParsedArgs& p, auto, auto) { p.options.tag_output = true; }},
    {"timestamp-output", false, [](ParsedArgs& p, auto, auto) { p.options.timestamp_output = true; }},
    {"output-filename", true, [](ParsedArgs& p, auto f, auto v) {
       if (v.empty()) throw usage_error(std::string(f) + " needs a directory");
       p.options.output_dir = std::string(v);
     }},
    {"x", true, [](ParsedArgs& p, auto, auto v) { p.options.exports.push_back(parse_export(v)); }},
    {"timeout", true, [](ParsedArgs& p, auto f, auto v) { p.options.timeout_s = parse_seconds(f, v, false); }},
    {"kill-grace", true, [](ParsedArgs& p, auto f, auto v) { p.options.kill_grace_s = parse_seconds(f, v, true); }},
    {"set", true, [](ParsedArgs& p, auto, auto v) { p.options.tunables.push_back(parse_tunable(v)); }},
    {"profile", true, [](ParsedArgs& p, auto f, auto v) {
       if (v.empty()) throw usage_error(std::string(f) + " needs a profile name (shmpi_info lists them)");
       p.options.profile = std::string(v);
     }},
    {"fake-nodes", true, [](ParsedArgs& p, auto f, auto v) { p.options.fake_nodes = parse_count(f, v, "nodes"); }},
    {"report", true, [](ParsedArgs& p, auto f, auto v) { apply_report(p.options.report, f, v); }},
    {"version", false, [](ParsedArgs& p, auto, auto) { p.action = Action::Version; }},
    {"V", false, [](ParsedArgs& p, auto, auto) { p.action = Action::Version; }},
    {"help", false, [](ParsedArgs& p, auto, auto) { p.action = Action::Help; }},
    {"h", false, [](ParsedArgs& p, auto, auto) { p.action = Action::Help; }},
};

const Flag* find_flag(std::string_view name) {
  for (const Flag& flag : kFlags)
    if (flag.name == name) return &flag;
  return nullptr;
}

}  // namespace

ParsedArgs parse_args(std::span<const std::string> args) {
  ParsedArgs parsed;
  std::size_t i = 0;
  for (; i < args.size(); ++i) {
    std::string_view arg = args[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg.size() < 2 || arg[0] != '-') break;  // the program
    std::string_view body = arg.substr(arg[1] == '-' ? 2 : 1);
    std::string_view name = body.substr(0, body.find('='));
    const Flag* flag = find_flag(name);
    if (flag == nullptr) throw usage_error("unknown option '" + std::string(arg) + "' (see shmpirun --help)");
    std::string_view flag_text = arg.substr(0, arg.size() - body.size() + name.size());
    bool inline_value = name.size() < body.size();
    if (!flag->takes_value && inline_value)
      throw usage_error("option " + std::string(flag_text) + " takes no value");
    std::string_view value;
    if (inline_value) {
      value = body.substr(name.size() + 1);
    } else if (flag->takes_value) {
      if (i + 1 >= args.size()) throw usage_error("option " + std::string(flag_text) + " needs a value");
      value = args[++i];
    }
    flag->apply(parsed, flag_text, value);
    if (flag->name == "report" && matrix_file_follows(value))  // the one option with two values
      take_matrix_file(parsed.options.report, i + 1 < args.size() ? &args[++i] : nullptr);
    if (parsed.action != Action::Run) return parsed;
  }
  parsed.options.command.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
  if (parsed.options.command.empty())
    throw usage_error("no program to run (usage: shmpirun -n N program [args...])");
  return parsed;
}

}  // namespace shmpi::launcher
