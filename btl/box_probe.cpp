#include "btl/box_probe.hpp"

#include <limits>
#include <optional>
#include <vector>

#include "btl/between_polls.hpp"
#include "btl/monotonic_ns.hpp"

namespace shmpi::btl {
namespace {

// Marks the published choice on line 0 or 1 (probe values stay far below it).
constexpr std::uint32_t kChoiceFlag = 1u << 31;

template <class Done>
void spin_until(Done&& done) noexcept {
  for (std::uint32_t polls = 0; !done(); ++polls) between_polls(polls);
}

// The choice the leader published, if any (kChoiceFlag | index on line 0,
// or on line 1 when line 0 won). A box state never has kChoiceFlag set.
std::optional<std::uint32_t> published_choice(std::span<FastBox> lines) noexcept {
  for (std::uint32_t line : {0u, 1u}) {
    const std::uint32_t published = box_detail::load(lines[line].state);
    if ((published & kChoiceFlag) != 0) return published & ~kChoiceFlag;
  }
  return std::nullopt;
}

// Leader: resets the chosen line to an empty box held by the lower rank,
// then publishes the choice on a line not chosen (release: the reset first).
std::uint32_t publish_choice(std::span<FastBox> lines, std::uint32_t chosen) noexcept {
  lines[chosen].ring_before = 0;
  box_detail::store(lines[chosen].state, 0);
  box_detail::store(lines[chosen == 0 ? 1 : 0].state, kChoiceFlag | chosen);
  return chosen;
}

// Leader: one batch of `round_trips` ping-pongs on `word`, continuing the
// count `n`; false if `deadline` passed (checked every 16 round trips, each
// of which ends with the follower's answer, so none of its stores is left
// in flight).
bool lead_batch(std::uint32_t& word, std::uint32_t round_trips, std::uint32_t& n, std::uint64_t deadline) noexcept {
  for (std::uint32_t i = 0; i < round_trips; ++i, ++n) {
    box_detail::store(word, 2 * n + 1);
    spin_until([&] { return box_detail::load(word) == 2 * n + 2; });
    if (i % 16 == 15 && monotonic_ns() > deadline) return false;
  }
  return true;
}

// Follower: answers one batch; the leader's choice if it stopped early.
std::optional<std::uint32_t> follow_batch(std::span<FastBox> lines, std::uint32_t& word, std::uint32_t round_trips,
                                          std::uint32_t& n) noexcept {
  for (std::uint32_t i = 0; i < round_trips; ++i, ++n) {
    std::optional<std::uint32_t> choice;
    spin_until([&] {
      const bool pinged = box_detail::load(word) == 2 * n + 1;
      // Looked for after the ping (acquire loads, in order): once the leader
      // has published, the chosen line may carry a box record whose state
      // happens to equal the ping; the choice, published before that
      // record was written, is then seen too and wins.
      choice = published_choice(lines);
      return pinged || choice.has_value();
    });
    if (choice) return choice;
    box_detail::store(word, 2 * n + 2);
  }
  return std::nullopt;
}

}  // namespace

std::uint32_t fastest_line(std::span<const std::uint64_t> best_ns) noexcept {
  std::uint32_t best = 0;
  for (std::uint32_t i = 1; i < best_ns.size(); ++i)
    if (best_ns[i] < best_ns[best]) best = i;
  return best;
}

std::uint32_t probe_box_lines(std::span<FastBox> lines, bool leader, const BoxProbeSettings& settings) {
  if (lines.size() < 2) return 0;
  std::uint32_t n = 0;
  if (!leader) {
    for (std::uint32_t sweep = 0; sweep < settings.sweeps; ++sweep)
      for (FastBox& line : lines)
        if (std::optional<std::uint32_t> choice = follow_batch(lines, line.state, settings.round_trips, n))
          return *choice;
    std::optional<std::uint32_t> choice;
    spin_until([&] { return (choice = published_choice(lines)).has_value(); });
    return *choice;
  }
  // The follower's last store came before each of our last loads: after
  // any batch the lines are ours to reset.
  std::vector<std::uint64_t> best(lines.size(), std::numeric_limits<std::uint64_t>::max());
  const std::uint64_t deadline = monotonic_ns() + settings.budget_ns;
  for (std::uint32_t sweep = 0; sweep < settings.sweeps; ++sweep) {
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const std::uint64_t start = monotonic_ns();
      const bool in_time = lead_batch(lines[i].state, settings.round_trips, n, deadline);
      const std::uint64_t took = monotonic_ns() - start;
      if (in_time && took < best[i]) best[i] = took;
      if (!in_time) return publish_choice(lines, fastest_line(best));  // the lines timed so far, else line 0
    }
  }
  return publish_choice(lines, fastest_line(best));
}

std::uint32_t probe_partner(std::uint32_t rank, std::uint32_t round, std::uint32_t nranks) noexcept {
  // The circle method over an even number of seats; with an odd job the
  // last seat is empty and whoever meets it sits the round out.
  const std::uint32_t seats = nranks % 2 == 0 ? nranks : nranks + 1;
  const std::uint32_t circle = seats - 1;
  std::uint32_t partner = 0;
  if (rank == circle) {
    partner = round;
  } else if (rank == round) {
    partner = circle;
  } else {
    partner = (2 * round + circle - rank) % circle;
  }
  return partner < nranks ? partner : nranks;
}

}  // namespace shmpi::btl
