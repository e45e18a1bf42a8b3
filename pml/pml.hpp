// Pml: MPI point-to-point matching and protocols over the btl.
//
// Sends: a message up to the eager limit is one ring record; a larger one
// is a FragFirst record followed by Frag records of at most max_fragment
// bytes, pushed as ring space allows. Messages to one peer leave in the
// order their sends started (one send queue per peer).
//
// Receives: each arriving message is matched against the posted receives;
// unmatched ones are kept as Unexpected records until a receive claims
// them. A fragmented message streams straight into the receive buffer once
// matched, even if its first part arrived unexpected.
//
// Single-threaded: the caller serialises every call (MPI_THREAD_SERIALIZED).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "btl/transport.hpp"
#include "pml/matcher.hpp"
#include "pml/protocol.hpp"
#include "pml/request.hpp"
#include "pml/unexpected_store.hpp"

namespace shmpi::pml {

struct ProtocolLimits {
  std::size_t eager_limit = 4096;    // largest single-record message
  std::size_t max_fragment = 16384;  // largest fragment payload
};

struct WaitPolicy {
  // Failed progress rounds before a waiting rank yields its core; 0 yields
  // at once (oversubscribed jobs), a huge value never yields.
  std::uint32_t spins_before_yield = 1u << 14;
};

class Pml {
 public:
  Pml(btl::Transport& transport, const ProtocolLimits& limits, const WaitPolicy& wait);

  // Starts sending `bytes` from `buffer` to world rank `dest`. The request
  // completes when the buffer may be reused. `envelope.source` is our rank
  // in the communicator of `envelope.context`.
  void start_send(Request& request, std::uint32_t dest, const Envelope& envelope,
                  const void* buffer, std::size_t bytes) noexcept;

  // Starts a receive of at most `capacity` bytes matching `want`.
  void start_recv(Request& request, const Envelope& want, void* buffer, std::size_t capacity);

  // Polls every inbound ring and pushes queued sends. True if anything moved.
  bool progress() noexcept;

  // Progresses until `request` completes.
  void wait(Request& request) noexcept;

  std::size_t posted_count() const noexcept { return posted_.size(); }
  std::size_t unexpected_count() const noexcept { return unexpected_.size(); }

 private:
  // The message currently streaming in on one peer's ring.
  struct Incoming {
    Request* request = nullptr;        // matched receive, or
    Unexpected* unexpected = nullptr;  // unmatched message being buffered
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
  };
  struct SendQueue {
    Request* head = nullptr;
    Request* tail = nullptr;
  };

  void on_record(std::uint32_t peer, std::span<const std::byte> body);
  void on_first(std::uint32_t peer, const MatchHeader& header, std::span<const std::byte> payload);
  void on_fragment(std::uint32_t peer, std::span<const std::byte> payload) noexcept;
  void claim(Request& request, Unexpected& message) noexcept;
  bool push(Request& request) noexcept;
  void push_queued(std::uint32_t peer) noexcept;

  btl::Transport& transport_;
  ProtocolLimits limits_;
  WaitPolicy wait_;
  UnexpectedStore store_;  // owns the nodes of unexpected_: declared first, destroyed last
  PostedQueue posted_;
  UnexpectedQueue unexpected_;
  std::vector<Incoming> incoming_;    // by world rank
  std::vector<SendQueue> send_queues_;  // by world rank
  std::uint32_t queued_sends_ = 0;
};

}  // namespace shmpi::pml
