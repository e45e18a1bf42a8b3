// What each tunable of shmpi is: name, level, one-line description and the
// rule a value must obey. Defaults are not here: they come from the profiles
// (profiles/*.profile, see tunable_profile.hpp), and the measurements behind
// them are in docs/tunables/<name>.md. Environment: SHMPI_<NAME in upper case>.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace shmpi::contract {

enum class TunableKind : std::uint8_t {
  Bytes,   // a byte count: decimal, optional suffix k/K, m/M, g/G (powers of 1024)
  Choice,  // one of the words in `choices`, separated by '|'
  Count,   // a whole number, decimal, no suffix
};

// Who the setting is for, like Open MPI's MCA parameter levels: User
// settings change what a job does; Expert ones tune a measured mechanism;
// Test ones exist for the test suite only (shmpi_info lists them with --all).
enum class TunableLevel : std::uint8_t { User, Expert, Test };

inline const char* level_name(TunableLevel level) noexcept {
  return level == TunableLevel::User ? "user" : level == TunableLevel::Expert ? "expert" : "test";
}

struct TunableSpec {
  const char* name;           // lower case, e.g. "eager_limit"
  TunableLevel level;
  const char* description;    // one line
  TunableKind kind;
  std::uint64_t min = 0;      // Bytes and Count: inclusive bounds
  std::uint64_t max = 0;
  bool power_of_two = false;  // Bytes only
  const char* choices = "";   // Choice only
};

// There is no inline-limit tunable: a payload of up to 16 bytes rides in one
// 32-byte ring slot and up to 48 bytes in one cache line, by construction.
inline constexpr TunableSpec kTunables[] = {
    {"eager_limit", TunableLevel::User,
     "largest message sent eagerly as one ring record; larger ones are fragmented or use rendezvous",
     TunableKind::Bytes, 64, 65536},
    {"ring_size", TunableLevel::User,
     "bytes of each per-pair FIFO ring, in the receiver's segment",
     TunableKind::Bytes, 4096, 64ull << 20, true},
    {"segment_budget", TunableLevel::User,
     "most bytes of a rank's receive segment: when N rings of ring_size do not fit, every ring of the job halves until they do (4 KiB at least), and the eager limit shrinks to a quarter of the ring",
     TunableKind::Bytes, 1ull << 20, 1ull << 40},
    {"max_fragment", TunableLevel::Expert,
     "largest fragment of a pipelined copy-in/copy-out transfer",
     TunableKind::Bytes, 1024, 16ull << 20},
    {"rndv_threshold", TunableLevel::User,
     "messages at or above this size use rendezvous (single copy when permitted)",
     TunableKind::Bytes, 64, 1ull << 40},
    {"reply_pipeline_limit", TunableLevel::Expert,
     "messages from rndv_threshold up to (not including) this size are pipelined through the ring instead of by rendezvous when they answer the peer's last message and nothing else of ours to it is in flight (0: never)",
     TunableKind::Bytes, 0, 1ull << 20},
    {"split_threshold", TunableLevel::Expert,
     "single copies at least this large are shared: the receiver reads one half while the sender writes the other (0: never)",
     TunableKind::Bytes, 0, 1ull << 40},
    {"run_copy_min", TunableLevel::Expert,
     "non-contiguous rendezvous messages whose runs of contiguous bytes average fewer bytes than this (on either side) are packed and streamed through the ring instead of copied run to run by single copy (0: always run to run)",
     TunableKind::Bytes, 0, 1ull << 40},
    {"claim_ahead_from", TunableLevel::Expert,
     "ring records of at least this many bytes (and below claim_ahead_limit) make the sender claim the cache lines of its next record of the same size as soon as it commits one; smaller ones claim one line",
     TunableKind::Bytes, 0, 65536},
    {"claim_ahead_limit", TunableLevel::Expert,
     "ring records of this many bytes or more do not claim the lines of the next record early (see claim_ahead_from)",
     TunableKind::Bytes, 0, 65536},
    {"unexpected_budget", TunableLevel::User,
     "most bytes the payloads of a rank's unexpected messages (each charged its length plus one record) may hold before it asks the senders on its node to send it every message as a rendezvous offer, leaving the payload with them until a receive matches it; it lets them send payloads again once half drained (0: offers only, always)",
     TunableKind::Bytes, 0, 1ull << 40},
    {"coll_shm_limit", TunableLevel::Expert,
     "most bytes a rank publishes in one small blocking collective (barrier, bcast, reduce, allreduce on an intracommunicator of 2 to 16 ranks, all on this node) through its shared-memory collective slots, which every member reads directly, instead of point-to-point trees (0: never)",
     TunableKind::Bytes, 0, 8192},
    {"single_copy", TunableLevel::User,
     "single-copy mechanism for rendezvous: cma (process_vm_readv) or none (pipelined fallback)",
     TunableKind::Choice, 0, 0, false, "cma|none"},
    {"rndv_route", TunableLevel::Expert,
     "how rendezvous payloads at least rndv_threshold and below twice it travel when single copy is permitted: auto (single copy or streamed through the ring, chosen per burst of messages from a peer by what each cost lately, trying the other now and then) or single_copy",
     TunableKind::Choice, 0, 0, false, "auto|single_copy"},
    {"numa_policy", TunableLevel::User,
     "placement of receive segments and fragments: local to the rank's CPU, interleave, or none",
     TunableKind::Choice, 0, 0, false, "local|interleave|none"},
    {"wait_policy", TunableLevel::User,
     "how a blocked rank waits: spin (never gives up its core), yield (at once, then sleeps until a peer sends), or auto (spin, yield, sleep; yield at once when ranks outnumber cores)",
     TunableKind::Choice, 0, 0, false, "auto|spin|yield"},
    {"fast_box", TunableLevel::Expert,
     "records of up to 56 bytes (messages of up to 44 bytes, acks) may use the cache line the pair shares instead of the ring: on or off",
     TunableKind::Choice, 0, 0, false, "on|off"},
    {"box_probe", TunableLevel::Expert,
     "at start-up each pair times 8 candidate cache lines for its fast box and keeps the fastest (a line's hand-off time between two cores depends on its address on mesh CPUs): on or off; skipped when ranks outnumber cores",
     TunableKind::Choice, 0, 0, false, "on|off"},
    {"poll_gap_ns", TunableLevel::Expert,
     "nanoseconds a waiting rank pauses between two polls that found nothing, so it does not pull back the cache line its peer is writing an answer into (rounded to whole pause instructions, at least one); 0: an lfence only",
     TunableKind::Count, 0, 1000},
    {"test_cma_eperm", TunableLevel::Test,
     "test hook: 1 makes every single-copy call fail with EPERM, as in a container that forbids CMA",
     TunableKind::Choice, 0, 0, false, "0|1"},
    {"test_stand_by_timeout", TunableLevel::Test,
     "test hook: off makes a thread standing by in a wait (MPI_THREAD_MULTIPLE) sleep until it is told its wait is over, without its 10 ms safety timeout, so a missed wake-up hangs",
     TunableKind::Choice, 0, 0, false, "on|off"},
    {"test_sleep_at_once", TunableLevel::Test,
     "test hook: on makes a wait that has become long sleep at once (no spinning or yielding first) and each sleep last up to 1 s instead of 1 ms, so a wake-up that never comes shows as a hang",
     TunableKind::Choice, 0, 0, false, "off|on"},
    {"test_available_memory", TunableLevel::Test,
     "test hook: shmpirun takes this many bytes as the memory available to the job's segments instead of measuring it (0: measure)",
     TunableKind::Bytes, 0, 1ull << 50},
};

inline std::span<const TunableSpec> tunables() { return kTunables; }

inline const TunableSpec* find_tunable(std::string_view name) {
  for (const TunableSpec& t : kTunables)
    if (name == t.name) return &t;
  return nullptr;
}

// Tunables that were renamed: a setting under the old name is refused with
// the new one, rather than silently ignored.
struct RenamedTunable {
  const char* old_name;
  const char* new_name;
};
inline constexpr RenamedTunable kRenamedTunables[] = {{"pingpong_limit", "reply_pipeline_limit"}};

inline const char* renamed_to(std::string_view old_name) noexcept {
  for (const RenamedTunable& r : kRenamedTunables)
    if (old_name == r.old_name) return r.new_name;
  return nullptr;
}

// "eager_limit" -> "SHMPI_EAGER_LIMIT"
inline std::string tunable_env_name(std::string_view name) {
  std::string env = "SHMPI_";
  for (char c : name) env += (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  return env;
}

// Why an eager limit the user set does not fit rings of `ring_size` bytes
// (a record takes at most a quarter of its ring, 64 bytes of it headers),
// or "" if it fits. One left at its default follows the ring down instead.
inline std::string eager_limit_misfit(std::uint64_t eager_limit, std::uint64_t ring_size) {
  if (eager_limit + 64 <= ring_size / 4) return "";
  return "eager_limit=" + std::to_string(eager_limit) + " does not fit a quarter of ring_size=" +
         std::to_string(ring_size) + " (at most " + std::to_string(ring_size / 4 >= 64 ? ring_size / 4 - 64 : 0) +
         ")";
}

// Parses a byte count ("4096", "64k", "1M"). nullopt when malformed.
inline std::optional<std::uint64_t> parse_bytes(std::string_view text) {
  std::uint64_t value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  auto [end, ec] = std::from_chars(first, last, value);
  if (ec != std::errc{} || end == first) return std::nullopt;
  std::uint64_t scale = 1;
  if (end != last) {
    switch (*end) {
      case 'k': case 'K': scale = 1ull << 10; break;
      case 'm': case 'M': scale = 1ull << 20; break;
      case 'g': case 'G': scale = 1ull << 30; break;
      default: return std::nullopt;
    }
    if (++end != last) return std::nullopt;
  }
  if (value > UINT64_MAX / scale) return std::nullopt;
  return value * scale;
}

// Parses a whole number ("3"). nullopt when malformed.
inline std::optional<std::uint64_t> parse_count(std::string_view text) {
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end == text.data() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// Empty when `value` is valid for `spec`; otherwise the reason, one line,
// e.g. "eager_limit=12x: not a byte count (e.g. 4096, 64k, 1M)".
inline std::string validate_tunable(const TunableSpec& spec, std::string_view value) {
  std::string prefix = std::string(spec.name) + "=" + std::string(value) + ": ";
  if (spec.kind == TunableKind::Choice) {
    std::string_view choices = spec.choices;
    while (!choices.empty()) {
      auto bar = choices.find('|');
      if (choices.substr(0, bar) == value) return {};
      if (bar == std::string_view::npos) break;
      choices.remove_prefix(bar + 1);
    }
    return prefix + "must be one of " + spec.choices;
  }
  const bool count = spec.kind == TunableKind::Count;
  auto number = count ? parse_count(value) : parse_bytes(value);
  if (!number) return prefix + (count ? "not a whole number" : "not a byte count (e.g. 4096, 64k, 1M)");
  if (*number < spec.min || *number > spec.max)
    return prefix + "must be between " + std::to_string(spec.min) + " and " + std::to_string(spec.max);
  if (spec.power_of_two && (*number & (*number - 1)) != 0) return prefix + "must be a power of two";
  return {};
}

}  // namespace shmpi::contract
