// The built-in profiles (profiles/*.profile) are the one source of every
// default; each other place that states a default is checked against them
// here, so it cannot drift: btl/ring.hpp's ClaimAhead constants and the
// "Defaults:" line of docs/tunables/<name>.md. (The integration cases run
// each profile by name, shmpirun --profile, and hold no copy.)
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "btl/ring.hpp"
#include "shmpi/tunables.hpp"

namespace shmpi::contract {
namespace {

// The built-in profiles, the base first, then in file name order.
std::vector<Profile> builtin_profiles() {
  const TunableDefaults d = TunableDefaults::choose({std::string(kBaseProfile), "test ", ""}, CpuIdentity{});
  EXPECT_EQ(d.error(), "");
  std::vector<Profile> profiles(d.profiles().begin(), d.profiles().end());
  std::stable_partition(profiles.begin(), profiles.end(), [](const Profile& p) { return p.name == kBaseProfile; });
  return profiles;
}

std::string base_default(std::string_view name) {
  const Profile base = builtin_profiles().front();
  const std::string* value = base.value_of(name);
  return value != nullptr ? *value : "(unset)";
}

TEST(BuiltinProfiles, EachFileNamesItsProfileAndParses) {
  ASSERT_GE(std::size(kBuiltinProfiles), 2u);
  for (const BuiltinProfileText& builtin : kBuiltinProfiles) {
    const ParsedProfile p = parse_profile(builtin.text, builtin.file, true);
    EXPECT_EQ(p.error, "");
    EXPECT_EQ(p.profile.name + ".profile", builtin.file);
  }
}

TEST(BuiltinProfiles, GeneralMatchesAnyCpuAndSetsEveryTunable) {
  const Profile base = builtin_profiles().front();
  EXPECT_EQ(base.name, kBaseProfile);
  EXPECT_EQ(base.rule.text(), "any");
  for (const TunableSpec& t : tunables()) EXPECT_NE(base.value_of(t.name), nullptr) << t.name;
}

TEST(BuiltinProfiles, IntelCpusTakeTheIntelProfile) {
  const TunableDefaults xeon = TunableDefaults::choose({}, CpuIdentity{"GenuineIntel", 6, 143});
  EXPECT_EQ(xeon.profile().name, "intel");
  EXPECT_EQ(xeon.reason(), "this CPU matches cpu_vendor=GenuineIntel");
  EXPECT_EQ(xeon.default_of(*find_tunable("eager_limit")), "2048");
  EXPECT_EQ(xeon.default_of(*find_tunable("ring_size")), "131072");  // general's
  const TunableDefaults epyc = TunableDefaults::choose({}, CpuIdentity{"AuthenticAMD", 25, 1});
  EXPECT_EQ(epyc.profile().name, "general");
  EXPECT_EQ(epyc.default_of(*find_tunable("eager_limit")), "8192");
}

TEST(BuiltinProfiles, AHandoffOfCoresOnDifferentDiesTakesTheFarProfileOnEpyc) {
  const auto on_epyc = [](unsigned handoff_ns) {
    return TunableDefaults::choose({}, CpuIdentity{"AuthenticAMD", 25, 1, handoff_ns});
  };
  EXPECT_EQ(on_epyc(0).profile().name, "general");   // not measured
  EXPECT_EQ(on_epyc(28).profile().name, "general");  // hardware threads of one core
  EXPECT_EQ(on_epyc(57).profile().name, "general");  // separate cores
  EXPECT_EQ(on_epyc(99).profile().name, "general");
  const TunableDefaults far = on_epyc(170);
  EXPECT_EQ(far.profile().name, "far");
  EXPECT_EQ(far.default_of(*find_tunable("rndv_threshold")), "8192");
  EXPECT_EQ(far.default_of(*find_tunable("eager_limit")), "4096");
  EXPECT_EQ(far.default_of(*find_tunable("reply_pipeline_limit")), "65536");
  EXPECT_EQ(far.default_of(*find_tunable("split_threshold")), "131072");
  EXPECT_EQ(TunableDefaults::choose({}, CpuIdentity{"GenuineIntel", 6, 143, 170}).profile().name, "intel");
}

TEST(DefaultCopies, RingClaimAheadConstantsAreGeneralsDefaults) {
  EXPECT_EQ(std::to_string(btl::kClaimAheadFrom), base_default("claim_ahead_from"));
  EXPECT_EQ(std::to_string(btl::kClaimAheadUntil), base_default("claim_ahead_limit"));
}

// "Defaults: general 8192; intel 2048." -- every built-in profile that sets
// the tunable, the base first.
std::string expected_defaults_line(std::string_view name) {
  std::string line;
  for (const Profile& p : builtin_profiles())
    if (const std::string* value = p.value_of(name)) line += (line.empty() ? "" : "; ") + p.name + " " + *value;
  return "Defaults: " + line + ".";
}

TEST(DefaultCopies, EachTunableHasADocumentWithTheProfilesDefaults) {
  for (const TunableSpec& t : tunables()) {
    const std::string path = std::string(SHMPI_SOURCE_DIR) + "/docs/tunables/" + t.name + ".md";
    std::ifstream doc(path);
    ASSERT_TRUE(doc.good()) << "no " << path;
    std::string line;
    std::string found;
    while (std::getline(doc, line))
      if (line.starts_with("Defaults:")) found = line;
    EXPECT_EQ(found, expected_defaults_line(t.name)) << path;
  }
}

}  // namespace
}  // namespace shmpi::contract
