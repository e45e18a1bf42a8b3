// TrafficStats: what the pml's traffic did, for the run report
// (runtime/run_report.hpp, SHMPI_STATS=1).
//
// Always counted, never switched: each count is a plain add to a word the
// pml already owns, on a line that has just moved the message (no branch
// on a run-time flag, no atomics: the pml is single-threaded). Nothing here
// allocates after construction.
//
// Each message is counted once, by the side that decided its protocol:
// - the sender counts what it sent as Box, Eager, Pipelined or Rendezvous
//   (the offer), and every message it started per destination (the
//   communication matrix);
// - the receiver counts how each rendezvous message it received moved:
//   SingleCopy, Split or Streamed.
// - the sender counts each message to a peer on another node as Network.
// So over a whole job Rendezvous = SingleCopy + Split + Streamed, once every
// message was received.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace shmpi::pml {

enum class Protocol : std::uint8_t {
  Box,         // sender: one eager record through the pair's fast box
  Eager,       // sender: one eager record through the ring
  Pipelined,   // sender: FragFirst + Frag records through the ring
  Rendezvous,  // sender: a request to send (the receiver picks the route)
  SingleCopy,  // receiver: read straight out of the sender (one or a batch of reads)
  Split,       // receiver: the copy shared with the sender
  Streamed,    // receiver: the sender streamed it through the ring (Cts)
  Network,     // sender: any size, to a peer on another node (net/network.hpp)
};
inline constexpr std::size_t kProtocols = 8;

// Messages and payload bytes.
struct TrafficCount {
  std::uint64_t messages = 0;
  std::uint64_t bytes = 0;
};

// The per-protocol totals of one rank: plain words, so a copy of them can
// travel as bytes (run_report gathers them).
struct ProtocolTotals {
  std::array<TrafficCount, kProtocols> by_protocol{};
  std::uint64_t read_batches = 0;  // single-copy system calls that each read several messages

  const TrafficCount& operator[](Protocol p) const noexcept { return by_protocol[static_cast<std::size_t>(p)]; }
};
static_assert(std::is_standard_layout_v<ProtocolTotals> && std::is_trivially_copyable_v<ProtocolTotals>);
static_assert(sizeof(ProtocolTotals) == (2 * kProtocols + 1) * sizeof(std::uint64_t));

class TrafficStats {
 public:
  explicit TrafficStats(std::uint32_t nranks) : to_peer_(nranks) {}

  // A message of `bytes` moved by `protocol`.
  void count(Protocol protocol, std::uint64_t bytes) noexcept {
    TrafficCount& c = totals_.by_protocol[static_cast<std::size_t>(protocol)];
    ++c.messages;
    c.bytes += bytes;
  }
  // An eager record of `bytes` went out through the box (true) or the ring.
  void count_eager(bool in_box, std::uint64_t bytes) noexcept {
    count(in_box ? Protocol::Box : Protocol::Eager, bytes);
  }
  // A send of `bytes` to world rank `dest` started (the matrix).
  void sent_to(std::uint32_t dest, std::uint64_t bytes) noexcept {
    TrafficCount& c = to_peer_[dest];
    ++c.messages;
    c.bytes += bytes;
  }
  // A batch of single-copy reads ended; `batched` if it read several
  // messages in one system call.
  void read_batch(bool batched) noexcept { totals_.read_batches += batched ? 1 : 0; }

  const ProtocolTotals& totals() const noexcept { return totals_; }
  // By world rank: the messages this rank started to it, and their bytes.
  const std::vector<TrafficCount>& to_peers() const noexcept { return to_peer_; }

 private:
  ProtocolTotals totals_;
  std::vector<TrafficCount> to_peer_;  // sized once, by world rank
};

}  // namespace shmpi::pml
