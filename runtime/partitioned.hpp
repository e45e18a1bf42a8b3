// Partitioned point-to-point communication (MPI-4.1 chapter 4):
// MPI_Psend_init / MPI_Precv_init, MPI_Pready*, MPI_Parrived.
//
// How a partitioned transfer travels. A send and a receive pair once, at
// the sender's first MPI_Start: it sends a SetupRecord on the
// communicator's internal context (collective_context(), which no user
// receive can match) with tag kSetupTag. The record names the user's tag
// and the pairing's sequence number -- the k-th partitioned send from us to
// that peer with that tag on that communicator pairs with the k-th such
// receive there (MPI's order of initialisation) -- plus the sender's
// partitioning and the block of internal tags its partitions use. The
// partitions one MPI_Pready* call marks (a range, or a run of consecutive
// ones in a list) then travel as one point-to-point message with the
// internal tag of the first, started by that call, so the receiver gets
// partitions as they become ready. The receiver, once it holds the record,
// posts one receive per send partition at that partition's place in its
// buffer (its own partitioning may differ); a message that spans several
// partitions (kSpans, pml/protocol.hpp) fills the receives of all of them,
// which leave the posted queue as it matches. A receive partition has
// arrived when every send partition overlapping it has. Messages of one
// tag from one sender match in order, so round r's partition i meets round
// r's receive even when the sender runs rounds ahead.
//
// Datatypes that are not contiguous. Partition i of `count` elements per
// partition is elements [i * count, (i + 1) * count) of the type, and what
// travels is their packed stream, so send partition i is bytes
// [i, i + 1) * partition_bytes of the sender's stream and lands at the same
// offset of the receiver's, whatever either side's partitioning. A send
// hands the pml the runs of its partitions' elements (pml/run_layout.hpp);
// a receive hands it the runs of its elements from the one where the send
// partition's bytes start when they start on an element's boundary, and
// else receives that message into a packed copy, unpacked into the
// elements when it completes (before MPI_Parrived or the request's
// completion can report it). Where the pml moves no runs (peers on other
// nodes) both sides go through packed copies.
//
// Internal tags: user tags are >= 0 and MPI_ANY_TAG is -1; the internal
// collectives use small positive tags on the internal context. Partitioned
// traffic takes the tags below -1 there: kSetupTag for setups, and
// partition_tag(id) for partition messages. Partition tag ids are never
// reused towards the same peer: a freed send's last messages may still wait
// there, unexpected, for a receive that a later pairing must not match.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

#include "datatype/type.hpp"
#include "pml/request.hpp"
#include "pml/run_layout.hpp"

namespace shmpi::runtime {

class Context;
struct MpiRequest;

inline constexpr std::int32_t kSetupTag = std::numeric_limits<std::int32_t>::min();
// Partition tag ids run from 0 to kPartitionTagIds - 1; none maps to -1
// (MPI_ANY_TAG) or to kSetupTag.
inline constexpr std::int32_t kPartitionTagIds = std::numeric_limits<std::int32_t>::max() - 2;
constexpr std::int32_t partition_tag(std::int32_t id) noexcept { return -2 - id; }

// What a sender tells its receiver when they pair (the setup message's
// payload; both ends run the same build).
struct SetupRecord {
  std::int32_t tag = 0;         // the user's tag
  std::int32_t partitions = 0;  // the sender's partition count
  std::uint64_t sequence = 0;   // which send with this (communicator, peer, tag) it is
  std::uint64_t partition_bytes = 0;
  std::int32_t tag_base = 0;  // partition i travels with partition_tag(tag_base + i)
  std::uint32_t reserved = 0;
};
static_assert(sizeof(SetupRecord) == 32);

// One partitioned send or receive, owned by its MpiRequest from init to free.
struct PartitionedOp {
  bool send = false;
  std::int32_t partitions = 0;      // ours
  std::size_t partition_bytes = 0;  // ours
  std::byte* buffer = nullptr;
  std::uint32_t internal_context = 0;  // the communicator's collective_context()
  std::int32_t self = 0;               // our rank in the communicator
  std::int32_t peer = 0;               // the other side's rank in it, or MPI_PROC_NULL
  std::uint32_t world_peer = 0;
  std::int32_t tag = 0;  // the user's
  std::uint64_t sequence = 0;

  // Send: the setup has been sent. Receive: the sender's setup is known
  // (in `setup`) and `parts` sized for its partitions.
  bool paired = false;
  SetupRecord setup;
  pml::Request setup_send{};  // send: carries `setup`; complete when not in flight

  // Send: one mark per partition, set by the MPI_Pready that sends it. The
  // exchange lets exactly one caller start each partition's message
  // (written by MPI_Pready's caller, read by completion polls; reset by MPI_Start).
  std::unique_ptr<std::atomic<std::uint8_t>[]> ready;
  // Send: one per partition. Receive: one per send partition, once paired.
  std::unique_ptr<pml::Request[]> parts;
  std::int32_t part_count = 0;
  std::int32_t settled = 0;  // parts[0, settled) have completed this round
  bool posted = false;       // receive: this round's receives are posted

  // A datatype that is not contiguous (and not empty); null for the others,
  // whose partitions are plain byte ranges of `buffer`. Kept alive here.
  datatype::TypeRef type;
  std::uint64_t count = 0;  // elements per partition (with `type`)
  // With `type`, one per part. Send: the runs of the message starting at
  // that partition (set as it starts). Receive: the runs of our elements
  // from the one that part's bytes start at, to the end (when posted).
  std::unique_ptr<pml::RunLayout[]> runs;
  // With `type`, packed bytes where the pml cannot move runs: the sender's
  // whole stream when it moves none; the receiver's whole stream, holding
  // the messages that start inside one of our elements (or all, when it
  // moves none). Receive: `unpack[i]` is set while part i's message is in
  // `staging` and not yet unpacked into our elements.
  std::unique_ptr<std::byte[]> staging;
  std::unique_ptr<std::uint8_t[]> unpack;
};

// The pairing state of this process's partitioned requests, and the
// internal tags its partitioned sends use.
class PartitionedPairing {
 public:
  // The sequence number of a new partitioned send (or receive) with `peer`
  // and `tag` on the communicator whose internal context is `context`.
  std::uint64_t next_sequence(bool send, std::uint32_t context, std::int32_t peer, std::int32_t tag) {
    return sequences_[Key{context, peer, tag, send ? 1U : 0U}]++;
  }

  // The first of `count` consecutive partition tag ids for messages to
  // world rank `peer`, or nothing when they have run out.
  std::optional<std::int32_t> reserve_tags(std::uint32_t peer, std::int32_t count) {
    std::int32_t& next = next_tag_[peer];
    if (count > kPartitionTagIds - next) return std::nullopt;
    next += count;
    return next - count;
  }

  // Setups that arrived before the receive they pair with looked for them.
  void file(std::uint32_t context, std::int32_t source, const SetupRecord& setup) {
    waiting_[Key{context, source, setup.tag, setup.sequence}] = setup;
  }
  std::optional<SetupRecord> take(std::uint32_t context, std::int32_t source, std::int32_t tag,
                                  std::uint64_t sequence);

 private:
  struct Key {
    std::uint32_t context;
    std::int32_t peer;
    std::int32_t tag;
    std::uint64_t last;  // direction (sequences_) or sequence number (waiting_)
    bool operator<(const Key& o) const noexcept {
      return std::tie(context, peer, tag, last) < std::tie(o.context, o.peer, o.tag, o.last);
    }
  };
  std::map<Key, std::uint64_t> sequences_;
  std::map<Key, SetupRecord> waiting_;
  std::map<std::uint32_t, std::int32_t> next_tag_;  // by world rank: ids from here on are unused
};

// Makes `r` an inactive partitioned request for `op` (filled in by the
// caller but for its pairing and buffers). MPI_SUCCESS, or MPI_ERR_INTERN
// raised by `call` when the internal tags have run out.
int init_partitioned(Context& context, MpiRequest& r, std::unique_ptr<PartitionedOp> op, const char* call);
// Starts the inactive partitioned request `r` (MPI_Start).
int start_partitioned(Context& context, MpiRequest& r, const char* call);
// Moves `r` on (pairs and posts a receive when it can) and tells whether
// it is complete; completion fills r.pml's status and sets r.pml.complete.
bool poll_partitioned(Context& context, MpiRequest& r) noexcept;
// Marks partitions `first` to `last` (checked to be in range) of the
// active send `r` ready and starts their message (one for them all). Stops
// at one marked already in this round: MPI_SUCCESS, or the error raised by
// `call` then.
int mark_ready(Context& context, MpiRequest& r, int first, int last, const char* call);
// Whether every byte of receive partition `partition` (checked to be in
// range) of the active receive `r` has arrived and is in place.
bool partition_arrived(Context& context, MpiRequest& r, int partition) noexcept;

}  // namespace shmpi::runtime
