// ContextAgreement: how the members of a new communicator agree on its
// context id, for every way of making one (dup, idup, split, split_type,
// create, create_group, the topology constructors, intercomm create, merge,
// split and dup).
//
// Each participating rank claims a proposal, the smallest id its process
// has never used (reserving it at once, so another thread of the rank
// proposes a different one); the participants exchange the element-wise
// MAX of their proposals, and the largest becomes the id. Alone on a rank
// that is the whole story: no member used the id before, and nobody could
// take it since.
//
// Under MPI_THREAD_MULTIPLE other threads of a rank may make communicators
// on other parents meanwhile (the exchange waits, and waiting releases the
// rank's lock), and one of them may have taken the agreed id here. So when
// any participant shares its rank with threads (the `shared` flag rides
// along in the first exchange, so all participants decide alike), a second
// MAX exchange asks whether the id is taken anywhere; every rank that
// still finds it free reserves it in the same step (under the lock: no
// other thread of the rank can slip in between). If it was taken anywhere,
// all try again with fresh proposals; the ids reserved in the failed round
// are lost, harmlessly: ids are 32 bits and never reused.
//
// MPI_Comm_idup runs its agreement in the background (runtime/comm_dup.hpp),
// its exchanges moving on whenever the rank waits for anything, so other
// agreements of the rank may start and end between them, as other threads'
// do: it always takes the second exchange, and while one is in flight on a
// rank (CommunicatorTable::background_agreements()) every agreement that
// rank joins raises the `shared` flag too: an idup may reserve an id while
// the rank waits in one of that agreement's exchanges.
//
// Background agreements that overlap can end on the same id, each finding
// it free on the ranks where it is its own proposal and taken on the
// others; were they to retry in the same mirrored order every time, neither
// would ever win. So each has a priority the same on all its participants
// (its parent's collective context and its tag), and one that finds the id
// proposed here by a lower-priority background agreement which has not yet
// taken it takes it over: that one then fails here and tries again.
//
// Two agreements that end on the same id cannot both succeed on a rank they
// share: the first to reserve it there makes the second find it taken.
// Agreements over disjoint ranks may share an id, which is safe: messages
// are addressed to world ranks, and no rank uses it twice.
#pragma once

#include <cstdint>

#include "runtime/thread_support.hpp"

namespace shmpi::runtime {

class Context;
class CommunicatorTable;
struct Communicator;

// Context ids a communicator takes: an intracommunicator two (user and
// collective traffic), an intercommunicator four (two more for each
// group's local side, runtime/intercomm.hpp).
inline constexpr std::uint32_t kIntraContexts = 2;
inline constexpr std::uint32_t kInterContexts = 4;

// What each participant contributes to an exchange; the exchange replaces
// both fields by their MAX over all participants.
struct ContextProposal {
  std::uint32_t id;
  std::uint32_t shared;  // 1: this rank granted MPI_THREAD_MULTIPLE
};

// The exchange's operation, for exchanges made by hand.
inline ContextProposal max_of(ContextProposal a, ContextProposal b) noexcept {
  return {a.id > b.id ? a.id : b.id, a.shared > b.shared ? a.shared : b.shared};
}

class ContextAgreement {
 public:
  // Claims this rank's first proposal, `ids` ids from the smallest unused.
  ContextAgreement(Context& context, std::uint32_t ids) noexcept;
  ~ContextAgreement();
  ContextAgreement(const ContextAgreement&) = delete;
  ContextAgreement& operator=(const ContextAgreement&) = delete;

  // What this rank contributes to the first exchange.
  ContextProposal proposal() const noexcept;

  // Finishes the agreement from the first exchange's result `agreed` and
  // returns the id, reserved here. `max_all(ContextProposal&)` runs any
  // further exchange: a collective over the same participants as the first
  // (every one calls settle() with the same `agreed`, so all run the same
  // number of exchanges). Throws what max_all throws.
  template <class MaxAll>
  std::uint32_t settle(ContextProposal agreed, MaxAll&& max_all) {
    if (agreed.shared == 0) return take_alone(agreed.id);
    for (;;) {
      ContextProposal taken{take(agreed.id) ? 0U : 1U, 0};
      max_all(taken);
      if (taken.id == 0) return agreed.id;
      renew();
      agreed = proposal();
      max_all(agreed);
    }
  }

  // settle()'s steps one at a time, for an agreement in the background,
  // which always takes the second exchange: run_in_background(), its first
  // exchange's proposal (shared raised), then take() with its result; if
  // the second exchange says the id was taken anywhere, renew() and start
  // again.
  // From now on in the rank's list of background agreements, until
  // destroyed; `priority` is the same on every participant, unique among
  // the agreements of a rank (lower wins). Throws std::bad_alloc.
  void run_in_background(std::uint64_t priority);
  ContextProposal background_proposal() const noexcept { return {mine_, 1}; }
  // Whether `id` is still free here (in our own proposal's ids, or above
  // every id used since, or in the background in the untaken proposal of a
  // background agreement we outrank); if so, reserves it.
  bool take(std::uint32_t id) noexcept;
  // Claims a fresh proposal.
  void renew() noexcept;

 private:
  // No participant shares its rank with threads: reserves `id`.
  std::uint32_t take_alone(std::uint32_t id) noexcept;
  // Takes `id` over from a background agreement we outrank that proposes
  // it here and has not taken it (that one's take() then fails).
  bool take_over(std::uint32_t id) noexcept;

  static constexpr std::uint32_t kTakenOver = 0;  // mine_ after take_over(): no id (0 is the world's)

  CommunicatorTable& table_;
  std::uint32_t ids_;
  std::uint32_t mine_ = 0;
  bool background_ = false;
  bool took_ = false;  // take() succeeded since the last proposal
  std::uint64_t priority_ = 0;
};

// The exchange over every rank of intracommunicator `comm`: an allreduce
// on its collective context.
void max_over(Context& context, const Communicator& comm, ContextProposal& value, const char* call);

// Over both groups of intercommunicator `inter`: an allreduce in each
// group, the two leaders swap, each group learns the other's MAX.
void max_over_both(Context& context, const Communicator& inter, ContextProposal& value, const char* call);

// The whole agreement over every rank of intracommunicator `comm`.
std::uint32_t agree_over(Context& context, const Communicator& comm, std::uint32_t ids, const char* call);

}  // namespace shmpi::runtime
