// How a rank waits for its peers: the one place that decides it is
// Pml::wait_until(), with the WaitPolicy the runtime makes from its Config
// (runtime/wait_policy.cpp).
//
// A wait runs rounds of progress until what it waits for happens. After a
// round that moved nothing:
//  1. it paces the next poll: btl::between_polls(), an lfence or the pauses
//     that make poll_gap_ns (why: btl/between_polls.hpp). A receive taken
//     straight from a peer (Pml::try_receive_now) paces its polls the same way;
//  2. once it has lasted kPollsBeforeLongWait rounds (or found nothing in
//     its first, with long_at_once: ranks outnumber cores), the wait is
//     long: its watcher is told (the runtime writes what it waits for into
//     the status page, for the hang report), and told again when it ends;
//  3. after spins_before_yield more empty rounds it yields its core after
//     each one (at once when ranks outnumber cores: a spinning waiter would
//     starve the rank it waits for);
//  4. after yields_before_sleep yields (or yield_ns of yielding, whichever
//     comes first) it sleeps on its doorbell until a peer sends, if nothing
//     of ours waits for ring space (only a peer's record can then make
//     progress possible).
// A round that moves something starts steps 3 and 4 over.
//
// Threads (MPI_THREAD_MULTIPLE): the caller holds the rank's lock for the
// wait, and its watcher decides what to do with it: before every round
// watch.take_turn(done) says whether this thread progresses (one does; the
// others sleep until it finds their wait over), after every round the
// wait calls watch.between_rounds() (the runtime's hands the lock to the
// threads waiting for it, then takes it back), it yields inside
// watch.unlocked(...) and sleeps inside watch.sleep(timeout, ready, sleep)
// (ready() runs holding the lock, sleep() without), so no
// thread holds the lock while it idles. between_rounds() and sleep() are
// where the runtime's watcher tells the sleeping threads about moves since
// it last told them (a round's, or one made inside a done(), as a probe's
// progress): a move may have completed what one of them waits for.
// Unwatched waits (and the runtime's single-threaded one) do none of this.
#pragma once

#include <cstdint>

namespace shmpi::pml {

struct WaitPolicy {
  // Failed progress rounds of a long wait before the rank starts yielding
  // its core after each further failed round; 0 yields at once
  // (oversubscribed jobs), UINT32_MAX never yields.
  std::uint32_t spins_before_yield = 1u << 14;
  // Yields without progress before the rank sleeps on its doorbell until a
  // peer sends (futex, bounded by sleep_ns); 0 never sleeps.
  std::uint32_t yields_before_sleep = 0;
  // ... or after this long yielding, whichever comes first.
  std::uint64_t yield_ns = 2'000'000;
  long sleep_ns = 1'000'000;
  // Pause instructions after each poll that found nothing (0: an lfence);
  // see btl::between_polls().
  std::uint32_t pauses_between_polls = 0;
  // A wait whose first round finds nothing is long at once (yields, may
  // sleep) instead of polling kPollsBeforeLongWait rounds first: for ranks
  // that outnumber the cores, whose peer is most likely not running.
  bool long_at_once = false;
};

// Rounds of progress after which a wait is long. Most waits end within a
// few rounds; the hang report is about the ones that do not.
inline constexpr std::uint32_t kPollsBeforeLongWait = 256;

// What a waiting thread does with its turn (watch.take_turn(done)): runs a
// round of progress, or (another thread progresses) it slept and now looks
// at done() again, or its wait is over (the other thread saw done() true
// for it: done() is not asked again).
enum class Turn { Progress, LookAgain, Done };

// A watcher for waits nobody reports on.
struct Unwatched {
  void long_wait() noexcept {}
  void long_wait_over() noexcept {}
  template <class Done>
  Turn take_turn(Done& /*done*/) noexcept {
    return Turn::Progress;
  }
  void between_rounds() noexcept {}
  template <class Idle>
  void unlocked(Idle&& idle) noexcept {
    idle();
  }
  template <class Ready, class Sleep>
  void sleep(long /*timeout_ns*/, Ready&& ready, Sleep&& sleep) noexcept {
    if (ready()) sleep();
  }
};

}  // namespace shmpi::pml
