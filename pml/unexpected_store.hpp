// UnexpectedStore: records of messages that arrived before a matching
// receive was posted, recycled through a free list so that steady-state
// traffic allocates nothing (each record keeps its buffer's capacity).
//
// It also counts the memory the payloads it holds cost (held()): each
// record that carries a payload (an eager or pipelined message, not a
// rendezvous offer) is charged its length plus kRecordCharge, so a flood of
// empty messages counts too. The pml compares that with its budget
// (unexpected_budget) to ask senders to keep their payloads at home.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "pml/matcher.hpp"

namespace shmpi::pml {

struct Unexpected : UnexpectedMsg {
  std::uint32_t peer = 0;       // world rank of the sender
  std::uint64_t length = 0;     // total message bytes
  std::uint64_t received = 0;   // bytes that have arrived so far (eager / pipelined)
  bool rendezvous = false;      // an Rts: the payload is still in the sender
  bool sync = false;            // the sender waits for an Ack with `cookie`
  bool can_write = false;       // rendezvous: the sender can take part in a split copy
  bool spans = false;           // kSpans: it may fill the receives after the one it matches
  std::uint64_t cookie = 0;     // the sender's request (sync or rendezvous)
  std::uint64_t address = 0;    // rendezvous: the sender's buffer
  std::uint32_t sequence = 0;   // its first record's sequence number on the pair (WithdrawNotice)
  std::uint64_t charged = 0;    // what it adds to UnexpectedStore::held()
  std::vector<std::byte> data;  // payload; capacity kept across reuses
  Unexpected* next_free = nullptr;

  bool arrived() const noexcept { return rendezvous || received == length; }
};

class UnexpectedStore {
 public:
  // What a record holding a payload costs besides the payload: the record
  // itself, rounded up to whole cache lines.
  static constexpr std::uint64_t kRecordCharge = (sizeof(Unexpected) + 63) / 64 * 64;
  static_assert(kRecordCharge <= 256, "many_ranks.flood64_bounded's bound takes a record for at most 256 bytes");

  // A fresh record with room for `buffered` payload bytes; `holds_payload`
  // charges it to held() (a rendezvous offer holds none).
  Unexpected& acquire(std::uint32_t peer, std::uint64_t length, std::uint64_t buffered, bool holds_payload) {
    Unexpected* u = free_;
    if (u != nullptr) {
      free_ = u->next_free;
    } else {
      u = &records_.emplace_back();
    }
    u->peer = peer;
    u->length = length;
    u->received = 0;
    u->rendezvous = false;
    u->sync = false;
    u->can_write = false;
    u->spans = false;
    u->cookie = 0;
    u->address = 0;
    u->sequence = 0;
    u->data.resize(buffered);
    u->charged = holds_payload ? buffered + kRecordCharge : 0;
    held_ += u->charged;
    if (held_ > held_peak_) held_peak_ = held_;
    return *u;
  }

  // The most records held at once: records are made only when none is
  // free, so the deepest the unexpected queue has been.
  std::size_t peak() const noexcept { return records_.size(); }
  // Bytes charged for the payloads held now, and the most ever.
  std::uint64_t held() const noexcept { return held_; }
  std::uint64_t held_peak() const noexcept { return held_peak_; }

  void release(Unexpected& u) noexcept {
    held_ -= u.charged;
    u.charged = 0;
    // Give back the memory of very large messages; keep small buffers.
    if (u.data.capacity() > kKeepCapacity) std::vector<std::byte>().swap(u.data);
    u.next_free = free_;
    free_ = &u;
  }

 private:
  static constexpr std::size_t kKeepCapacity = 64 * 1024;
  std::deque<Unexpected> records_;  // stable addresses
  Unexpected* free_ = nullptr;
  std::uint64_t held_ = 0;
  std::uint64_t held_peak_ = 0;
};

}  // namespace shmpi::pml
