#include "runtime/partitioned.hpp"

#include <algorithm>
#include <string>

#include "runtime/api.hpp"
#include "runtime/packing.hpp"
#include "runtime/request_table.hpp"

namespace shmpi::runtime {

std::optional<SetupRecord> PartitionedPairing::take(std::uint32_t context, std::int32_t source, std::int32_t tag,
                                                    std::uint64_t sequence) {
  auto it = waiting_.find(Key{context, source, tag, sequence});
  if (it == waiting_.end()) return std::nullopt;
  const SetupRecord setup = it->second;
  waiting_.erase(it);
  return setup;
}

namespace {

pml::Envelope partition_envelope(const PartitionedOp& op, std::int32_t source, std::int32_t index) noexcept {
  return pml::Envelope{op.internal_context, source, partition_tag(op.setup.tag_base + index)};
}

// Receive: takes every setup from our peer that has arrived, files it, and
// pairs with ours if it is among them.
bool try_pair(Context& context, PartitionedOp& op) {
  PartitionedPairing& pairing = context.partitioned_pairing();
  std::optional<SetupRecord> mine = pairing.take(op.internal_context, op.peer, op.tag, op.sequence);
  pml::ProbeResult found;
  while (!mine) {
    pml::Unexpected* message =
        context.pml().take_message(pml::Envelope{op.internal_context, op.peer, kSetupTag}, found);
    if (message == nullptr) return false;
    SetupRecord setup;
    pml::Request receive{};
    context.pml().start_mrecv(receive, *message, &setup, sizeof setup);
    context.pml().wait(receive);  // one eager record: already here
    if (setup.tag == op.tag && setup.sequence == op.sequence) {
      mine = setup;
    } else {
      pairing.file(op.internal_context, op.peer, setup);
    }
  }
  op.setup = *mine;
  op.part_count = mine->partitions;
  op.parts = std::make_unique<pml::Request[]>(static_cast<std::size_t>(op.part_count));
  if (op.type) {
    const auto parts = static_cast<std::size_t>(op.part_count);
    op.runs = std::make_unique<pml::RunLayout[]>(parts);
    op.unpack = std::make_unique<std::uint8_t[]>(parts);
    // Messages start inside our elements only if a send partition's bytes
    // are not a whole number of them.
    if (!context.pml().moves_runs() || op.setup.partition_bytes % static_cast<std::uint64_t>(op.type->size()) != 0)
      op.staging = std::make_unique<std::byte[]>(static_cast<std::size_t>(op.partitions) * op.partition_bytes);
  }
  op.paired = true;
  return true;
}

// The runs of `elements` elements of `op`'s type from element `first` on.
pml::RunLayout runs_from(const PartitionedOp& op, std::uint64_t first, std::uint64_t elements) noexcept {
  const datatype::Type& type = *op.type;
  return pml::describe_runs(type.program(), elements, type.extent(),
                            op.buffer + static_cast<std::int64_t>(first) * type.extent());
}

// Receive with a type: posts part i's receive of `room` bytes at stream
// offset `offset`, into our elements' runs where its bytes start on an
// element's boundary, else into the packed copy (unpacked by settle()).
void post_typed_receive(Context& context, PartitionedOp& op, std::int32_t i, std::uint64_t offset, std::uint64_t room) {
  const pml::Envelope want = partition_envelope(op, op.peer, i);
  const std::uint64_t each = op.setup.partition_bytes;
  const auto size = static_cast<std::uint64_t>(op.type->size());
  op.unpack[i] = 0;
  if (room == 0) {  // beyond our buffer: whatever comes is truncated
    context.pml().start_spanned_recv(op.parts[i], want, op.buffer, 0, each);
  } else if (op.staging == nullptr || (context.pml().moves_runs() && offset % size == 0)) {
    const std::uint64_t first = offset / size;
    op.runs[i] = runs_from(op, first, static_cast<std::uint64_t>(op.partitions) * op.count - first);
    context.pml().start_spanned_recv(op.parts[i], want, op.buffer, room, each, &op.runs[i]);
  } else {
    op.unpack[i] = 1;
    context.pml().start_spanned_recv(op.parts[i], want, op.staging.get() + offset, room, each);
  }
}

// Receive: whether part i (the first its message fills) has completed; a
// message received into the packed copy is unpacked into our elements
// first, once.
bool settle(PartitionedOp& op, std::int32_t i) noexcept {
  const pml::Request& part = op.parts[i];
  if (!part.complete) return false;
  if (op.unpack != nullptr && op.unpack[i] != 0) {
    op.unpack[i] = 0;
    const std::uint64_t offset = static_cast<std::uint64_t>(i) * op.setup.partition_bytes;
    const std::uint64_t bytes = std::min<std::uint64_t>(part.status.bytes, part.capacity);
    const std::uint64_t elements = static_cast<std::uint64_t>(op.partitions) * op.count;
    pml::scatter_into(runs_from(op, 0, elements), offset + bytes, offset,
                      std::span<const std::byte>(op.staging.get() + offset, bytes));
  }
  return true;
}

// Receive: the part after parts[i] and the ones its message also filled.
std::int32_t next_part(const PartitionedOp& op, std::int32_t i) noexcept {
  return i + 1 + static_cast<std::int32_t>(op.parts[i].spanned);
}

// Receive: posts this round's receive of every send partition, each at its
// place in our buffer with room to its end (truncated where our buffer ends
// first): a message may span that partition and the ones after it (a
// sender's Pready_range). A receive that takes such a message at once
// (it came before this round was posted) fills the next `spanned` parts,
// which are not posted.
void post_receives(Context& context, PartitionedOp& op) {
  const std::uint64_t capacity = static_cast<std::uint64_t>(op.partitions) * op.partition_bytes;
  const std::uint64_t each = op.setup.partition_bytes;
  for (std::int32_t i = 0; i < op.part_count; i = next_part(op, i)) {
    const std::uint64_t offset = static_cast<std::uint64_t>(i) * each;
    const std::uint64_t to_end = each * static_cast<std::uint64_t>(op.part_count - i);
    const std::uint64_t room = offset >= capacity ? 0 : std::min(to_end, capacity - offset);
    if (op.type) {
      post_typed_receive(context, op, i, offset, room);
      continue;
    }
    std::byte* at = room == 0 ? op.buffer : op.buffer + offset;
    context.pml().start_spanned_recv(op.parts[i], partition_envelope(op, op.peer, i), at, room, each);
  }
  op.posted = true;
}

// Send with a type: where the message of partitions [first, end) comes
// from. Their runs (nullptr for a contiguous type, or when packed into the
// copy at `bytes`, which is then where it comes from; else `bytes` is unused).
const pml::RunLayout* typed_source(PartitionedOp& op, std::int32_t first, std::int32_t end, std::byte*& bytes) {
  if (!op.type) return nullptr;
  const auto elements = static_cast<std::uint64_t>(end - first) * op.count;
  const pml::RunLayout runs = runs_from(op, static_cast<std::uint64_t>(first) * op.count, elements);
  if (op.staging == nullptr) {
    op.runs[first] = runs;
    return &op.runs[first];
  }
  bytes = op.staging.get() + static_cast<std::size_t>(first) * op.partition_bytes;
  pack_elements(*op.type, elements, reinterpret_cast<const void*>(static_cast<std::uintptr_t>(runs.origin)), bytes);
  return nullptr;
}

// Send: starts the messages of send partitions [first, end), marked ready
// by this caller: one message for them all when the peer takes spans.
void send_ready(Context& context, MpiRequest& r, std::int32_t first, std::int32_t end) {
  PartitionedOp& op = *r.partitioned;
  if (first == end || r.proc_null) return;
  pml::Pml& pml = context.pml();
  const bool spans = end - first > 1 && op.partition_bytes != 0 && pml.spans_to(op.world_peer);
  if (spans) {
    std::byte* from = op.buffer + static_cast<std::size_t>(first) * op.partition_bytes;
    const pml::RunLayout* runs = typed_source(op, first, end, from);
    pml.start_spanning_send(op.parts[first], op.world_peer, partition_envelope(op, op.self, first), from,
                            static_cast<std::size_t>(end - first) * op.partition_bytes, runs);
    for (std::int32_t i = first + 1; i < end; ++i) op.parts[i].complete = true;
  } else {
    for (std::int32_t i = first; i < end; ++i) {
      std::byte* from = op.buffer + static_cast<std::size_t>(i) * op.partition_bytes;
      const pml::RunLayout* runs = typed_source(op, i, i + 1, from);
      pml.start_send(op.parts[i], op.world_peer, partition_envelope(op, op.self, i), from, op.partition_bytes,
                     pml::SendMode::Standard, runs);
    }
  }
  // Sent whole (the last message is, if any is), it may end another
  // thread's MPI_Wait on this request.
  if (op.parts[spans ? first : end - 1].complete) pml.count_move();
}

// Every part has completed: the request's status and completion.
void finish(MpiRequest& r, PartitionedOp& op) noexcept {
  pml::Status status{};
  status.source = op.send ? -1 : op.peer;
  status.tag = op.send ? -1 : op.tag;
  for (std::int32_t i = 0; !op.send && i < op.part_count; i = next_part(op, i)) {
    const pml::Status& part = op.parts[i].status;
    status.bytes += part.bytes;
    status.sent_bytes += part.sent_bytes;
    if (part.result != pml::Completion::Ok) status.result = part.result;
  }
  r.pml.status = status;
  r.pml.complete = true;
}

}  // namespace

int init_partitioned(Context& context, MpiRequest& r, std::unique_ptr<PartitionedOp> op, const char* call) {
  PartitionedPairing& pairing = context.partitioned_pairing();
  if (op->send) op->ready = std::make_unique<std::atomic<std::uint8_t>[]>(static_cast<std::size_t>(op->partitions));
  if (op->send && op->peer >= 0) {
    auto first = pairing.reserve_tags(op->world_peer, op->partitions);
    if (!first)
      return raise_error(context, context.communicator(r.comm), call, MPI_ERR_INTERN,
                         "out of internal tags for " + std::to_string(op->partitions) +
                             " more partitions to rank " + std::to_string(op->peer) +
                             " (each partitioned send to a rank takes its own for the job's lifetime)");
    op->setup = SetupRecord{op->tag, op->partitions, 0, op->partition_bytes, *first, 0};
    op->parts = std::make_unique<pml::Request[]>(static_cast<std::size_t>(op->partitions));
    op->part_count = op->partitions;
    if (op->type) {
      op->runs = std::make_unique<pml::RunLayout[]>(static_cast<std::size_t>(op->partitions));
      if (!context.pml().moves_runs())
        op->staging = std::make_unique<std::byte[]>(static_cast<std::size_t>(op->partitions) * op->partition_bytes);
    }
  }
  if (op->peer >= 0) op->sequence = pairing.next_sequence(op->send, op->internal_context, op->peer, op->tag);
  op->setup.sequence = op->sequence;
  op->setup_send.complete = true;
  r.life = RequestLife::Partitioned;
  r.inactive = true;
  r.pml.complete = true;
  r.partitioned = std::move(op);
  return MPI_SUCCESS;
}

int start_partitioned(Context& context, MpiRequest& r, const char* /*call*/) {
  PartitionedOp& op = *r.partitioned;
  r.inactive = false;
  r.pml.complete = false;
  op.settled = 0;
  op.posted = false;
  if (r.proc_null) {  // nothing travels; MPI_Pready and MPI_Parrived still work
    for (std::int32_t i = 0; op.send && i < op.partitions; ++i) op.ready[i].store(0, std::memory_order_relaxed);
    finish(r, op);
    return MPI_SUCCESS;
  }
  if (op.send) {
    for (std::int32_t i = 0; i < op.part_count; ++i) {
      op.parts[i].complete = false;  // before the marks are cleared: a poll never sees last round's completion
      op.ready[i].store(0, std::memory_order_release);
    }
    if (!op.paired) {
      context.pml().start_send(op.setup_send, op.world_peer, pml::Envelope{op.internal_context, op.self, kSetupTag},
                               &op.setup, sizeof op.setup);
      op.paired = true;
    }
    return MPI_SUCCESS;
  }
  poll_partitioned(context, r);  // posts the receives now if the setup is here
  return MPI_SUCCESS;
}

bool poll_partitioned(Context& context, MpiRequest& r) noexcept {
  if (r.pml.complete) return true;
  PartitionedOp& op = *r.partitioned;
  if (op.send) {
    if (!op.setup_send.complete) return false;  // its buffer is ours until it has gone
    while (op.settled < op.part_count && op.ready[op.settled].load(std::memory_order_acquire) != 0 &&
           op.parts[op.settled].complete)
      ++op.settled;
  } else {
    if (!op.posted) {
      if (!op.paired && !try_pair(context, op)) return false;
      post_receives(context, op);
    }
    while (op.settled < op.part_count && settle(op, op.settled)) op.settled = next_part(op, op.settled);
  }
  if (op.settled < op.part_count) return false;
  finish(r, op);
  return true;
}

int mark_ready(Context& context, MpiRequest& r, int first, int last, const char* call) {
  PartitionedOp& op = *r.partitioned;
  int end = first;
  while (end <= last && op.ready[end].exchange(1, std::memory_order_acq_rel) == 0) ++end;
  send_ready(context, r, first, end);
  if (end > last) return MPI_SUCCESS;
  return raise_error(context, context.communicator(r.comm), call, MPI_ERR_ARG,
                     "partition " + std::to_string(end) + " of request " + std::to_string(r.handle) +
                         " is already marked ready in this round");
}

bool partition_arrived(Context& context, MpiRequest& r, int partition) noexcept {
  if (r.proc_null || poll_partitioned(context, r)) return true;
  PartitionedOp& op = *r.partitioned;
  if (!op.posted) return false;
  // The send partitions covering our bytes [first, last).
  const std::uint64_t first = static_cast<std::uint64_t>(partition) * op.partition_bytes;
  const std::uint64_t last = first + op.partition_bytes;
  const std::uint64_t each = op.setup.partition_bytes;
  std::int32_t lo = 0;
  std::int32_t hi = op.part_count;  // one past
  if (each != 0 && last > first) {
    lo = static_cast<std::int32_t>(std::min<std::uint64_t>(first / each, op.part_count));
    hi = static_cast<std::int32_t>(std::min<std::uint64_t>((last - 1) / each + 1, op.part_count));
  } else if (last == first) {
    return true;  // an empty partition has nothing to wait for
  }
  for (int attempt = 0; attempt < 2; ++attempt) {
    bool all = true;
    // Walks the messages' receives: parts a message spanned are not among them.
    for (std::int32_t i = op.settled; i < hi && all; i = next_part(op, i))
      all = next_part(op, i) <= lo || settle(op, i);
    if (all) return true;
    if (attempt == 0) context.pml().progress();
  }
  return false;
}

}  // namespace shmpi::runtime
