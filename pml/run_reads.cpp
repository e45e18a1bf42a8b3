// Pml, rendezvous messages with a RunLayout on either side (run_layout.hpp):
// the receiver copies the sender's runs into its own in one single copy,
// one system call per batch of up to 1024 runs a side, never packing. The
// route chooser, read batching and split copies are for contiguous
// messages; these take none of them. If the copy cannot be made the sender
// streams the message (it packs fragment by fragment, we unpack each).
#include <algorithm>
#include <memory>

#include "datatype/run_pairs.hpp"
#include "pml/pml.hpp"
#include "pml/request_ops.hpp"

namespace shmpi::pml {
namespace {

// One side of the copy: a program and where its runs start.
struct Side {
  datatype::Program program;  // a copy of the sender's, or one run
  const datatype::Program* layout = nullptr;
  std::uint64_t count = 1;
  std::int64_t extent = 0;
  std::uint64_t origin = 0;
};

// A contiguous buffer of `bytes` at `origin` as a one-run program.
void one_run(Side& side, std::uint64_t origin, std::uint64_t bytes) {
  side.program.ops = {datatype::Op{0, 0, 1, bytes, 0, false}};
  side.program.size = bytes;
  side.layout = &side.program;
  side.count = 1;
  side.extent = static_cast<std::int64_t>(bytes);
  side.origin = origin;
}

void runs_of(Side& side, const RunLayout& layout) noexcept {
  side.layout = layout.program;
  side.count = layout.count;
  side.extent = layout.extent;
  side.origin = layout.origin;
}

}  // namespace

void Pml::start_run_rendezvous(Request& request, std::uint32_t peer, bool sender_runs) noexcept {
  if (read_runs(request, peer, sender_runs)) {
    stats_.count(Protocol::SingleCopy, request.status.sent_bytes);
    ++run_copies_;
    finish_rendezvous(request);
  } else {
    stream_rendezvous(request);
  }
}

// `bytes` at `address` of `peer` (ourselves included) into `into`.
bool Pml::fetch(std::uint32_t peer, std::uint64_t address, void* into, std::size_t bytes) noexcept {
  if (peer == transport_.rank()) {
    std::memcpy(into, reinterpret_cast<const void*>(static_cast<std::uintptr_t>(address)), bytes);
    return true;
  }
  return single_copy_->read(transport_.peer_pid(peer), address, into, bytes) == btl::CopyResult::Done;
}

// Copies the matched message of `request` out of `peer`: request.remote_address
// is the sender's buffer, or (sender_runs) its published RunLayout.
bool Pml::read_runs(Request& request, std::uint32_t peer, bool sender_runs) noexcept {
  const std::uint64_t n = bytes_to_receive(request);
  if (n == 0) return true;
  const bool self = peer == transport_.rank();
  if (!self && !single_copy_on()) return false;
  Side theirs, mine;
  if (sender_runs) {
    RunLayout published;
    if (!fetch(peer, request.remote_address, &published, sizeof published)) return false;
    if (published.op_count == 0 || published.op_count > kMaxPublishedOps ||
        published.count * published.size != request.status.sent_bytes)
      return false;  // not a layout we can walk: have it streamed
    theirs.program.ops.resize(published.op_count);
    if (!fetch(peer, published.ops, theirs.program.ops.data(), published.op_count * sizeof(datatype::Op)))
      return false;
    theirs.program.size = published.size;
    theirs.program.depth = published.depth;
    published.program = &theirs.program;
    runs_of(theirs, published);
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
  if (!self && std::min(datatype::mean_run(*mine.layout), datatype::mean_run(*theirs.layout)) < limits_.run_copy_min)
    return false;
  datatype::Cursor local(*mine.layout, mine.count, mine.extent);
  datatype::Cursor remote(*theirs.layout, theirs.count, theirs.extent);
  const auto pairs = std::make_unique<datatype::RunPairs>();  // 32 KiB: not on a user thread's stack
  auto* origin = reinterpret_cast<void*>(static_cast<std::uintptr_t>(mine.origin));
  while (local.position() < n) {
    const std::uint64_t max = std::min<std::uint64_t>(n - local.position(), btl::SingleCopy::kMaxChunkBytes);
    if (datatype::next_run_pairs(local, origin, remote, theirs.origin, max, *pairs) == 0) return false;
    if (self) {
      datatype::copy_run_pairs(*pairs);
      continue;
    }
    if (single_copy_->read_runs(transport_.peer_pid(peer), std::span(pairs->local.data(), pairs->local_count),
                                std::span(pairs->remote.data(), pairs->remote_count),
                                pairs->bytes) != btl::CopyResult::Done)
      return false;
  }
  return true;
}

}  // namespace shmpi::pml
