// The profile text format and the rule that chooses a profile
// (include/shmpi/tunable_profile.hpp, tunable_defaults.hpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "shmpi/tunables.hpp"

namespace shmpi::contract {
namespace {

Profile parsed(std::string_view text, bool built_in = true) {
  ParsedProfile p = parse_profile(text, "test.profile", built_in);
  EXPECT_EQ(p.error, "");
  return p.profile;
}

std::string error_of(std::string_view text) { return parse_profile(text, "test.profile", false).error; }

const CpuIdentity kXeon{"GenuineIntel", 6, 143};
const CpuIdentity kEpyc{"AuthenticAMD", 25, 1};

TEST(ProfileText, NameRuleAndSettings) {
  const Profile p = parsed(
      "# comment\n\nprofile zen4\n  match cpu_vendor=AuthenticAMD cpu_family=25  \nset eager_limit = 4k\r\n"
      "set wait_policy=spin");
  EXPECT_EQ(p.name, "zen4");
  EXPECT_EQ(p.rule.vendor, "AuthenticAMD");
  EXPECT_EQ(p.rule.family, 25u);
  EXPECT_FALSE(p.rule.model.has_value());
  EXPECT_EQ(p.rule.text(), "cpu_vendor=AuthenticAMD cpu_family=25");
  ASSERT_EQ(p.values.size(), 2u);
  EXPECT_EQ(*p.value_of("eager_limit"), "4k");
  EXPECT_EQ(*p.value_of("wait_policy"), "spin");
  EXPECT_EQ(p.value_of("ring_size"), nullptr);
  EXPECT_TRUE(p.rule.matches(kEpyc));
  EXPECT_FALSE(p.rule.matches(CpuIdentity{"AuthenticAMD", 23, 1}));
  EXPECT_FALSE(p.rule.matches(kXeon));
  EXPECT_TRUE(parsed("profile x\nmatch any\n").rule.matches(kXeon));
  EXPECT_EQ(parsed("profile x\nmatch cpu_model=143").rule.text(), "cpu_model=143");
}

TEST(ProfileText, EachMistakeIsOneLineWithItsNumber) {
  EXPECT_EQ(error_of("match any\n"), "test.profile line 1: the first line must be 'profile NAME'");
  EXPECT_EQ(error_of("profile Big\n"),
            "test.profile line 1: profile needs a name of lower case letters, digits, _ and -");
  EXPECT_EQ(error_of("profile a\nmatch any\nprofile b"), "test.profile line 3: a second profile line");
  EXPECT_EQ(error_of("profile a\nmatch any\nmatch any"), "test.profile line 3: a second match line");
  EXPECT_EQ(error_of("profile a\nmatch\n"),
            "test.profile line 2: match needs 'any' or cpu_vendor=NAME, cpu_family=N, cpu_model=N, handoff_ns>=N");
  EXPECT_EQ(error_of("profile a\nmatch cpu_family=six\n"),
            "test.profile line 2: match: 'cpu_family=six' is not cpu_vendor=NAME, cpu_family=N, cpu_model=N or "
            "handoff_ns>=N");
  EXPECT_EQ(error_of("profile a\nmatch handoff_ns>=0\n"),
            "test.profile line 2: match: 'handoff_ns>=0' needs a bound of 1 to 999999999 ns");
  EXPECT_EQ(error_of("profile a\nmatch handoff_ns>=fast\n"),
            "test.profile line 2: match: 'handoff_ns>=fast' needs a bound of 1 to 999999999 ns");
  EXPECT_EQ(error_of("profile a\nmatch handoff_ns=40\n"),
            "test.profile line 2: match: 'handoff_ns=40' is not cpu_vendor=NAME, cpu_family=N, cpu_model=N or "
            "handoff_ns>=N");
  EXPECT_EQ(error_of("profile a\nmatch any\nset eager_limit\n"), "test.profile line 3: set needs NAME=VALUE");
  EXPECT_EQ(error_of("profile a\nmatch any\nset nope=1\n"), "test.profile line 3: unknown tunable 'nope'");
  EXPECT_EQ(error_of("profile a\nmatch any\nset pingpong_limit=0\n"),
            "test.profile line 3: unknown tunable 'pingpong_limit' (renamed reply_pipeline_limit)");
  EXPECT_EQ(error_of("profile a\nmatch any\nset ring_size=5000\n"),
            "test.profile line 3: ring_size=5000: must be a power of two");
  EXPECT_EQ(error_of("profile a\nmatch any\nset fast_box=on\nset fast_box=off\n"),
            "test.profile line 4: fast_box is set twice");
  EXPECT_EQ(error_of("profile a\nmatch any\nset test_cma_eperm=1\n"),
            "test.profile line 3: test_cma_eperm is a test setting; only the general profile sets its default");
  EXPECT_EQ(error_of("profile a\nmatch any\nuse x\n"), "test.profile line 3: 'use' is not profile, match or set");
  EXPECT_EQ(error_of("# nothing\n"), "test.profile: a profile needs a 'profile NAME' and a 'match' line");
  EXPECT_EQ(error_of("profile a\n"), "test.profile: a profile needs a 'profile NAME' and a 'match' line");
}

// A base that sets every tunable, as choose() requires.
Profile base() {
  std::string text = "profile general\nmatch any\n";
  for (const TunableSpec& t : tunables()) {
    const std::string_view choices = t.choices;
    const std::string value = t.kind == TunableKind::Choice ? std::string(choices.substr(0, choices.find('|')))
                                                           : std::to_string(t.min > 0 ? t.min : 0);
    text += "set " + std::string(t.name) + "=" + value + "\n";
  }
  return parsed(text);
}

std::string chosen(std::vector<Profile> profiles, const CpuIdentity& cpu, std::string name = "") {
  const TunableDefaults d = TunableDefaults::choose_among(std::move(profiles), {name, "SHMPI_PROFILE=", ""}, cpu);
  return d.error().empty() ? d.profile().name + ": " + d.reason() : "error: " + d.error();
}

TEST(ProfileChoice, TheClosestMatchWinsElseGeneral) {
  const Profile intel = parsed("profile intel\nmatch cpu_vendor=GenuineIntel\n");
  const Profile spr = parsed("profile spr\nmatch cpu_vendor=GenuineIntel cpu_family=6 cpu_model=143\n");
  EXPECT_EQ(chosen({base(), intel, spr}, kXeon),
            "spr: this CPU matches cpu_vendor=GenuineIntel cpu_family=6 cpu_model=143");
  EXPECT_EQ(chosen({base(), spr, intel}, CpuIdentity{"GenuineIntel", 6, 85}),
            "intel: this CPU matches cpu_vendor=GenuineIntel");
  EXPECT_EQ(chosen({base(), intel, spr}, kEpyc), "general: no other profile matches this CPU");
  EXPECT_EQ(chosen({base(), parsed("profile any2\nmatch any\n")}, kEpyc), "any2: this CPU matches any");
}

CpuIdentity with_handoff(CpuIdentity cpu, unsigned ns) {
  cpu.handoff_ns = ns;
  return cpu;
}

TEST(ProfileText, AHandoffBoundMatchesOnlyAMeasuredHandoffAtLeastThatLong) {
  const Profile apart = parsed("profile apart\nmatch handoff_ns>=40\n");
  EXPECT_EQ(apart.rule.text(), "handoff_ns>=40");
  EXPECT_FALSE(apart.rule.matches(kEpyc));  // not measured
  EXPECT_FALSE(apart.rule.matches(with_handoff(kEpyc, 39)));
  EXPECT_TRUE(apart.rule.matches(with_handoff(kEpyc, 40)));
  EXPECT_TRUE(apart.rule.matches(with_handoff(kXeon, 400)));
  const Profile amd = parsed("profile amd_apart\nmatch cpu_vendor=AuthenticAMD handoff_ns>=40\n");
  EXPECT_EQ(amd.rule.text(), "cpu_vendor=AuthenticAMD handoff_ns>=40");
  EXPECT_TRUE(amd.rule.matches(with_handoff(kEpyc, 57)));
  EXPECT_FALSE(amd.rule.matches(with_handoff(kXeon, 57)));
}

TEST(ProfileChoice, AMeasuredHandoffChoosesAmongProfilesThatNameNoCpu) {
  const Profile apart = parsed("profile apart\nmatch handoff_ns>=40\n");
  const Profile far = parsed("profile far\nmatch handoff_ns>=110\n");
  const Profile intel = parsed("profile intel\nmatch cpu_vendor=GenuineIntel\n");
  const std::vector<Profile> all{base(), apart, far, intel};
  EXPECT_EQ(chosen(all, kEpyc), "general: no other profile matches this CPU");
  EXPECT_EQ(chosen(all, with_handoff(kEpyc, 28)),
            "general: no other profile matches this CPU (measured hand-off 28 ns)");
  EXPECT_EQ(chosen(all, with_handoff(kEpyc, 57)), "apart: this CPU matches handoff_ns>=40 (measured hand-off 57 ns)");
  EXPECT_EQ(chosen({base(), far, apart, intel}, with_handoff(kEpyc, 170)),
            "far: this CPU matches handoff_ns>=110 (measured hand-off 170 ns)");
  // A profile that names the CPU was measured for it, wherever its cores sit.
  EXPECT_EQ(chosen(all, with_handoff(kXeon, 170)),
            "intel: this CPU matches cpu_vendor=GenuineIntel (measured hand-off 170 ns)");
  EXPECT_EQ(chosen(all, with_handoff(kEpyc, 170), "general"), "general: SHMPI_PROFILE=general");
}

TEST(ProfileChoice, ANamedProfileWinsAndAnUnknownNameIsAnError) {
  const Profile intel = parsed("profile intel\nmatch cpu_vendor=GenuineIntel\n");
  EXPECT_EQ(chosen({base(), intel}, kEpyc, "intel"), "intel: SHMPI_PROFILE=intel");
  EXPECT_EQ(chosen({base(), intel}, kXeon, "general"), "general: SHMPI_PROFILE=general");
  EXPECT_EQ(chosen({base(), intel}, kXeon, "epyc"),
            "error: SHMPI_PROFILE=epyc: no such profile (profiles: general, intel)");
}

TEST(ProfileChoice, AUsersFileWinsATieAndTwoBuiltInOnesAreAnError) {
  const Profile intel = parsed("profile intel\nmatch cpu_vendor=GenuineIntel\n");
  const Profile mine = parsed("profile mine\nmatch cpu_vendor=GenuineIntel\n", false);
  EXPECT_EQ(chosen({base(), mine, intel}, kXeon), "mine: this CPU matches cpu_vendor=GenuineIntel");
  EXPECT_EQ(chosen({base(), intel, mine}, kXeon), "mine: this CPU matches cpu_vendor=GenuineIntel");
  const Profile other = parsed("profile other\nmatch cpu_vendor=GenuineIntel\n");
  EXPECT_EQ(chosen({base(), intel, other}, kXeon),
            "error: internal: profiles intel and other both match this CPU as closely");
}

TEST(ProfileChoice, GeneralMustExistAndSetEveryTunable) {
  const Profile intel = parsed("profile intel\nmatch cpu_vendor=GenuineIntel\n");
  EXPECT_EQ(chosen({intel}, kXeon), "error: internal: no built-in profile general");
  EXPECT_EQ(chosen({parsed("profile general\nmatch any\nset ring_size=4k\n")}, kXeon),
            "error: internal: profile general sets no default for eager_limit");
}

TEST(ProfileChoice, AProfileOverridesSomeDefaultsAndGeneralGivesTheRest) {
  const Profile small = parsed("profile small\nmatch any\nset ring_size=8k\n");
  const TunableDefaults d = TunableDefaults::choose_among({base(), small}, {}, kXeon);
  ASSERT_EQ(d.error(), "");
  EXPECT_EQ(d.default_of(*find_tunable("ring_size")), "8k");
  EXPECT_EQ(d.default_of(*find_tunable("eager_limit")), "64");  // base()'s
}

TEST(ProfileChoice, AProfileFileIsReadAndItsMistakesNamed) {
  const std::string path = ::testing::TempDir() + "/tunables_test.profile";
  std::FILE* file = std::fopen(path.c_str(), "w");
  ASSERT_NE(file, nullptr);
  std::fputs("profile mine\nmatch cpu_vendor=GenuineIntel\nset eager_limit=1k\n", file);
  std::fclose(file);
  const TunableDefaults d = TunableDefaults::choose({"", "", path}, kXeon);
  ASSERT_EQ(d.error(), "");
  EXPECT_EQ(d.profile().name, "mine");
  EXPECT_EQ(d.profile().origin, path);
  EXPECT_EQ(d.default_of(*find_tunable("eager_limit")), "1k");
  file = std::fopen(path.c_str(), "w");
  std::fputs("profile intel\nmatch any\n", file);
  std::fclose(file);
  EXPECT_EQ(TunableDefaults::choose({"", "", path}, kXeon).error(),
            "SHMPI_PROFILE_FILE: " + path + ": a built-in profile is named intel; choose another name");
  file = std::fopen(path.c_str(), "w");
  std::fputs("profile mine\nmatch any\nset eager_limit=1x\n", file);
  std::fclose(file);
  EXPECT_EQ(TunableDefaults::choose({"", "", path}, kXeon).error(),
            "SHMPI_PROFILE_FILE: " + path + " line 3: eager_limit=1x: not a byte count (e.g. 4096, 64k, 1M)");
  std::remove(path.c_str());
}

TEST(TunableSpecs, LevelsAndTheRenamedName) {
  EXPECT_EQ(find_tunable("test_cma_eperm")->level, TunableLevel::Test);
  EXPECT_EQ(find_tunable("eager_limit")->level, TunableLevel::User);
  EXPECT_EQ(find_tunable("reply_pipeline_limit")->level, TunableLevel::Expert);
  EXPECT_STREQ(level_name(TunableLevel::Expert), "expert");
  EXPECT_EQ(find_tunable("pingpong_limit"), nullptr);
  EXPECT_STREQ(renamed_to("pingpong_limit"), "reply_pipeline_limit");
  EXPECT_EQ(renamed_to("eager_limit"), nullptr);
}

}  // namespace
}  // namespace shmpi::contract
