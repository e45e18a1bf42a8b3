// Network: this rank's endpoints to peers on other nodes, over UCX active
// messages (UCP AM). Knows nothing of MPI: it moves a small opaque header
// and a payload to a peer, and hands what arrives up in each peer's send
// order (UCX does not promise order for active messages: a sequence number
// per pair puts early arrivals aside until their turn).
//
// Wire-up, like btl::Transport's, is two-phase and carried by the caller:
//   Network n(rank, size);  publish n.address() (PMIx scope GLOBAL) ...
//   ... after the fence: n.add_peer(peer, its address) for each remote peer.
// Endpoints are made on the first send to a peer (connect() makes one early).
//
// A build without UCX (SHMPI_WITH_UCX off) has the same type, whose
// constructor throws NetworkError: a job with remote peers stops at start-up.
//
// Single-threaded, like the pml that drives it: callbacks run inside
// progress(), send() and receive().
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>

namespace shmpi::net {

// Thrown when the network cannot be set up; what() is one line for the user.
struct NetworkError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One message from a peer, valid only during the OnArrival call.
struct Arrival {
  std::uint32_t peer;                  // world rank of the sender
  std::span<const std::byte> header;   // the sender's header
  std::span<const std::byte> data;     // the payload, if it came with the header
  std::uint64_t length;                // payload bytes
  // Non-null when the payload is still at the sender (a rendezvous): pass
  // it to receive() now or later.
  void* pending;
};

// Called with each arrival, in the peer's send order. Returns true if it
// keeps `arrival.pending` for a later receive() (false: received already).
using OnArrival = bool (*)(void* owner, const Arrival& arrival);
// Called when a send's payload may be reused, or a receive's data is in.
using OnDone = void (*)(void* user);

class Network {
 public:
  // Largest header send() takes.
  static constexpr std::size_t kMaxHeader = 48;

  Network(std::uint32_t rank, std::uint32_t nranks);  // throws NetworkError
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;
  ~Network();  // flushes what is in flight and closes the endpoints

  // Who hears arrivals (the pml), set once before the first progress().
  void set_receiver(OnArrival on_arrival, void* owner) noexcept;

  // Our worker's network-only address, printable (for the PMIx store).
  std::string address() const;
  // A peer on another node and its address(). Throws NetworkError.
  void add_peer(std::uint32_t peer, const std::string& address);
  // Makes the endpoint to an added peer now rather than on the first send:
  // done for one peer at start-up, so a job whose network cannot work (no
  // usable device) stops in MPI_Init. Throws NetworkError (one line).
  void connect(std::uint32_t peer);

  // Sends `header` then `bytes` from `data` to `peer`. Returns true if the
  // payload may be reused now; otherwise done(user) is called once it may
  // (done may be nullptr).
  bool send(std::uint32_t peer, std::span<const std::byte> header, const void* data, std::size_t bytes,
            OnDone done, void* user) noexcept;
  // Receives a pending payload of `length` bytes into `buffer`, keeping the
  // first `capacity` bytes of a longer one; done(user) once it is in.
  void receive(void* pending, std::uint64_t length, void* buffer, std::size_t capacity, OnDone done,
               void* user) noexcept;

  // Drops a pending payload (Arrival::pending) nobody will receive; the
  // sender's send completes (its done() is called) as if it had been.
  void discard(void* pending) noexcept;

  // Delivers what arrived and completes what finished. True if anything did.
  bool progress() noexcept;
  // Readies the worker for sleep_until_traffic(): true if it may sleep now;
  // false if a message came in meanwhile or there is no wake-up fd (the
  // caller yields instead). Calls UCX, so a rank's threads call it holding
  // the rank's lock; sleep_until_traffic() does not need it.
  bool arm() noexcept;
  // Sleeps until a message from a peer may have arrived (UCX's wake-up fd),
  // `also_fd` is readable (-1: none; the caller's own wake-up, e.g. from
  // peers on this node), or timeout_ns passed. After arm() returned true.
  void sleep_until_traffic(long timeout_ns, int also_fd = -1) noexcept;

  // Payload bytes sent to / received from the network so far.
  std::uint64_t bytes_sent() const noexcept;
  std::uint64_t bytes_received() const noexcept;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// True if this build can talk to other nodes (UCX found at build time).
bool network_built() noexcept;

}  // namespace shmpi::net
