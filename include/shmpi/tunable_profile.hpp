// A profile: a named set of tunable defaults and the CPUs it is for, written
// as text (profiles/*.profile, built in; or the file SHMPI_PROFILE_FILE names):
//
//   # comment
//   profile intel                      name: lower case letters, digits, _ and -
//   match cpu_vendor=GenuineIntel      or "match any"; cpu_family=N, cpu_model=N narrow it,
//                                      handoff_ns>=N needs a measured hand-off of N ns or more
//   set eager_limit=2048               any number, each tunable at most once
//
// The base profile "general" sets every tunable; any other one overrides some.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shmpi/cpu_identity.hpp"
#include "shmpi/tunable_spec.hpp"

namespace shmpi::contract {

inline constexpr std::string_view kBaseProfile = "general";

// The CPUs a profile is for; every field that is set must match.
struct ProfileRule {
  std::string vendor;                   // cpuid vendor string; empty: any CPU
  std::optional<unsigned> family;       // /proc/cpuinfo "cpu family"
  std::optional<unsigned> model;        // /proc/cpuinfo "model"
  std::optional<unsigned> handoff_min;  // a measured hand-off of at least this many ns

  bool matches(const CpuIdentity& cpu) const {
    return (vendor.empty() || vendor == cpu.vendor) && (!family || *family == cpu.family) &&
           (!model || *model == cpu.model) && (!handoff_min || (cpu.handoff_ns != 0 && cpu.handoff_ns >= *handoff_min));
  }
  // How closely the rule names a CPU, compared in order: how many of the
  // CPU's names it gives (a profile measured for a CPU kind keeps its
  // values wherever the cores sit), then the higher hand-off bound.
  std::pair<int, unsigned> closeness() const {
    return {(vendor.empty() ? 0 : 1) + (family ? 1 : 0) + (model ? 1 : 0), handoff_min.value_or(0)};
  }
  std::string text() const {
    if (vendor.empty() && !family && !model && !handoff_min) return "any";
    // Appends only: GCC 12 at -O3 flags `"literal" + std::string&&` (-Wrestrict, a false positive).
    std::string s;
    const auto add = [&s](const char* key, const std::string& value) {
      if (!s.empty()) s.append(" ");
      s.append(key).append("=").append(value);
    };
    if (!vendor.empty()) add("cpu_vendor", vendor);
    if (family) add("cpu_family", std::to_string(*family));
    if (model) add("cpu_model", std::to_string(*model));
    if (handoff_min) {
      if (!s.empty()) s.append(" ");
      s.append("handoff_ns>=").append(std::to_string(*handoff_min));
    }
    return s;
  }
};

struct Profile {
  std::string name;
  std::string origin;  // where it was read: "built-in general.profile" or the file's path
  bool built_in = false;
  ProfileRule rule;
  std::vector<std::pair<std::string, std::string>> values;  // tunable name, value; file order

  const std::string* value_of(std::string_view tunable) const {
    for (const auto& [setting, value] : values)
      if (setting == tunable) return &value;
    return nullptr;
  }
};

namespace profile_text {

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

inline bool valid_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) return false;
  return true;
}

// Empty on success, else why `words` ("cpu_vendor=X cpu_family=6") is no rule.
inline std::string parse_rule(std::string_view words, ProfileRule& rule) {
  if (words == "any") return {};
  if (words.empty()) return "match needs 'any' or cpu_vendor=NAME, cpu_family=N, cpu_model=N, handoff_ns>=N";
  while (!words.empty()) {
    const std::string_view word = words.substr(0, words.find(' '));
    words = trim(words.substr(word.size()));
    if (word.starts_with("handoff_ns>=")) {
      const auto bound = parse_count(word.substr(12));
      if (!bound || *bound == 0 || *bound >= 1000000000)
        return std::string("match: '").append(word).append("' needs a bound of 1 to 999999999 ns");
      rule.handoff_min = static_cast<unsigned>(*bound);
      continue;
    }
    const auto eq = word.find('=');
    const std::string_view key = word.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? "" : word.substr(eq + 1);
    if (key == "cpu_vendor" && !value.empty()) {
      rule.vendor = std::string(value);
      continue;
    }
    const auto number = parse_count(value);
    if (key == "cpu_family" && number) rule.family = static_cast<unsigned>(*number);
    else if (key == "cpu_model" && number) rule.model = static_cast<unsigned>(*number);
    else
      return std::string("match: '")
          .append(word)
          .append("' is not cpu_vendor=NAME, cpu_family=N, cpu_model=N or handoff_ns>=N");
  }
  return {};
}

// Empty on success, else why "set NAME=VALUE" cannot be taken into `profile`.
inline std::string parse_setting(std::string_view text, Profile& profile) {
  const auto eq = text.find('=');
  if (eq == std::string_view::npos) return "set needs NAME=VALUE";
  const std::string name(trim(text.substr(0, eq)));
  const std::string_view value = trim(text.substr(eq + 1));
  const TunableSpec* spec = find_tunable(name);
  if (spec == nullptr) {
    const char* renamed = renamed_to(name);
    return "unknown tunable '" + name + "'" + (renamed != nullptr ? std::string(" (renamed ") + renamed + ")" : "");
  }
  if (spec->level == TunableLevel::Test && profile.name != kBaseProfile)
    return name + " is a test setting; only the " + std::string(kBaseProfile) + " profile sets its default";
  if (std::string reason = validate_tunable(*spec, value); !reason.empty()) return reason;
  if (profile.value_of(name) != nullptr) return name + " is set twice";
  profile.values.emplace_back(name, std::string(value));
  return {};
}

// Empty on success, else why `line` (trimmed, not blank, not a comment) is wrong.
inline std::string parse_line(std::string_view line, Profile& profile, bool& matched) {
  const std::string_view keyword = line.substr(0, line.find(' '));
  const std::string_view rest = trim(line.substr(keyword.size()));
  if (keyword == "profile") {
    if (!profile.name.empty()) return "a second profile line";
    if (!valid_name(rest)) return "profile needs a name of lower case letters, digits, _ and -";
    profile.name = std::string(rest);
    return {};
  }
  if (profile.name.empty()) return "the first line must be 'profile NAME'";
  if (keyword == "match") {
    if (matched) return "a second match line";
    matched = true;
    return parse_rule(rest, profile.rule);
  }
  if (keyword == "set") return parse_setting(rest, profile);
  return std::string("'").append(keyword).append("' is not profile, match or set");
}

}  // namespace profile_text

struct ParsedProfile {
  Profile profile;
  std::string error;  // empty on success, else one line: "<origin> line N: <reason>"
};

inline ParsedProfile parse_profile(std::string_view text, std::string origin, bool built_in) {
  ParsedProfile parsed;
  parsed.profile.origin = std::move(origin);
  parsed.profile.built_in = built_in;
  bool matched = false;
  for (int number = 1; !text.empty(); ++number) {
    const std::string_view raw = text.substr(0, text.find('\n'));
    text.remove_prefix(raw.size() < text.size() ? raw.size() + 1 : raw.size());
    const std::string_view line = profile_text::trim(raw);
    if (line.empty() || line.front() == '#') continue;
    const std::string reason = profile_text::parse_line(line, parsed.profile, matched);
    if (!reason.empty()) {
      parsed.error = parsed.profile.origin + " line " + std::to_string(number) + ": " + reason;
      return parsed;
    }
  }
  if (parsed.profile.name.empty() || !matched)
    parsed.error = parsed.profile.origin + ": a profile needs a 'profile NAME' and a 'match' line";
  return parsed;
}

}  // namespace shmpi::contract
