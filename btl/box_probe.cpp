#include "btl/box_probe.hpp"

#include <time.h>

#include <limits>
#include <vector>

#include "btl/between_polls.hpp"

namespace shmpi::btl {
namespace {

// Marks the published choice on line 0 (probe values stay far below it).
constexpr std::uint32_t kChoiceFlag = 1u << 31;

std::uint64_t now_ns() noexcept {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(t.tv_nsec);
}

template <class Done>
void spin_until(Done&& done) noexcept {
  for (std::uint32_t polls = 0; !done(); ++polls) between_polls(polls);
}

// One batch of `round_trips` ping-pongs on `word`, continuing the count `n`.
void ping_pong(std::uint32_t& word, bool leader, std::uint32_t round_trips, std::uint32_t& n) noexcept {
  for (std::uint32_t i = 0; i < round_trips; ++i, ++n) {
    const std::uint32_t ping = 2 * n + 1;
    const std::uint32_t pong = 2 * n + 2;
    if (leader) {
      box_detail::store(word, ping);
      spin_until([&] { return box_detail::load(word) == pong; });
    } else {
      spin_until([&] { return box_detail::load(word) == ping; });
      box_detail::store(word, pong);
    }
  }
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
  std::vector<std::uint64_t> best(lines.size(), std::numeric_limits<std::uint64_t>::max());
  std::uint32_t n = 0;
  for (std::uint32_t sweep = 0; sweep < settings.sweeps; ++sweep) {
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const std::uint64_t start = now_ns();
      ping_pong(lines[i].state, leader, settings.round_trips, n);
      const std::uint64_t took = now_ns() - start;
      if (took < best[i]) best[i] = took;
    }
  }
  if (leader) {
    // The follower's last store came before our last load: the lines are ours.
    const std::uint32_t chosen = fastest_line(best);
    lines[chosen].ring_before = 0;
    box_detail::store(lines[chosen].state, 0);  // empty, held by the lower rank
    box_detail::store(lines[chosen == 0 ? 1 : 0].state, kChoiceFlag | chosen);
    return chosen;
  }
  // The choice is on line 0, or on line 1 when line 0 won. A box state never
  // has kChoiceFlag set, so the box's first records cannot be mistaken for it.
  for (std::uint32_t polls = 0;; ++polls) {
    for (std::uint32_t line : {0u, 1u}) {
      const std::uint32_t published = box_detail::load(lines[line].state);
      if ((published & kChoiceFlag) != 0) return published & ~kChoiceFlag;
    }
    between_polls(polls);
  }
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
