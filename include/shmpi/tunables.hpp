// Every tunable of shmpi: name, default, one-line description, and the rule
// a value must obey. Part of the job contract: the ranks parse it into their
// Config, shmpirun validates --set NAME=VALUE before starting anything, and
// shmpi_info lists it. Environment variable: SHMPI_<NAME in upper case>.
#pragma once

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

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

struct TunableSpec {
  const char* name;           // lower case, e.g. "eager_limit"
  const char* default_value;  // as it would be written in the environment
  const char* description;    // one line
  TunableKind kind;
  std::uint64_t min = 0;      // Bytes and Count: inclusive bounds
  std::uint64_t max = 0;
  bool power_of_two = false;  // Bytes only
  const char* choices = "";   // Choice only
  // The default on Intel CPUs, where it was measured to differ (nullptr: the
  // same everywhere). See default_of().
  const char* intel_default = nullptr;
};

// There is no inline-limit tunable: an eager record is a 4-byte ring header,
// a 12-byte match header and the payload, so a payload of up to 16 bytes rides
// in one 32-byte ring slot (half a cache line) and up to 48 bytes in one
// cache line, by construction.
// Defaults measured with benchmarks/compare on the 2-core EPYC machines
// (2026-12-02): single-record eager copies win up to 8 KiB, pipelined 16 KiB
// fragments up to 64 KiB (~10-11 GB/s, 2.3 us at 16 KiB against 4.3 us for a
// CMA rendezvous), and from 128 KiB a single copy split between both cores
// (16 GB/s at 128 KiB, 29-40 GB/s at 0.5-4 MiB).
// The 2-core Xeon machines (Sapphire Rapids class, 2026-12-05) differ: there a
// line crossing cores costs more and CMA less, so the two cross-core copies of
// the ring lose to one single copy from 4 KiB on (osu_latency 16 KiB 3.1 us
// pipelined, 1.35 us by CMA; 64 KiB 9.5 against 3.3 us; osu_bw 64 KiB 6.5
// against 23.5 GB/s). With eager_limit 2048 and rndv_threshold 4096 shmpi's
// latency beat both peers at every size there, by 1.15x or more from 4 KiB on
// (with the EPYC defaults it lost 2.6x at 64 KiB).
inline constexpr TunableSpec kTunables[] = {
    {"eager_limit", "8192",
     "largest message sent eagerly as one ring record; larger ones are fragmented or use rendezvous",
     TunableKind::Bytes, 64, 65536, false, "", "2048"},
    {"ring_size", "65536",
     "bytes of each per-pair FIFO ring, in the receiver's segment",
     TunableKind::Bytes, 4096, 64ull << 20, true},
    {"max_fragment", "16384",
     "largest fragment of a pipelined copy-in/copy-out transfer",
     TunableKind::Bytes, 1024, 16ull << 20},
    {"rndv_threshold", "131072",
     "messages at or above this size use rendezvous (single copy when permitted)",
     TunableKind::Bytes, 64, 1ull << 40, false, "", "4096"},
    // A rendezvous pays for its handshake by batching its single copy with
    // others (SingleCopy::read_pieces); a ping-pong's message is read alone.
    // Xeon VMs (rendezvous from 4 KiB), osu_latency, 4 interleaved runs:
    // answers pipelined up to 5632 B (records claiming ahead up to 5696 B)
    // took 4096 B from 1.05 to 0.82 us, 4500 B 1.08 -> 0.86, 5000 B 1.17 ->
    // 0.91, 5600 B 1.12 -> 1.01 (with the claim window ending at 4160, 4500 B
    // and up lost 6-17%); an earlier run found 6000 B 1.14 by rendezvous,
    // 1.18 pipelined. osu_bw 4096 and 5000 B unchanged (a window's sends after
    // the first do not answer the peer).
    {"pingpong_limit", "0",
     "messages from rndv_threshold up to (not including) this size are pipelined through the ring instead of by rendezvous when they answer the peer's last message and nothing else of ours to it is in flight (0: never)",
     TunableKind::Bytes, 0, 1ull << 20, false, "", "5632"},
    // Xeon VMs, 4-5 interleaved runs: sharing from 64 KiB rather than 128
    // KiB took osu_latency 64 KiB from 3.10 to 2.89 us and 96 KiB from 4.21
    // to 3.49, osu_bw 64 KiB from 29.3 to 32.7 GB/s; osu_bibw unchanged (a
    // rank with receives posted does not offer to share); from 32 KiB gained
    // nothing more.
    {"split_threshold", "131072",
     "single copies at least this large are shared: the receiver reads one half while the sender writes the other (0: never)",
     TunableKind::Bytes, 0, 1ull << 40, false, "", "65536"},
    // The window of record bodies that claim the next record's lines early
    // (btl/ring.hpp, ClaimAhead). EPYC (stop 18, eager records): 1-2 KiB
    // messages 5-16% faster for it, and claiming from 2112 bytes made 2112 B
    // to 4 KiB messages 20-35% slower. Xeon VMs, 4-5 interleaved runs each:
    // from 256 rather than 1024 bytes, osu_latency 800 B 0.49 -> 0.38 us,
    // 1000 B 0.57 -> 0.38, osu_bw 300 B 1.8 -> 4.0 GB/s, 800 B 3.4 -> 7.5
    // (from 128, osu_bw 200-240 B lost 15-25% and 64 B 43%); up to 4 KiB
    // (2049-4095 B messages are fragments there), osu_latency 2500 B 0.92 ->
    // 0.68 us, 4000 B 1.17 -> 0.88, osu_bw 2500 B 5.9 -> 9.4 GB/s; and up to
    // 5632 B for pipelined ping-pong answers (pingpong_limit).
    {"claim_ahead_from", "1024",
     "ring records of at least this many bytes (and below claim_ahead_limit) make the sender claim the cache lines of its next record of the same size as soon as it commits one; smaller ones claim one line",
     TunableKind::Bytes, 0, 65536, false, "", "256"},
    {"claim_ahead_limit", "2112",
     "ring records of this many bytes or more do not claim the lines of the next record early (see claim_ahead_from)",
     TunableKind::Bytes, 0, 65536, false, "", "5696"},
    {"single_copy", "cma",
     "single-copy mechanism for rendezvous: cma (process_vm_readv) or none (pipelined fallback)",
     TunableKind::Choice, 0, 0, false, "cma|none"},
    {"rndv_route", "auto",
     "how rendezvous payloads at least rndv_threshold and below twice it travel when single copy is permitted: auto (single copy or streamed through the ring, chosen per burst of messages from a peer by what each cost lately, trying the other now and then) or single_copy",
     TunableKind::Choice, 0, 0, false, "auto|single_copy"},
    {"numa_policy", "local",
     "placement of receive segments and fragments: local to the rank's CPU, interleave, or none",
     TunableKind::Choice, 0, 0, false, "local|interleave|none"},
    {"wait_policy", "auto",
     "how a blocked rank waits: spin (never gives up its core), yield (at once, then sleeps until a peer sends), or auto (spin, yield, sleep; yield at once when ranks outnumber cores)",
     TunableKind::Choice, 0, 0, false, "auto|spin|yield"},
    {"fast_box", "on",
     "records of up to 56 bytes (messages of up to 44 bytes, acks) may use the cache line the pair shares instead of the ring: on or off",
     TunableKind::Choice, 0, 0, false, "on|off"},
    {"box_probe", "on",
     "at start-up each pair times 8 candidate cache lines for its fast box and keeps the fastest (a line's hand-off time between two cores depends on its address on mesh CPUs): on or off; skipped when ranks outnumber cores",
     TunableKind::Choice, 0, 0, false, "on|off"},
    // A waiting rank that polls without a gap pulls the line its peer is about
    // to answer in back before the answer is written, and the answer then
    // waits for the line a second time. On the Xeon machines (pause: ~10 ns)
    // a two-rank 0-byte ping-pong ran 0.12-0.13 us one way polling with
    // lfence, 0.063-0.070 us with 3 pauses between polls (the one-line
    // hand-off: 0.058-0.063 us), 0.07-0.08 us with 4 or 5, 0.09-0.15 us with
    // 2; sizes from 64 B and osu_bw did not move. Over 24 runs each of
    // osu_latency_floor, a 30 ns gap left 5 runs at 0.077-0.114 us, 40 ns none
    // above 0.077 (median 0.067 us against 0.064), 50 ns a median of 0.073 us:
    // 40 it is. A gap in time rather than in pauses: a pause takes ~10 ns
    // there but ~40 ns or more on Skylake server cores. On EPYC stop 17
    // measured one pause (~20 ns) slower than lfence; longer gaps were not
    // measured there.
    {"poll_gap_ns", "0",
     "nanoseconds a waiting rank pauses between two polls that found nothing, so it does not pull back the cache line its peer is writing an answer into (rounded to whole pause instructions, at least one); 0: an lfence only",
     TunableKind::Count, 0, 1000, false, "", "40"},
    {"test_cma_eperm", "0",
     "test hook: 1 makes every single-copy call fail with EPERM, as in a container that forbids CMA",
     TunableKind::Choice, 0, 0, false, "0|1"},
};

inline std::span<const TunableSpec> tunables() { return kTunables; }

// True on an Intel CPU (cpuid vendor "GenuineIntel").
inline bool intel_cpu() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(0, &a, &b, &c, &d) == 0) return false;
  return b == 0x756e6547u && d == 0x49656e69u && c == 0x6c65746eu;  // "Genu" "ineI" "ntel"
#else
  return false;
#endif
}

// Whether this machine takes the Intel defaults (asked of cpuid once).
inline bool intel_defaults() noexcept {
  static const bool intel = intel_cpu();
  return intel;
}

// The default of `spec` on this machine.
inline const char* default_of(const TunableSpec& spec) noexcept {
  return intel_defaults() && spec.intel_default != nullptr ? spec.intel_default : spec.default_value;
}

// Which set of defaults this machine takes, for shmpi_info.
inline const char* defaults_name() noexcept { return intel_defaults() ? "Intel" : "general (EPYC-measured)"; }

inline const TunableSpec* find_tunable(std::string_view name) {
  for (const TunableSpec& t : kTunables)
    if (name == t.name) return &t;
  return nullptr;
}

// "eager_limit" -> "SHMPI_EAGER_LIMIT"
inline std::string tunable_env_name(std::string_view name) {
  std::string env = "SHMPI_";
  for (char c : name) env += (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  return env;
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
