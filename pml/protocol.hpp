// The pml's wire format: the header that starts every ring record body.
//
// The btl carries records opaquely, in order per pair; records of up to
// btl::kBoxBody (56) bytes (Eager of up to 44 bytes, 36 when synchronous;
// Ack, Cts, Fin, Split, SplitDone) may travel in the pair's fast box instead
// of the ring. The pml puts a MatchHeader first.
// Protocols, by message size (ProtocolLimits, from the Config):
// - eager: one Eager record, header + whole payload;
// - pipelined: a FragFirst record, then Frag records on the same ring with
//   nothing in between, until `length` bytes have arrived (also rendezvous
//   sizes below reply_pipeline_limit, when the send replies to the peer);
// - rendezvous: an Rts record (also for any size while the receiver's
//   backlog flag is up: pml.hpp, ProtocolLimits::unexpected_budget); once
//   matched the receiver either copies the payload straight out of the
//   sender (single copy) and answers Fin, or
//   answers Cts and the sender streams RndvFrag records addressed to the
//   receiver's request: when single copy is refused, or when the receiver's
//   RouteChooser (pml/route_chooser.hpp) found streaming the cheaper way
//   for that size lately. Large single copies are split: the receiver sends
//   Split, reads the first part while the sender writes the rest, and
//   answers Fin once the sender's SplitDone arrived.
// A synchronous send (kSync) carries an 8-byte cookie right after the
// header; the receiver answers Ack with that cookie once the message is
// matched.
// Cancelling a send that has left (pml/withdrawal.cpp): the sender asks
// with Withdraw, naming the message by its envelope and its place among
// the messages it sent the receiver (the n-th first record on this pair,
// counted by both sides: no extra word per message); the receiver answers
// Withdrawn, flagged kTooLate if a receive had matched it already.
#pragma once

#include <cstddef>
#include <cstdint>

namespace shmpi::pml {

enum class RecordKind : std::uint8_t {
  Eager = 1,      // the whole message
  FragFirst = 2,  // first part of a pipelined message; `length` is the total
  Frag = 3,       // continuation of the pipelined message on this ring
  Ack = 4,        // receiver -> sender: the synchronous send `length` (cookie) matched
  Rts = 5,        // request to send: payload is a RendezvousOffer
  Cts = 6,        // receiver -> sender: stream the rendezvous message; payload RendezvousReply
  RndvFrag = 7,   // sender -> receiver: part of a rendezvous message; `length` = receiver cookie
  Fin = 8,        // receiver -> sender: rendezvous `length` (cookie) finished, buffer free
  Split = 9,      // receiver -> sender: copy your part into my buffer yourself; payload SplitOffer
  SplitDone = 10, // sender -> receiver: part copied (or kRefused); `length` = receiver cookie
  Withdraw = 11,  // sender -> receiver: take back a message; `length` = sender cookie, payload WithdrawNotice
  Withdrawn = 12, // receiver -> sender: done (or kTooLate); `length` = sender cookie
};

inline constexpr std::uint8_t kSync = 1;      // flags: synchronous send, cookie follows the header
inline constexpr std::uint8_t kCanWrite = 2;  // Rts flags: the sender can and will single-copy a part
                                              // into the receiver (no receive of its own posted)
inline constexpr std::uint8_t kRefused = 4;   // SplitDone flags: the sender could not copy its part
inline constexpr std::uint8_t kTooLate = 8;   // Withdrawn flags: a receive had matched the message
inline constexpr std::uint8_t kRunsLayout = 16;  // Split flags: `address` is the receiver's RunLayout
// First records (Eager, FragFirst, Rts): the message fills the receive it
// matches and, when that receive takes spans (Pml::start_spanned_recv),
// the receives posted for the tags just below its own, one per span unit
// of its length (a partitioned send's ready partitions sent as one).
inline constexpr std::uint8_t kSpans = 16;

// The largest sender rank a header can carry (jobs are limited to fewer
// ranks: contract::kMaxRanks).
inline constexpr std::uint32_t kMaxSource = 0xFFFF;

// The part of the header every record carries.
struct MatchPrefix {
  std::uint32_t context;  // communicator context id
  std::int32_t tag;
  std::uint16_t source;   // sender's rank in the communicator
  RecordKind kind;
  std::uint8_t flags;
};
static_assert(sizeof(MatchPrefix) == 12);

// Every record but Eager carries the prefix and then an 8-byte length. An
// Eager record carries only the prefix: its length is the rest of the record
// (less the cookie of a synchronous send). Behind the ring's 4-byte record
// header, a message of up to 16 bytes takes 32 bytes of ring, one of up to
// 32 bytes 48, one of up to 48 bytes one cache line, and the payload starts
// 16-byte aligned.
inline constexpr std::size_t kPrefixBytes = sizeof(MatchPrefix);
inline constexpr std::size_t kLengthBytes = sizeof(std::uint64_t);
inline constexpr std::size_t kHeaderBytes = kPrefixBytes + kLengthBytes;
inline constexpr std::size_t kCookieBytes = sizeof(std::uint64_t);

// A record's header as the receiver reads it: the prefix and the length,
// whether carried (every kind but Eager) or implied by the record's size.
struct MatchHeader : MatchPrefix {
  std::uint64_t length;   // total message bytes, or a cookie for control records
};

// Header bytes at the start of a record of `kind`.
constexpr std::size_t header_bytes(RecordKind kind) noexcept {
  return kind == RecordKind::Eager ? kPrefixBytes : kHeaderBytes;
}

// Payload of an Rts record.
struct RendezvousOffer {
  std::uint64_t address;  // the sender's buffer, in the sender's address space
  std::uint64_t cookie;   // the sender's request; with kRunsCookie set, `address`
                          // is the sender's RunLayout (pml/run_layout.hpp)
};

// Payload of a Split record: the receiver copies [0, offset) itself while
// the sender writes [offset, offset + bytes) into `address` (receiver's
// buffer + offset, in the receiver's address space), so both cores copy.
// With kRunsLayout, `address` is the receiver's RunLayout and the offsets
// are positions in the packed stream (pml/run_copies.cpp).
struct SplitOffer {
  std::uint64_t sender_cookie;
  std::uint64_t receiver_cookie;
  std::uint64_t address;
  std::uint64_t offset;
  std::uint64_t bytes;
};

// Payload of a Withdraw record: the message's envelope, and its sequence
// number on the pair (1 for the first Eager, FragFirst or Rts record the
// sender sent this receiver, wrapping at 2^32).
struct WithdrawNotice {
  std::uint32_t context;
  std::int32_t source;
  std::int32_t tag;
  std::uint32_t sequence;
};

// Payload of a Cts record.
struct RendezvousReply {
  std::uint64_t sender_cookie;    // from the offer
  std::uint64_t receiver_cookie;  // where RndvFrag records go
};

}  // namespace shmpi::pml
