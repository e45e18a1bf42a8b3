// MPI message matching (MPI-3.1 section 3.5): the queue of posted receives and
// the queue of unexpected messages, for one rank.
//
// Rules implemented, with and without wildcards:
//  * An arriving message matches the EARLIEST-POSTED receive that matches it.
//  * A newly posted receive matches the EARLIEST-ARRIVED unexpected message
//    that matches it. (Per-sender order on one context is the order in which
//    the pml hands messages to us; the transport keeps it.)
//  * Different contexts never match.
//
// Cost: O(1) per operation, independent of how many receives or messages
// are queued (see DESIGN.md "Matching"). Posted receives sit in exactly one of
// four classes -- (ctx,src,tag), (ctx,src,ANY_TAG), (ctx,ANY_SRC,tag),
// (ctx,ANY_SRC,ANY_TAG) -- each a hash of FIFO lists keyed by the non-wild
// fields. A message inspects only the heads of the (at most four) lists that
// can hold a matching receive and takes the smallest stamp; with no wildcard
// receive posted that is a single hash probe. An unexpected message is linked
// into four indexes at once (by (ctx,src,tag), (ctx,src), (ctx,tag), (ctx)),
// so any receive pattern finds its earliest match at the head of one list,
// and removal unlinks all four in O(1).
//
// Nodes are intrusive: the pml derives its receive request from PostedRecv
// and its unexpected record from UnexpectedMsg and static_casts back. The
// queues never allocate per node; they allocate only when a new matching key
// needs a bin and none is free (post/push may then throw std::bad_alloc,
// leaving the queue and the node unchanged). Everything else is noexcept and
// allocation-free. Not thread-safe: one thread drives a rank's queues.
#pragma once

#include <cstddef>
#include <cstdint>

#include "pml/match_bins.hpp"

namespace shmpi::pml {

inline constexpr std::int32_t kAnySource = -1;  // = MPI_ANY_SOURCE
inline constexpr std::int32_t kAnyTag = -1;     // = MPI_ANY_TAG

// context: communicator context id. source: rank within that communicator.
// For a message both source and tag are concrete (never -1); for a receive
// either may be the wildcard.
struct Envelope {
  std::uint32_t context = 0;
  std::int32_t source = 0;
  std::int32_t tag = 0;
};

// Copies an envelope one field at a time. Callers build an Envelope with
// three 4-byte stores just before they call; a struct copy loads 8 bytes
// across two of those stores, which the store buffer cannot forward (a
// stall of some 15 cycles on every send and receive). Atomic loads are
// never merged into wider ones.
inline Envelope load_envelope(const Envelope& e) noexcept {
  return Envelope{__atomic_load_n(&e.context, __ATOMIC_RELAXED), __atomic_load_n(&e.source, __ATOMIC_RELAXED),
                  __atomic_load_n(&e.tag, __ATOMIC_RELAXED)};
}

// True if a receive wanting `want` accepts a message with envelope `msg`.
[[nodiscard]] constexpr bool matches(const Envelope& want, const Envelope& msg) noexcept {
  return want.context == msg.context &&
         (want.source == kAnySource || want.source == msg.source) &&
         (want.tag == kAnyTag || want.tag == msg.tag);
}

// A posted receive. Set `want` before post() and leave it alone while queued.
class PostedRecv : private detail::Hook<0> {
 public:
  Envelope want{};
  std::uint64_t stamp = 0;  // set by PostedQueue::post: posting order

  [[nodiscard]] bool queued() const noexcept { return linked(); }

 private:
  friend class PostedQueue;
};

// A message that arrived before a matching receive. Set `env` before push().
class UnexpectedMsg : private detail::Hook<0>,  // by (ctx, src, tag)
                      private detail::Hook<1>,  // by (ctx, src)
                      private detail::Hook<2>,  // by (ctx, tag)
                      private detail::Hook<3> { // by (ctx)
 public:
  Envelope env{};
  std::uint64_t stamp = 0;  // set by UnexpectedQueue::push: arrival order

  [[nodiscard]] bool queued() const noexcept { return detail::Hook<0>::linked(); }

 private:
  friend class UnexpectedQueue;
};

// Which of the four classes a receive pattern belongs to; also the index of
// the UnexpectedMsg hook that serves it.
[[nodiscard]] constexpr unsigned pattern_class(const Envelope& want) noexcept {
  return (want.source == kAnySource ? 2U : 0U) | (want.tag == kAnyTag ? 1U : 0U);
}

// How much memory the bins of a queue hold (for tests and shmpi_info).
struct BinFootprint {
  std::size_t slots;           // hash slots
  std::size_t bins_allocated;  // bins ever allocated (in use + free)
  std::size_t bins_in_table;   // bins currently keyed (some may be empty)
};

class PostedQueue {
 public:
  PostedQueue() = default;
  PostedQueue(const PostedQueue&) = delete;
  PostedQueue& operator=(const PostedQueue&) = delete;
  // Receives still queued are abandoned, not touched (they may be destroyed
  // already); call clear() first to post them elsewhere later.
  ~PostedQueue() = default;

  // Stamps `r` and appends it. Precondition: !r.queued().
  void post(PostedRecv& r);
  // Removes and returns the earliest-posted receive matching `msg`, or nullptr.
  [[nodiscard]] PostedRecv* match(const Envelope& msg) noexcept;
  // Removes `r` if it is queued (here); returns whether it was.
  bool cancel(PostedRecv& r) noexcept;
  // Removes every receive (each becomes !queued()). Bins stay cached.
  void clear() noexcept;

  [[nodiscard]] std::size_t size() const noexcept {
    return count_[0] + count_[1] + count_[2] + count_[3];
  }
  [[nodiscard]] bool empty() const noexcept { return size() == 0; }
  [[nodiscard]] BinFootprint footprint() const noexcept;

 private:
  PostedRecv* slow_match(const Envelope& msg) noexcept;
  void unlink(PostedRecv& r) noexcept;
  static detail::Link& hook(PostedRecv& r) noexcept { return static_cast<detail::Hook<0>&>(r); }
  static PostedRecv& owner(detail::Link& link) noexcept {
    return static_cast<PostedRecv&>(static_cast<detail::Hook<0>&>(link));
  }

  detail::BinTable bins_;
  std::uint64_t next_stamp_ = 0;
  std::size_t count_[4] = {};  // queued receives per pattern_class
};

class UnexpectedQueue {
 public:
  UnexpectedQueue() = default;
  UnexpectedQueue(const UnexpectedQueue&) = delete;
  UnexpectedQueue& operator=(const UnexpectedQueue&) = delete;
  // Messages still queued are abandoned, not touched (they may be destroyed
  // already); call clear() first to push them elsewhere later.
  ~UnexpectedQueue() = default;

  // Stamps `m` and appends it in arrival order. Precondition: !m.queued(),
  // m.env.source and m.env.tag are not wildcards.
  void push(UnexpectedMsg& m);
  // Earliest-arrived message matching `want` (wildcards allowed), not
  // removed (for MPI_Probe / MPI_Iprobe). nullptr if none.
  [[nodiscard]] UnexpectedMsg* find(const Envelope& want) const noexcept;
  // Removes `m` if it is queued (here); no-op otherwise.
  void remove(UnexpectedMsg& m) noexcept;
  // find + remove.
  [[nodiscard]] UnexpectedMsg* take(const Envelope& want) noexcept;
  // The earliest-arrived message with exactly the concrete envelope `msg`
  // for which pred(message) is true, not removed; nullptr if none. Walks
  // that envelope's list in arrival order (to withdraw one message; cost
  // linear in the messages with that envelope).
  template <class Pred>
  [[nodiscard]] UnexpectedMsg* find_exact_if(const Envelope& msg, Pred&& pred) const noexcept;
  // Removes every message (each becomes !queued()). Bins stay cached.
  void clear() noexcept;

  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] BinFootprint footprint() const noexcept;

 private:
  // The message owning `link`, which is its hook number `index`.
  static UnexpectedMsg& owner(detail::Link& link, unsigned index) noexcept;

  detail::BinTable bins_;
  std::uint64_t next_stamp_ = 0;
  std::size_t size_ = 0;
};

template <class Pred>
UnexpectedMsg* UnexpectedQueue::find_exact_if(const Envelope& msg, Pred&& pred) const noexcept {
  if (size_ == 0) return nullptr;
  const detail::Bin* bin = bins_.find(detail::BinKey{msg.context, msg.source, msg.tag});
  if (bin == nullptr) return nullptr;
  for (detail::Link* at = bin->head.next; at != &bin->head; at = at->next) {
    UnexpectedMsg& m = owner(*at, 0);
    if (pred(static_cast<const UnexpectedMsg&>(m))) return &m;
  }
  return nullptr;
}

}  // namespace shmpi::pml
