#include "pml/match_bins.hpp"

#include <algorithm>
#include <utility>

namespace shmpi::pml::detail {

BinTable::BinTable()
    : slots_(std::make_unique<Slot[]>(kMinSlots)),
      mask_(kMinSlots - 1),
      limit_(kMinSlots / 2) {}

void BinTable::unlink_all() noexcept {
  for (auto& chunk : chunks_) {
    for (std::size_t i = 0; i < kBinsPerChunk; ++i) {
      Bin& bin = chunk[i];
      if (!bin.in_table) continue;
      while (!bin.empty()) unlink(*bin.head.next);
    }
  }
}

Bin& BinTable::find_or_insert(const BinKey& key) noexcept {
  Bin*& recent = recent_[shape(key)];
  if (recent != nullptr && same_key(recent->key, key)) return *recent;
  const std::uint64_t hi = pack(key);
  const auto tag = static_cast<std::uint32_t>(key.tag);
  std::size_t i = hash(hi, tag) & mask_;
  std::uint32_t dist = 0;
  for (;; ++dist, i = (i + 1) & mask_) {
    const Slot& s = slots_[i];
    if (s.bin == nullptr || s.dist < dist) break;  // absent; i is its place
    if (s.hi == hi && s.tag == tag) return *(recent = s.bin);
  }
  Bin* bin = free_;  // has_room(1) guarantees one
  free_ = bin->next_free;
  --free_count_;
  bin->next_free = nullptr;
  bin->key = key;
  bin->head.prev = &bin->head;
  bin->head.next = &bin->head;
  bin->in_table = true;
  insert_at(i, Slot{hi, tag, dist, bin});
  return *(recent = bin);
}

void BinTable::insert_at(std::size_t i, Slot entry) noexcept {
  for (;; ++entry.dist, i = (i + 1) & mask_) {
    Slot& s = slots_[i];
    if (s.bin == nullptr) {
      s = entry;
      break;
    }
    if (s.dist < entry.dist) std::swap(s, entry);  // the richer one moves on
  }
  ++used_;
}

// Bounded memory without per-message churn. Empty bins are kept in the table
// as a cache: a ping-pong on one tag re-finds its bin and never inserts. When
// inserting would push the table past half full, we sweep instead of growing
// blindly: every empty bin goes back to the free list, the live ones are
// re-placed, and the slot array only grows if live bins would still fill more
// than a quarter of it. So a sweep of C slots happens at most once per C/4
// insertions (O(1) amortised), the slot array is at most ~8x the peak number
// of non-empty bins (plus kMinSlots), and the pool never exceeds the peak
// number of bins in the table. An application that uses a new tag every
// iteration therefore cycles the same few bins forever, allocation-free.
void BinTable::make_room(std::size_t n) {
  if (used_ + n > limit_) rebuild(n);
  while (free_count_ < n) add_chunk();
}

void BinTable::rebuild(std::size_t extra) {
  for (Bin*& recent : recent_) recent = nullptr;  // they may be empty, and leave the table below
  std::size_t live = 0;
  for (auto& chunk : chunks_) {
    for (std::size_t i = 0; i < kBinsPerChunk; ++i) {
      if (chunk[i].in_table && !chunk[i].empty()) ++live;
    }
  }
  std::size_t slots = slot_count();
  while ((live + extra) * 4 > slots) slots *= 2;
  std::unique_ptr<Slot[]> fresh;
  if (slots != slot_count()) fresh = std::make_unique<Slot[]>(slots);  // may throw
  // Nothing above changed any state; commit.
  if (fresh) {
    slots_ = std::move(fresh);
    mask_ = slots - 1;
    limit_ = slots / 2;
  } else {
    std::fill_n(slots_.get(), slots, Slot{});
  }
  used_ = 0;
  for (auto& chunk : chunks_) {
    for (std::size_t i = 0; i < kBinsPerChunk; ++i) {
      Bin& bin = chunk[i];
      if (!bin.in_table) continue;
      if (bin.empty()) {
        bin.in_table = false;
        bin.next_free = free_;
        free_ = &bin;
        ++free_count_;
      } else {
        const std::uint64_t hi = pack(bin.key);
        const auto tag = static_cast<std::uint32_t>(bin.key.tag);
        insert_at(hash(hi, tag) & mask_, Slot{hi, tag, 0, &bin});
      }
    }
  }
}

void BinTable::add_chunk() {
  chunks_.reserve(chunks_.size() + 1);  // so push_back below cannot throw
  auto chunk = std::make_unique<Bin[]>(kBinsPerChunk);
  Bin* bins = chunk.get();
  chunks_.push_back(std::move(chunk));
  for (std::size_t i = 0; i < kBinsPerChunk; ++i) {
    bins[i].next_free = free_;
    free_ = &bins[i];
  }
  free_count_ += kBinsPerChunk;
}

}  // namespace shmpi::pml::detail
