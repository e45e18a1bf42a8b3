// Request: one send or receive in flight, owned by its caller.
//
// A receive request is also the matcher's PostedRecv node while it waits in
// the posted queue; the pml static_casts between the two. A request's
// address is its cookie in control records, so it must stay put until it
// completes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "pml/matcher.hpp"
#include "pml/run_layout.hpp"

namespace shmpi::pml {

// Error classes the pml reports in a Status (the runtime maps them to MPI's).
enum class Completion : std::uint8_t {
  Ok = 0,
  Truncated = 1,  // the message was longer than the receive buffer
};

struct Status {
  std::int32_t source = -1;  // sender's rank in the communicator
  std::int32_t tag = -1;
  Completion result = Completion::Ok;
  bool cancelled = false;
  std::uint64_t bytes = 0;         // bytes delivered into the buffer
  std::uint64_t sent_bytes = 0;    // bytes the sender sent (differs on truncation)
};

enum class RequestKind : std::uint8_t { Send, Recv };

enum class SendMode : std::uint8_t {
  Standard,     // complete once the buffer may be reused
  Synchronous,  // ... and the receiver has matched the message
};

// Fields are deliberately left uninitialised: start_send, start_recv and
// start_mrecv set every field their path reads, and a request is built for
// each MPI_Send / MPI_Recv, where zeroing ~200 bytes cost more than the
// matching (measured). Write `Request r{}` where zeros are wanted.
struct Request : PostedRecv {
  RequestKind kind;
  bool complete;

  // Receive: where the message goes, and how much of it has arrived.
  std::byte* recv_buffer;
  std::size_t capacity;
  std::uint64_t received;  // rendezvous streaming offset
  // Split rendezvous: where the sender's buffer is, to finish the copy
  // ourselves should the sender's part fail.
  std::uint64_t remote_address;
  std::uint64_t sender_cookie;
  std::uint32_t source_world;
  bool part_failed;
  bool in_epoch;  // counted in its peer's RouteEpoch until it ends
  bool read_at_once;  // the caller reads the data right after (a reduction's operand): never split the copy
  bool run_split;     // the split copy in progress pairs runs (a RunLayout on either side)
  // A message that spans (kSpans) also fills the receives posted for the
  // next tags below want.tag, one per `span_unit` bytes (0: it fills only
  // this one); `spanned` of them, taken out of the posted queue at match.
  std::uint64_t span_unit;
  std::uint32_t spanned;

  // Send: what goes, to whom (world rank), and how far it got.
  const std::byte* send_buffer;
  std::size_t length;
  std::size_t sent;           // payload bytes already in the ring
  std::uint64_t peer_cookie;  // rendezvous: the receiver's request (from Cts)
  std::uint32_t dest;
  SendMode mode;
  bool started;          // the first record has been pushed
  bool pushed;           // every record we owe has been pushed
  bool awaiting_peer;    // send: an Ack or Fin is due; receive: a SplitDone is due
  bool pipelined_reply;  // send: a reply to the peer, pipelined even at rendezvous sizes
  bool offered;          // send: went as a rendezvous offer (Rts), which the receiver answers
  bool withdraw_asked;   // send: cancel() asked the receiver to withdraw it (once per send)
  bool withdrawing;      // send: ... and its answer (Withdrawn) is due; the send completes after it
  std::uint8_t first_flags;  // send: flags its first record carries besides the protocol's (kSpans)
  std::uint32_t sequence;  // send: its first record's sequence number on the pair (set once started)
  Envelope envelope;     // context, source (our rank in the communicator), tag
  Request* next_send;    // per-peer send queue link

  // A non-contiguous buffer moved without packing (pml/run_layout.hpp):
  // receive: where the bytes go instead of recv_buffer; send: where they
  // come from instead of send_buffer. nullptr for contiguous buffers.
  const RunLayout* layout;

  Status status;
};

}  // namespace shmpi::pml
