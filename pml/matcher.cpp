#include "pml/matcher.hpp"

#include <cassert>

namespace shmpi::pml {
namespace {

// The four keys under which a message (concrete source and tag) can be
// wanted, indexed by pattern_class: exact, ANY_TAG, ANY_SOURCE, both.
struct CandidateKeys {
  detail::BinKey key[4];
  explicit CandidateKeys(const Envelope& msg) noexcept
      : key{{msg.context, msg.source, msg.tag},
            {msg.context, msg.source, kAnyTag},
            {msg.context, kAnySource, msg.tag},
            {msg.context, kAnySource, kAnyTag}} {}
};

constexpr detail::BinKey key_of(const Envelope& e) noexcept {
  return {e.context, e.source, e.tag};
}

constexpr bool concrete(const Envelope& msg) noexcept {
  return msg.source != kAnySource && msg.tag != kAnyTag;
}

}  // namespace

// ---------------------------------------------------------------- posted

void PostedQueue::post(PostedRecv& r) {
  assert(!r.queued());
  const detail::BinKey key = key_of(r.want);
  detail::Bin* bin = bins_.find(key);
  if (bin == nullptr) {
    if (!bins_.has_room(1)) bins_.make_room(1);  // the only step that may throw
    bin = &bins_.find_or_insert(key);
  }
  r.stamp = next_stamp_++;
  bin->push_back(hook(r));
  ++count_[pattern_class(r.want)];
}

PostedRecv* PostedQueue::match(const Envelope& msg) noexcept {
  assert(concrete(msg));
  if (count_[1] + count_[2] + count_[3] != 0) return slow_match(msg);
  // Common case, no wildcard receive posted: one probe.
  if (count_[0] == 0) return nullptr;
  const detail::Bin* bin = bins_.find(key_of(msg));
  if (bin == nullptr || bin->empty()) return nullptr;
  PostedRecv& r = owner(*bin->head.next);
  unlink(r);
  return &r;
}

// Each class list is FIFO by stamp and holds only receives that match `msg`,
// so the earliest-posted match overall is the smallest stamp among the heads.
PostedRecv* PostedQueue::slow_match(const Envelope& msg) noexcept {
  const CandidateKeys candidates(msg);
  PostedRecv* best = nullptr;
  for (unsigned c = 0; c < 4; ++c) {
    if (count_[c] == 0) continue;
    const detail::Bin* bin = bins_.find(candidates.key[c]);
    if (bin == nullptr || bin->empty()) continue;
    PostedRecv& head = owner(*bin->head.next);
    if (best == nullptr || head.stamp < best->stamp) best = &head;
  }
  if (best != nullptr) unlink(*best);
  return best;
}

bool PostedQueue::cancel(PostedRecv& r) noexcept {
  if (!r.queued()) return false;
  unlink(r);
  return true;
}

void PostedQueue::clear() noexcept {
  bins_.unlink_all();
  for (std::size_t& n : count_) n = 0;
}

void PostedQueue::unlink(PostedRecv& r) noexcept {
  detail::unlink(hook(r));
  --count_[pattern_class(r.want)];
}

BinFootprint PostedQueue::footprint() const noexcept {
  return {bins_.slot_count(), bins_.bins_allocated(), bins_.bins_in_table()};
}

// ------------------------------------------------------------ unexpected

void UnexpectedQueue::push(UnexpectedMsg& m) {
  assert(!m.queued());
  assert(concrete(m.env));
  // Room for four new bins first, so no sweep runs between the lookups below
  // (a sweep could recycle a bin we just created, since it is still empty).
  if (!bins_.has_room(4)) bins_.make_room(4);  // the only step that may throw
  const CandidateKeys k(m.env);
  detail::Bin& exact = bins_.find_or_insert(k.key[0]);
  detail::Bin& by_source = bins_.find_or_insert(k.key[1]);
  detail::Bin& by_tag = bins_.find_or_insert(k.key[2]);
  detail::Bin& by_context = bins_.find_or_insert(k.key[3]);
  m.stamp = next_stamp_++;
  exact.push_back(static_cast<detail::Hook<0>&>(m));
  by_source.push_back(static_cast<detail::Hook<1>&>(m));
  by_tag.push_back(static_cast<detail::Hook<2>&>(m));
  by_context.push_back(static_cast<detail::Hook<3>&>(m));
  ++size_;
}

// The list for want's own key holds exactly the messages that match `want`,
// in arrival order: its head is the answer.
UnexpectedMsg* UnexpectedQueue::find(const Envelope& want) const noexcept {
  if (size_ == 0) return nullptr;
  const detail::Bin* bin = bins_.find(key_of(want));
  if (bin == nullptr || bin->empty()) return nullptr;
  return &owner(*bin->head.next, pattern_class(want));
}

void UnexpectedQueue::remove(UnexpectedMsg& m) noexcept {
  if (!m.queued()) return;
  detail::unlink(static_cast<detail::Hook<0>&>(m));
  detail::unlink(static_cast<detail::Hook<1>&>(m));
  detail::unlink(static_cast<detail::Hook<2>&>(m));
  detail::unlink(static_cast<detail::Hook<3>&>(m));
  --size_;
}

UnexpectedMsg* UnexpectedQueue::take(const Envelope& want) noexcept {
  UnexpectedMsg* m = find(want);
  if (m != nullptr) remove(*m);
  return m;
}

void UnexpectedQueue::clear() noexcept {
  bins_.unlink_all();  // each message's four hooks sit in four table bins
  size_ = 0;
}

UnexpectedMsg& UnexpectedQueue::owner(detail::Link& link, unsigned index) noexcept {
  switch (index) {
    case 0: return static_cast<UnexpectedMsg&>(static_cast<detail::Hook<0>&>(link));
    case 1: return static_cast<UnexpectedMsg&>(static_cast<detail::Hook<1>&>(link));
    case 2: return static_cast<UnexpectedMsg&>(static_cast<detail::Hook<2>&>(link));
    default: return static_cast<UnexpectedMsg&>(static_cast<detail::Hook<3>&>(link));
  }
}

BinFootprint UnexpectedQueue::footprint() const noexcept {
  return {bins_.slot_count(), bins_.bins_allocated(), bins_.bins_in_table()};
}

}  // namespace shmpi::pml
