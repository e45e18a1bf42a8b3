// Choosing each pair's fast-box line by timing it.
//
// On mesh CPUs (the Xeons under these VMs) the time a cache line takes to
// pass between two cores depends on the line's address: each address has a
// home slice somewhere on the mesh, and the coherence traffic of a hand-off
// goes through it. A one-line ping-pong over 32 consecutive lines of one
// mapping measured 0.054 to 0.116 us one way, in the same run on the same two
// cores. A pair's fast box is the line every small message of the pair
// crosses, so at start-up the pair times kBoxLines candidate lines and keeps
// the fastest.
//
// Protocol (both ranks of the pair call probe_box_lines() with the same
// lines, at about the same time; the lower rank leads):
// - sweeps x lines x round_trips ping-pongs on each candidate's state word:
//   the leader stores 2n+1 (release) and waits for 2n+2, the follower waits
//   for 2n+1 (acquire) and stores 2n+2; n counts every round trip of the
//   probe, so no value repeats. The leader times each candidate's batch.
// - Past its time budget the leader stops after a round trip (the
//   follower's answer is in, so no store of its is in flight) and decides
//   from the lines timed so far; the follower, waiting for a ping, also
//   watches for the published choice.
// - The leader picks the line with the smallest best time, resets it to an
//   empty box that it holds (state 0), and then publishes kChoiceFlag | index
//   (release) on line 0's state word, or on line 1's when line 0 won: never
//   on the chosen line, which the leader may write a record to as soon as
//   it returns. The follower waits for it (acquire), so it sees the chosen
//   line reset before it ever reads it as a box. Lines not chosen are never
//   read again.
#pragma once

#include <cstdint>
#include <span>

#include "btl/fast_box.hpp"

namespace shmpi::btl {

// Candidate lines per pair (8: the best of 8 was within 2% of the best of
// 32 in the runs above; the fastest eighth of the lines).
inline constexpr std::uint32_t kBoxLines = 8;
static_assert(kBoxLines >= 2, "the choice is published on a line not chosen");

struct BoxProbeSettings {
  std::uint32_t sweeps = 3;        // each candidate's best of this many batches counts
  std::uint32_t round_trips = 64;  // per batch (~10-30 us)
  // The leader stops early past this (the lines timed so far compete): a
  // probe takes 0.3-1 ms when both ranks run, but three 2-rank jobs at
  // once on 2 cores made it 140 ms.
  std::uint64_t budget_ns = 2'000'000;
};

// Times the candidate `lines` (at least 2, zeroed, in the leader's segment)
// with the peer and returns the index of the fastest; both ranks of the pair
// return the same index, and that line is left as an empty box held by the
// leader.
// Spins until the peer takes part: call it only when both ranks run at once
// (ranks no more than cores).
std::uint32_t probe_box_lines(std::span<FastBox> lines, bool leader, const BoxProbeSettings& settings = {});

// The index of the smallest of `best_ns` (the first of equal ones): the
// leader's decision, on its own for tests.
std::uint32_t fastest_line(std::span<const std::uint64_t> best_ns) noexcept;

// The peer rank `rank` probes with in `round` of a job of `nranks` (a
// round-robin schedule: in each of its rounds every rank meets one other, and
// over all rounds each pair meets once), or `nranks` when it sits out.
// Rounds: probe_rounds(nranks).
std::uint32_t probe_partner(std::uint32_t rank, std::uint32_t round, std::uint32_t nranks) noexcept;
inline std::uint32_t probe_rounds(std::uint32_t nranks) noexcept {
  return nranks < 2 ? 0 : (nranks % 2 == 0 ? nranks - 1 : nranks);
}

}  // namespace shmpi::btl
