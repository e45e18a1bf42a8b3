// Internal building blocks of the matching engine (pml/matcher.hpp):
// intrusive doubly-linked FIFO lists and a hash table of "bins", one list per
// matching key. Nothing here knows MPI semantics; the queues in matcher.hpp
// decide which keys a receive or a message goes under.
//
// Contract:
//  * A Bin is a circular list with a sentinel (`head`), so unlinking a node
//    never needs to know which bin it is in: O(1), no lookup.
//  * Bins never move (they live in fixed-size chunks), because linked nodes
//    point at their sentinel.
//  * BinTable::find and find_or_insert are noexcept and allocation-free;
//    only make_room() allocates, and only when the table must really grow.
//  * Bounded memory: an empty bin stays in the table (so the next receive on
//    the same key costs one probe and no insert), but empty bins are swept
//    out whenever the table reaches its load limit. See make_room().
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace shmpi::pml::detail {

// One link of an intrusive list. `next == nullptr` means "not in any list".
// Copying a node never copies its position: a copy starts unlinked and an
// assignment leaves the target's own links alone.
struct Link {
  Link* prev = nullptr;
  Link* next = nullptr;

  Link() noexcept = default;
  Link(const Link&) noexcept {}
  Link& operator=(const Link&) noexcept { return *this; }
  ~Link() = default;

  [[nodiscard]] bool linked() const noexcept { return next != nullptr; }
};

// Distinct base-class types so that one object can sit in several lists and
// each Link can be cast back to its owner with a plain static_cast (the
// "base hook" idiom; no offsetof arithmetic).
template <unsigned I>
struct Hook : Link {};

// Removes `node` from whatever list it is in and marks it unlinked.
inline void unlink(Link& node) noexcept {
  node.prev->next = node.next;
  node.next->prev = node.prev;
  node.prev = nullptr;
  node.next = nullptr;
}

// A matching key. For patterns, source/tag equal to -1 mean "any"; the
// unexpected queue uses the same -1 for "this index ignores the field".
struct BinKey {
  std::uint32_t context;
  std::int32_t source;
  std::int32_t tag;
};

struct Bin {
  Link head;  // sentinel: head.next is the oldest node, head.prev the newest
  BinKey key{};
  Bin* next_free = nullptr;
  bool in_table = false;

  [[nodiscard]] bool empty() const noexcept { return head.next == &head; }
  [[nodiscard]] Link* front() const noexcept { return empty() ? nullptr : head.next; }
  void push_back(Link& node) noexcept {
    node.prev = head.prev;
    node.next = &head;
    head.prev->next = &node;
    head.prev = &node;
  }
};

// Open-addressing hash table from BinKey to Bin*: linear probing with Robin
// Hood insertion (an entry far from its home slot displaces one nearer to
// its own), which keeps every probe sequence short, and lets a lookup for an
// absent key stop as soon as it meets an entry closer to home than itself --
// the wildcard classes of a match are often such misses.
class BinTable {
 public:
  static constexpr std::size_t kMinSlots = 64;      // power of two
  static constexpr std::size_t kBinsPerChunk = 64;  // pool growth step

  BinTable();
  // Does not touch queued nodes: they may already be gone (the pml destroys
  // its requests and records in whatever order). Use unlink_all() first to
  // reuse nodes after the table.
  ~BinTable() = default;
  BinTable(const BinTable&) = delete;
  BinTable& operator=(const BinTable&) = delete;

  [[nodiscard]] Bin* find(const BinKey& key) const noexcept {
    // Traffic mostly repeats the keys it used last (a ping-pong, a stream,
    // a halo exchange): the last bin found for each wildcard shape of key
    // is remembered, and found again without hashing.
    Bin*& recent = recent_[shape(key)];
    if (recent != nullptr && same_key(recent->key, key)) return recent;
    const std::uint64_t hi = pack(key);
    const auto tag = static_cast<std::uint32_t>(key.tag);
    std::size_t i = hash(hi, tag) & mask_;
    for (std::uint32_t dist = 0;; ++dist, i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.bin == nullptr || s.dist < dist) return nullptr;
      if (s.hi == hi && s.tag == tag) return recent = s.bin;
    }
  }

  // True if `n` find_or_insert calls can run without growing or sweeping.
  [[nodiscard]] bool has_room(std::size_t n) const noexcept {
    return used_ + n <= limit_ && free_count_ >= n;
  }
  // Establishes has_room(n): sweeps empty bins, grows the slot array and the
  // bin pool as needed. May throw std::bad_alloc (then nothing has changed
  // that a caller can observe). Invalidates Bin* to EMPTY bins only.
  void make_room(std::size_t n);

  // Returns the bin for `key`, creating it if needed. Precondition:
  // has_room(1) (or has_room(k) before k calls). Never sweeps, so Bin*
  // obtained earlier stay valid.
  Bin& find_or_insert(const BinKey& key) noexcept;

  // Unlinks every queued node (their links become null). O(bins + nodes).
  void unlink_all() noexcept;

  [[nodiscard]] std::size_t slot_count() const noexcept { return mask_ + 1; }
  [[nodiscard]] std::size_t bins_allocated() const noexcept {
    return chunks_.size() * kBinsPerChunk;
  }
  [[nodiscard]] std::size_t bins_in_table() const noexcept { return used_; }

 private:
  struct Slot {
    std::uint64_t hi = 0;  // context << 32 | source
    std::uint32_t tag = 0;
    std::uint32_t dist = 0;  // distance from the home slot
    Bin* bin = nullptr;      // nullptr = empty slot
  };

  // Which of source and tag are -1: 0..3.
  static unsigned shape(const BinKey& k) noexcept {
    return (k.source == -1 ? 2U : 0U) | (k.tag == -1 ? 1U : 0U);
  }
  static bool same_key(const BinKey& a, const BinKey& b) noexcept {
    return a.context == b.context && a.source == b.source && a.tag == b.tag;
  }
  static std::uint64_t pack(const BinKey& k) noexcept {
    return (std::uint64_t{k.context} << 32) | static_cast<std::uint32_t>(k.source);
  }
  // murmur3 fmix64 over both words: keys are small dense integers (ranks,
  // tags), which a plain modulo would cluster.
  static std::size_t hash(std::uint64_t hi, std::uint32_t tag) noexcept {
    std::uint64_t x = hi ^ (std::uint64_t{tag} * 0x9E3779B97F4A7C15ULL);
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDULL;
    x ^= x >> 33;
    x *= 0xC4CEB9FE1A85EC53ULL;
    x ^= x >> 33;
    return static_cast<std::size_t>(x);
  }

  // Robin Hood insertion of `entry` (absent), starting at slot i where its
  // probe distance is entry.dist.
  void insert_at(std::size_t i, Slot entry) noexcept;
  void rebuild(std::size_t extra);
  void add_chunk();

  std::unique_ptr<Slot[]> slots_;
  std::size_t mask_ = 0;
  std::size_t used_ = 0;   // slots holding a bin (empty bins included)
  std::size_t limit_ = 0;  // max used_: half the slots
  std::vector<std::unique_ptr<Bin[]>> chunks_;
  Bin* free_ = nullptr;  // bins not in the table, linked by next_free
  mutable Bin* recent_[4] = {};  // by shape(): bins found last, all in the table
  std::size_t free_count_ = 0;
};

}  // namespace shmpi::pml::detail
