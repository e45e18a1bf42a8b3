// Ring: a single-producer / single-consumer FIFO of variable-size records.
//
// Each ordered pair of ranks (s -> r) owns one ring in r's segment, so r
// polls memory local to its NUMA node. Records start on 16-byte slot
// boundaries; a record is a 4-byte RecordHeader followed by its body.
// The header word holds both the stamp and the body length, so one store
// publishes a record and the body starts 4 bytes in (a user of the ring that
// puts a 12-byte header first has its payload 16-byte aligned).
// A small message therefore travels in 32 or 48 bytes, published by one
// release store that the consumer observes with one acquire load, and a
// stream of small messages packs several per cache line: the line
// transfers, not the copies, bound the rate of small messages. (With
// 32-byte slots a 32-byte message took a whole line and its terminator
// the next one: osu_bw 32 B ran 6.5 M messages/s, 16-byte slots 8.7 M.)
//
// Shared words and who touches them:
// - RecordHeader::word: written by the producer, read by the consumer. Its
//   low byte is the stamp, 0 meaning "nothing here yet"; the upper 24 bits
//   are the body length. The producer writes the body first and the word
//   last (release); the consumer loads the word (acquire) and reads the body
//   only if the stamp is non-zero.
// - Before publishing a record, the producer stores stamp 0 into the header
//   slot right after it (the "terminator"). So whenever the consumer moves
//   past a record, the slot it looks at next holds either the terminator or a
//   newer record, never stale bytes of an older lap (whose payload could look
//   like a valid stamp).
// - RingControl::tail: written by the consumer (release) once per drained
//   batch and whenever a quarter of the ring has been drained (so a
//   stream's producer fills while the consumer copies), read by the
//   producer (acquire) only when the ring looks full; the producer keeps
//   its own cached copy, and the head never leaves the producer.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>

#include "btl/prefetch.hpp"
#include "btl/small_copy.hpp"

namespace shmpi::btl {

inline constexpr std::size_t kCacheLine = 64;
inline constexpr std::size_t kSlot = 16;  // record alignment
// A small message's record: header word, a 12-byte match header, up to 16
// bytes of payload.
inline constexpr std::size_t kSmallRecord = 2 * kSlot;
// Bodies from kClaimAheadFrom up to (not including) kClaimAheadUntil bytes
// make the producer claim the lines of the next record of the same size as
// soon as it commits one (RingWriter::claim_ahead); a RingWriter may be given
// another window (ClaimAhead). These are the general profile's
// claim_ahead_from and claim_ahead_limit (tunables_unit_tests keeps them
// equal); measurements: docs/tunables/claim_ahead_from.md, claim_ahead_limit.md.
inline constexpr std::size_t kClaimAheadFrom = 1024;
inline constexpr std::size_t kClaimAheadUntil = 2048 + kCacheLine;

// The bodies whose records claim the next record's lines: from `from` up
// to (not including) `until` bytes.
struct ClaimAhead {
  std::size_t from = kClaimAheadFrom;
  std::size_t until = kClaimAheadUntil;
};

// After a record below the claim-ahead window the producer claims the
// line this many lines past the head (Xeon VMs, 3 interleaved runs: osu_bw
// 1 B 13.4 -> 28.8 MB/s, 32 B 299 -> 778, 256 B 1044 -> 1157; osu_bibw 1 B
// 20 -> 29; osu_latency 0-2 KiB unchanged; 8 lines ahead gained as much;
// 256 B records claim ahead since, on Intel CPUs).
inline constexpr std::uint64_t kLookAheadLines = 4;

struct alignas(kCacheLine) RingControl {
  std::atomic<std::uint64_t> tail;  // consumer's read position (monotonic)
  std::uint8_t pad_[kCacheLine - sizeof(std::atomic<std::uint64_t>)];
};
static_assert(sizeof(RingControl) == kCacheLine);
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);

struct RecordHeader {
  std::uint32_t word;  // stamp | length << 8; accessed through std::atomic_ref only
};
static_assert(sizeof(RecordHeader) == 4);
static_assert(std::atomic_ref<std::uint32_t>::is_always_lock_free);

inline constexpr std::size_t kRecordHeaderBytes = sizeof(RecordHeader);
inline constexpr std::uint32_t kStampMask = 0xFFu;
inline constexpr unsigned kLengthShift = 8;
// A wrap record tells the consumer that the producer continued at the start
// of the ring because the next record did not fit before its end.
inline constexpr std::uint32_t kWrapLength = 0xFFFFFFu;
// The largest body a header word can describe.
inline constexpr std::size_t kMaxRecordBody = kWrapLength - 1;

// Bytes one record with a body of `body_bytes` occupies in the ring.
constexpr std::size_t record_bytes(std::size_t body_bytes) noexcept {
  return (kRecordHeaderBytes + body_bytes + kSlot - 1) / kSlot * kSlot;
}

// Copies a record body into ring memory. From 2 KiB on x86-64 it uses
// `rep movsb`, whose fast-string stores take whole destination lines
// without reading them first: a ring's lines sit in the consumer's cache,
// so a vector memcpy fetches each one across cores before overwriting it
// (measured with osu_bw/osu_latency: 2-8 KiB eager messages 5-30% faster;
// below 2 KiB and for 16 KiB fragments no gain, 512 B latency slightly worse).
// Up to 64 bytes it uses copy_small() (btl/small_copy.hpp).
[[gnu::always_inline]] inline void copy_to_ring(std::byte* dst, const void* src, std::size_t n) noexcept {
  if (n <= kSmallCopyMax) [[likely]] {  // laid out first: small messages are latency-bound
    copy_small(dst, src, n);
    return;
  }
#if defined(__x86_64__)
  if (n >= 2048) {
    asm volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
    return;
  }
#endif
  __builtin_memcpy(dst, src, n);
}

// The producer's view of a ring. Private to the sending process.
class RingWriter {
 public:
  RingWriter() = default;
  // Records with bodies in the `claim` window claim the lines of the next
  // one (claim_ahead()); smaller ones look one line ahead (commit()).
  // `warm_first`: read the whole ring before the first record (warm()); a
  // large job leaves it off, since reading a ring's pages allocates them.
  RingWriter(RingControl* control, std::byte* cells, std::size_t size, ClaimAhead claim = {},
             bool warm_first = true) noexcept
      : control_(control), cells_(cells), size_(size), claim_(claim), warmed_(!warm_first) {}

  // Largest record body this ring accepts (a quarter of the ring, so a
  // wrap never needs more than half of it, and at most kMaxRecordBody).
  std::size_t max_body() const noexcept {
    const std::size_t quarter = size_ / 4 - kRecordHeaderBytes;
    return quarter < kMaxRecordBody ? quarter : kMaxRecordBody;
  }

  // Reserves a record with a body of `body_bytes` (<= max_body()) and
  // returns where to write the body, or nullptr while the ring is full.
  // Nothing is visible to the consumer until commit().
  std::byte* try_reserve(std::size_t body_bytes) noexcept {
    if (!warmed_) [[unlikely]] warm();
    const std::size_t rec = record_bytes(body_bytes);
    const std::size_t pos = head_ & (size_ - 1);
    const std::size_t to_end = size_ - pos;
    const std::size_t skip = rec > to_end ? to_end : 0;
    // The record, a possible wrap gap, and the terminator slot after it.
    if (head_ + skip + rec + kSlot - cached_tail_ > size_) {
      cached_tail_ = control_->tail.load(std::memory_order_acquire);
      if (head_ + skip + rec + kSlot - cached_tail_ > size_) return nullptr;
    }
    if (skip != 0) publish_wrap(pos);
    const std::size_t at = head_ & (size_ - 1);
    terminate(head_ + rec);
    pending_length_ = static_cast<std::uint32_t>(body_bytes);
    return cells_ + at + kRecordHeaderBytes;
  }

  // Makes the reserved record visible to the consumer.
  void commit() noexcept {
    publish(head_ & (size_ - 1), pending_length_);  // the head moves only here and at a wrap
    head_ += record_bytes(pending_length_);
    // Fetch now the line the next small record's terminator goes to (a
    // small message's record is two slots). Its store must become visible
    // before that record's stamp (stores drain in order), so fetching it on
    // the critical path would add a cross-core transfer to every small
    // message. Built without -mprfchw this is a read prefetch (prefetcht0),
    // not PREFETCHW: prefetch_for_write() here read 3-5% slower at 64-256 B
    // (osu_latency, 6 interleaved runs each, slow placement).
    __builtin_prefetch(cells_ + ((head_ + kSmallRecord) & (size_ - 1)), 1, 3);
    if (pending_length_ < claim_.from) {
      // A stream of small records: ask now for the line kLookAheadLines past
      // the head, if the consumer is done with it, so its invalidation is
      // under way before the records reach it (without this the producer
      // stalled on those stores: 61% of Pml::push's samples on osu_bw 32 B).
      const std::uint64_t ahead = (head_ & ~std::uint64_t{kCacheLine - 1}) + kLookAheadLines * kCacheLine;
      if (ahead + kCacheLine - cached_tail_ <= size_) prefetch_for_write(cells_ + (ahead & (size_ - 1)));
    } else if (pending_length_ < claim_.until) {
      claim_ahead();
    }
  }

  // Copies a record made of `head` then `body` into the ring and commits.
  bool try_push(std::span<const std::byte> head, std::span<const std::byte> body) noexcept;

 private:
  RecordHeader* header_at(std::size_t offset) const noexcept {
    return reinterpret_cast<RecordHeader*>(cells_ + offset);
  }
  // Reads every line of the ring once, before the first record. A producer
  // that holds a shared copy of a line needs only an invalidation to write
  // it, not a fetch from the consumer's cache: without this the first lap
  // of a ring ran up to 2x slower per small message than the laps after it
  // (measured). Done on first use, not at connect: reading the rings to
  // every peer at start-up cost 4 ms per rank at 16 ranks.
  void warm() noexcept {
    std::uint32_t sum = 0;
    for (std::size_t at = 0; at < size_; at += kCacheLine)
      sum += std::atomic_ref<std::uint32_t>(header_at(at)->word).load(std::memory_order_relaxed);
    asm volatile("" : : "r"(sum));  // the loads are the point
    warmed_ = true;
  }
  // Asks for write ownership of the lines the next record would take if it
  // were as large as the one just committed. They last held records the
  // consumer read a lap ago, so writing them needs the consumer's copies
  // invalidated first; the record is visible only when its last store has
  // drained, so on a ping-pong each of those round trips was on the critical
  // path of the next message. The line the next header goes to (the consumer
  // polls it) and the one commit() asked for are left alone, and so is any
  // line the consumer may not have read yet (as far as cached_tail_ tells).
  // A hint only: no value changes. Out of line: small records never call it.
  [[gnu::noinline]] void claim_ahead() noexcept {
    const std::size_t rec = record_bytes(pending_length_);
    if (head_ + 2 * rec - cached_tail_ > size_) return;
    const std::uint64_t first = (head_ + kSmallRecord + kCacheLine) & ~std::uint64_t{kCacheLine - 1};
    for (std::uint64_t at = first; at < head_ + rec; at += kCacheLine) prefetch_for_write(cells_ + (at & (size_ - 1)));
  }
  void publish(std::size_t offset, std::uint32_t length) noexcept {
    std::atomic_ref<std::uint32_t>(header_at(offset)->word)
        .store(length << kLengthShift | next_stamp_, std::memory_order_release);
    next_stamp_ = next_stamp_ == kStampMask ? 1 : next_stamp_ + 1;
  }
  // Stores the terminator at ring position `position` (relaxed: the release
  // of the record before it orders this store for the consumer).
  void terminate(std::uint64_t position) noexcept {
    std::atomic_ref<std::uint32_t>(header_at(position & (size_ - 1))->word).store(0, std::memory_order_relaxed);
  }
  void publish_wrap(std::size_t pos) noexcept {
    terminate(0);
    publish(pos, kWrapLength);
    head_ += size_ - pos;
  }

  RingControl* control_ = nullptr;
  std::byte* cells_ = nullptr;
  std::size_t size_ = 0;            // power of two
  ClaimAhead claim_;
  std::uint64_t head_ = 0;          // next write position (monotonic)
  std::uint64_t cached_tail_ = 0;   // last tail read from control_
  std::uint32_t next_stamp_ = 1;
  std::uint32_t pending_length_ = 0;  // body bytes of the reserved record (at the head)
  bool warmed_ = false;
};

// The consumer's view of a ring. Private to the receiving process.
class RingReader {
 public:
  RingReader() = default;
  RingReader(RingControl* control, std::byte* cells, std::size_t size) noexcept
      : control_(control), cells_(cells), size_(size) {}

  // True when a record is ready to be read.
  bool ready() const noexcept { return (word_at(tail_) & kStampMask) != 0; }

  // Hands up to `max` records to on_record(std::span<const std::byte> body),
  // in order, and publishes the new tail once. The body is valid only during
  // the call. on_record must not drain this ring again.
  template <class OnRecord>
  std::size_t drain(OnRecord&& on_record, std::size_t max) noexcept {
    std::size_t n = 0;
    while (n < max) {
      const std::uint32_t word = word_at(tail_);
      if ((word & kStampMask) == 0) break;
      const std::size_t pos = tail_ & (size_ - 1);
      const std::uint32_t length = word >> kLengthShift;
      if (length == kWrapLength) {
        tail_ += size_ - pos;
        continue;
      }
      on_record(std::span<const std::byte>(cells_ + pos + kRecordHeaderBytes, length));
      tail_ += record_bytes(length);
      ++n;
      // A quarter of the ring drained (a stream's fragment, or many small
      // records): the producer may be waiting for that room, give it now
      // rather than after the batch, so it fills while we copy.
      if (tail_ - published_ >= size_ / 4) publish_tail();
    }
    if (tail_ != published_) publish_tail();
    return n;
  }

  // Offers the next record, if one is ready, to
  // accept(std::span<const std::byte> body), which runs after the record's
  // acquire load; the record is consumed (and the tail published) only if
  // accept() returns true. A wrap in front of it is passed either way.
  template <class Accept>
  bool deliver_if(Accept& accept) noexcept {
    std::uint32_t word = word_at(tail_);
    if ((word & kStampMask) == 0) return false;
    if (word >> kLengthShift == kWrapLength) {
      tail_ += size_ - (tail_ & (size_ - 1));
      word = word_at(tail_);
      if ((word & kStampMask) == 0) return false;
    }
    const std::uint32_t length = word >> kLengthShift;
    if (!accept(std::span<const std::byte>(cells_ + (tail_ & (size_ - 1)) + kRecordHeaderBytes, length))) return false;
    tail_ += record_bytes(length);
    publish_tail();
    return true;
  }

 private:
  std::uint32_t word_at(std::uint64_t position) const noexcept {
    auto* header = reinterpret_cast<RecordHeader*>(cells_ + (position & (size_ - 1)));
    return std::atomic_ref<std::uint32_t>(header->word).load(std::memory_order_acquire);
  }

  // Release: our reads of the drained records happen before the producer
  // may overwrite them.
  void publish_tail() noexcept {
    control_->tail.store(tail_, std::memory_order_release);
    published_ = tail_;
  }

  RingControl* control_ = nullptr;
  std::byte* cells_ = nullptr;
  std::size_t size_ = 0;
  std::uint64_t tail_ = 0;       // next read position (monotonic)
  std::uint64_t published_ = 0;  // the tail the producer was last given
};

// Reserves a record in `writer` (a RingWriter or ChannelWriter), copies
// `head` then `body` in and commits; false while there is no room.
template <class Writer>
bool push_record(Writer& writer, std::span<const std::byte> head, std::span<const std::byte> body) noexcept {
  std::byte* out = writer.try_reserve(head.size() + body.size());
  if (out == nullptr) return false;
  if (!head.empty()) __builtin_memcpy(out, head.data(), head.size());
  if (!body.empty()) __builtin_memcpy(out + head.size(), body.data(), body.size());
  writer.commit();
  return true;
}

inline bool RingWriter::try_push(std::span<const std::byte> head, std::span<const std::byte> body) noexcept {
  return push_record(*this, head, body);
}

}  // namespace shmpi::btl
