// Where a tunable's default comes from: one profile, chosen once per process
// by the rule in kProfileRule, laid over the base profile "general". The
// built-in profiles are the files in profiles/, embedded by CMake
// (cmake/profiles.cmake); SHMPI_PROFILE_FILE adds one more at run time.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shmpi/cpu_identity.hpp"
#include "shmpi/tunable_profile.hpp"
#include "shmpi/tunable_spec.hpp"

namespace shmpi::contract {

struct BuiltinProfileText {
  const char* file;  // "intel.profile"
  const char* text;
};
// One entry per profiles/*.profile, in file name order.
inline constexpr BuiltinProfileText kBuiltinProfiles[] = {
#include "shmpi/builtin_profiles.inc"
};

inline constexpr const char* kProfileEnv = "SHMPI_PROFILE";
inline constexpr const char* kProfileFileEnv = "SHMPI_PROFILE_FILE";
inline constexpr const char* kProfileRule =
    "SHMPI_PROFILE (shmpirun --profile) names the profile; else the profile whose match rule names this CPU "
    "most closely (cpu_vendor, cpu_family, cpu_model; then the highest handoff_ns bound the hand-off shmpirun "
    "measured between the first two ranks' cores meets) is taken, a SHMPI_PROFILE_FILE profile winning ties; "
    "else general. Tunables a profile does not set keep general's default";

// What the user asked for; every field may be empty.
struct ProfileRequest {
  std::string name;      // a profile to take regardless of the CPU
  std::string named_by;  // where `name` came from, said before it: "SHMPI_PROFILE=", "--profile "
  std::string file;      // a profile file to consider besides the built-in ones
};

class TunableDefaults {
 public:
  // The built-in profiles, plus request.file, chosen for `cpu`.
  static TunableDefaults choose(const ProfileRequest& request, const CpuIdentity& cpu) {
    TunableDefaults d;
    for (const BuiltinProfileText& builtin : kBuiltinProfiles) {
      ParsedProfile parsed = parse_profile(builtin.text, std::string("built-in ") + builtin.file, true);
      if (!parsed.error.empty()) return d.fail("internal: " + parsed.error);
      d.profiles_.push_back(std::move(parsed.profile));
    }
    if (!request.file.empty() && !d.add_file(request.file)) return d;
    return d.select(request, cpu);
  }
  // The same among `profiles` (the unit tests' own).
  static TunableDefaults choose_among(std::vector<Profile> profiles, const ProfileRequest& request,
                                      const CpuIdentity& cpu) {
    TunableDefaults d;
    d.profiles_ = std::move(profiles);
    return d.select(request, cpu);
  }

  const std::string& error() const { return error_; }  // empty when usable; else one line
  const Profile& profile() const { return profiles_[chosen_]; }
  const std::string& reason() const { return reason_; }  // why profile() was chosen
  std::span<const Profile> profiles() const { return profiles_; }

  // The default of `spec`: the chosen profile's value, else the base's.
  std::string_view default_of(const TunableSpec& spec) const {
    const std::string* value = profiles_[chosen_].value_of(spec.name);
    if (value == nullptr) value = profiles_[base_].value_of(spec.name);
    return value != nullptr ? std::string_view(*value) : std::string_view();
  }

  // "general, intel"
  std::string profile_names() const {
    std::string names;
    for (const Profile& p : profiles_) names += (names.empty() ? "" : ", ") + p.name;
    return names;
  }

 private:
  TunableDefaults fail(std::string error) {
    error_ = std::move(error);
    return std::move(*this);
  }

  bool add_file(const std::string& path) {
    std::FILE* file = std::fopen(path.c_str(), "r");
    if (file == nullptr) {
      error_ = std::string(kProfileFileEnv) + "=" + path + ": cannot read it: " + std::strerror(errno);
      return false;
    }
    std::string text;
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;) text.append(buffer, n);
    std::fclose(file);
    ParsedProfile parsed = parse_profile(text, path, false);
    if (parsed.error.empty() && find(parsed.profile.name) != nullptr)
      parsed.error = path + ": a built-in profile is named " + parsed.profile.name + "; choose another name";
    if (!parsed.error.empty()) error_ = std::string(kProfileFileEnv) + ": " + parsed.error;
    profiles_.push_back(std::move(parsed.profile));
    return error_.empty();
  }

  const Profile* find(std::string_view name) const {
    for (const Profile& p : profiles_)
      if (p.name == name) return &p;
    return nullptr;
  }

  TunableDefaults select(const ProfileRequest& request, const CpuIdentity& cpu) {
    const Profile* base = find(kBaseProfile);
    if (base == nullptr) return fail(std::string("internal: no built-in profile ").append(kBaseProfile));
    base_ = static_cast<std::size_t>(base - profiles_.data());
    for (const TunableSpec& spec : tunables())
      if (base->value_of(spec.name) == nullptr)
        return fail(std::string("internal: profile ").append(kBaseProfile).append(" sets no default for ").append(spec.name));
    if (!request.name.empty()) return select_named(request);
    const Profile* best = base;
    for (const Profile& p : profiles_) {
      if (&p == base || !p.rule.matches(cpu)) continue;
      const bool closer = best == base || p.rule.closeness() > best->rule.closeness();
      const bool tie = best != base && p.rule.closeness() == best->rule.closeness();
      if (tie && p.built_in && best->built_in)
        return fail("internal: profiles " + best->name + " and " + p.name + " both match this CPU as closely");
      if (closer || (tie && !p.built_in)) best = &p;
    }
    chosen_ = static_cast<std::size_t>(best - profiles_.data());
    reason_ = best != base ? "this CPU matches " + best->rule.text() : "no other profile matches this CPU";
    if (cpu.handoff_ns != 0) reason_ += " (measured hand-off " + std::to_string(cpu.handoff_ns) + " ns)";
    return std::move(*this);
  }

  TunableDefaults select_named(const ProfileRequest& request) {
    const Profile* named = find(request.name);
    if (named == nullptr)
      return fail(request.named_by + request.name + ": no such profile (profiles: " + profile_names() + ")");
    chosen_ = static_cast<std::size_t>(named - profiles_.data());
    reason_ = request.named_by + request.name;
    return std::move(*this);
  }

  std::vector<Profile> profiles_;
  std::size_t base_ = 0;
  std::size_t chosen_ = 0;
  std::string reason_;
  std::string error_;
};

}  // namespace shmpi::contract
