// Pml, rendezvous messages with a RunLayout on either side (run_layout.hpp):
// the receiver copies the sender's runs into its own in one single copy,
// one system call per batch of up to 1024 runs a side, never packing. A
// large one is split with the sender as a contiguous copy is: we read the
// first half of the stream, the sender writes the second half run to run
// (write_run_part). The route chooser and read batching are for contiguous
// messages only. If the copy cannot be made the sender streams the message
// (it packs fragment by fragment, we unpack each).
#include <algorithm>
#include <memory>

#include "datatype/run_pairs.hpp"
#include "pml/pml.hpp"
#include "pml/request_ops.hpp"

namespace shmpi::pml {
namespace {

// A contiguous buffer of `bytes` at `origin` as a one-run program.
void one_run(RunSide& side, std::uint64_t origin, std::uint64_t bytes) {
  side.program.ops = {datatype::Op{0, 0, 1, bytes, 0, false}};
  side.program.size = bytes;
  side.layout = &side.program;
  side.count = 1;
  side.extent = static_cast<std::int64_t>(bytes);
  side.origin = origin;
}

void runs_of(RunSide& side, const RunLayout& layout) noexcept {
  side.layout = layout.program;
  side.count = layout.count;
  side.extent = layout.extent;
  side.origin = layout.origin;
}

}  // namespace

void Pml::start_run_rendezvous(Request& request, std::uint32_t peer, bool sender_runs, bool peer_can_write) noexcept {
  const std::uint64_t n = bytes_to_receive(request);
  RunSide mine, theirs;
  if (!run_sides(request, peer, sender_runs, mine, theirs)) {
    stream_rendezvous(request);
    return;
  }
  if (shares_copy(request, peer, peer_can_write, n)) {
    start_run_split(request, peer, mine, theirs, n);
    return;
  }
  if (copy_runs(peer, mine, theirs, 0, n, RunCopy::FromPeer)) {
    stats_.count(Protocol::SingleCopy, request.status.sent_bytes);
    ++run_copies_;
    finish_rendezvous(request);
  } else {
    stream_rendezvous(request);
  }
}

// Asks the sender to write the second half of the stream while we read the
// first. The offer names our RunLayout (kRunsLayout) or, for a contiguous
// receive, our buffer at the split point, as a contiguous split does.
void Pml::start_run_split(Request& request, std::uint32_t peer, RunSide& mine, RunSide& theirs,
                          std::uint64_t bytes) noexcept {
  const std::uint64_t half = (bytes / 2) & ~std::uint64_t{4095};
  const std::uint64_t address = request.layout != nullptr
                                    ? reinterpret_cast<std::uintptr_t>(request.layout)
                                    : reinterpret_cast<std::uintptr_t>(request.recv_buffer + half);
  ControlRecord offer = ControlRecord::with(
      peer, RecordKind::Split, SplitOffer{request.sender_cookie, cookie_of(request), address, half, bytes - half});
  offer.flags = request.layout != nullptr ? kRunsLayout : std::uint8_t{0};
  send_control(offer);
  request.awaiting_peer = true;
  request.run_split = true;
  request.part_failed = !copy_runs(peer, mine, theirs, 0, half, RunCopy::FromPeer);
}

// `bytes` at `address` of `peer` (ourselves included) into `into`.
bool Pml::fetch(std::uint32_t peer, std::uint64_t address, void* into, std::size_t bytes) noexcept {
  if (peer == transport_.rank()) {
    std::memcpy(into, reinterpret_cast<const void*>(static_cast<std::uintptr_t>(address)), bytes);
    return true;
  }
  return single_copy_->read(transport_.peer_pid(peer), address, into, bytes) == btl::CopyResult::Done;
}

// The RunLayout `peer` published at `address`, with a copy of its ops, as `side`.
bool Pml::fetch_runs(std::uint32_t peer, std::uint64_t address, RunSide& side) noexcept {
  RunLayout published;
  if (!fetch(peer, address, &published, sizeof published)) return false;
  if (published.op_count == 0 || published.op_count > kMaxPublishedOps) return false;  // not a layout we can walk
  side.program.ops.resize(published.op_count);
  if (!fetch(peer, published.ops, side.program.ops.data(), published.op_count * sizeof(datatype::Op))) return false;
  side.program.size = published.size;
  side.program.depth = published.depth;
  published.program = &side.program;
  runs_of(side, published);
  return true;
}

// Both sides of the copy of `request`'s message from `peer`:
// request.remote_address is the sender's buffer, or (sender_runs) its
// published RunLayout. False when the message must be streamed instead.
bool Pml::run_sides(Request& request, std::uint32_t peer, bool sender_runs, RunSide& mine, RunSide& theirs) noexcept {
  const std::uint64_t n = bytes_to_receive(request);
  const bool self = peer == transport_.rank();
  if (!self && !single_copy_on()) return false;
  if (sender_runs) {
    if (!fetch_runs(peer, request.remote_address, theirs)) return false;
    if (theirs.count * theirs.program.size != request.status.sent_bytes) return false;
  } else {
    one_run(theirs, request.remote_address, n);
  }
  if (request.layout != nullptr) {
    runs_of(mine, *request.layout);
  } else {
    one_run(mine, reinterpret_cast<std::uintptr_t>(request.recv_buffer), n);
  }
  // Short runs are streamed (packed by the sender, unpacked by us): a
  // single copy walks the pages of every run (docs/tunables/run_copy_min.md).
  return self || std::min(datatype::mean_run(*mine.layout), datatype::mean_run(*theirs.layout)) >= limits_.run_copy_min;
}

// Copies bytes [from, to) of the stream between our runs and the peer's,
// one way. A copy to ourselves (a message to self) is only ever FromPeer.
bool Pml::copy_runs(std::uint32_t peer, RunSide& mine, RunSide& theirs, std::uint64_t from, std::uint64_t to,
                    RunCopy way) noexcept {
  if (from >= to) return true;
  datatype::Cursor local(*mine.layout, mine.count, mine.extent);
  datatype::Cursor remote(*theirs.layout, theirs.count, theirs.extent);
  local.seek(from);
  remote.seek(from);
  const auto pairs = std::make_unique<datatype::RunPairs>();  // 32 KiB: not on a user thread's stack
  auto* origin = reinterpret_cast<void*>(static_cast<std::uintptr_t>(mine.origin));
  const pid_t pid = transport_.peer_pid(peer);
  while (local.position() < to) {
    const std::uint64_t max = std::min<std::uint64_t>(to - local.position(), btl::SingleCopy::kMaxChunkBytes);
    if (datatype::next_run_pairs(local, origin, remote, theirs.origin, max, *pairs) == 0) return false;
    if (peer == transport_.rank()) {
      datatype::copy_run_pairs(*pairs);
      continue;
    }
    const std::span local_runs(pairs->local.data(), pairs->local_count);
    const std::span remote_runs(pairs->remote.data(), pairs->remote_count);
    const btl::CopyResult result = way == RunCopy::FromPeer
                                       ? single_copy_->read_runs(pid, local_runs, remote_runs, pairs->bytes)
                                       : single_copy_->write_runs(pid, local_runs, remote_runs, pairs->bytes);
    if (result != btl::CopyResult::Done) return false;
  }
  return true;
}

// The sender's part of a split copy with runs on either side: bytes
// [offer.offset, offer.offset + offer.bytes) of the stream, from our runs
// (or buffer) into the receiver's runs (kRunsLayout: offer.address is its
// RunLayout) or its buffer (offer.address is the buffer at offer.offset).
bool Pml::write_run_part(const Request& request, std::uint32_t peer, const SplitOffer& offer,
                         bool receiver_runs) noexcept {
  if (!single_copy_on()) return false;
  const std::uint64_t end = offer.offset + offer.bytes;
  RunSide mine, theirs;
  if (request.layout != nullptr) {
    runs_of(mine, *request.layout);
  } else {
    one_run(mine, reinterpret_cast<std::uintptr_t>(request.send_buffer), end);
  }
  if (receiver_runs) {
    if (!fetch_runs(peer, offer.address, theirs) || theirs.count * theirs.program.size < end) return false;
  } else {
    one_run(theirs, offer.address - offer.offset, end);
  }
  return copy_runs(peer, mine, theirs, offer.offset, end, RunCopy::ToPeer);
}

}  // namespace shmpi::pml
