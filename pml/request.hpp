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

struct Request : PostedRecv {
  RequestKind kind = RequestKind::Recv;
  bool complete = false;

  // Receive: where the message goes, and how much of it has arrived.
  std::byte* recv_buffer = nullptr;
  std::size_t capacity = 0;
  std::uint64_t received = 0;  // rendezvous streaming offset
  // Split rendezvous: where the sender's buffer is, to finish the copy
  // ourselves should the sender's part fail.
  std::uint64_t remote_address = 0;
  std::uint64_t sender_cookie = 0;
  std::uint32_t source_world = 0;
  bool part_failed = false;

  // Send: what goes, to whom (world rank), and how far it got.
  const std::byte* send_buffer = nullptr;
  std::size_t length = 0;
  std::size_t sent = 0;          // payload bytes already in the ring
  std::uint64_t peer_cookie = 0; // rendezvous: the receiver's request (from Cts)
  std::uint32_t dest = 0;
  SendMode mode = SendMode::Standard;
  bool started = false;          // the first record has been pushed
  bool pushed = false;           // every record we owe has been pushed
  bool awaiting_peer = false;    // send: an Ack or Fin is due; receive: a SplitDone is due
  Envelope envelope{};           // context, source (our rank in the communicator), tag
  Request* next_send = nullptr;  // per-peer send queue link

  Status status;
};

}  // namespace shmpi::pml
