// Pml, single-copy reads of rendezvous payloads out of the sender: at once,
// or deferred into a ReadBatch that progress() makes in one system call.
#include <array>
#include <cstring>

#include "pml/pml.hpp"

namespace shmpi::pml {

bool Pml::read_from(std::uint32_t peer, std::uint64_t address, void* into, std::size_t bytes) noexcept {
  if (bytes == 0) return true;
  if (peer == transport_.rank()) {
    std::memcpy(into, reinterpret_cast<const void*>(address), bytes);
    return true;
  }
  return single_copy_on() &&
         single_copy_->read(transport_.peer_pid(peer), address, into, bytes) == btl::CopyResult::Done;
}

void Pml::read_later(Request& request, std::uint32_t peer, std::size_t bytes) noexcept {
  if (reads_.full_for(peer)) flush_reads();
  reads_.add(peer, ReadBatch::Read{&request, request.remote_address, bytes});
}

// Makes the deferred reads, in one system call when there are several; if
// that one falls short, each again on its own (which tells each one's fate).
void Pml::flush_reads() noexcept {
  if (reads_.empty()) return;
  const std::uint32_t peer = reads_.peer();
  const std::span<const ReadBatch::Read> reads = reads_.take();
  bool all = false;
  if (reads.size() > 1) {
    std::array<btl::ReadPiece, btl::SingleCopy::kMaxPieces> pieces;
    for (std::size_t i = 0; i < reads.size(); ++i)
      pieces[i] = btl::ReadPiece{reads[i].address, reads[i].request->recv_buffer, reads[i].bytes};
    all = single_copy_on() &&
          single_copy_->read_pieces(transport_.peer_pid(peer), std::span(pieces.data(), reads.size())) ==
              btl::CopyResult::Done;
    if (all) reads_batched_ += reads.size();
    stats_.read_batch(all);
  }
  for (const ReadBatch::Read& read : reads)
    finish_read(*read.request, all || read_from(peer, read.address, read.request->recv_buffer, read.bytes));
}

}  // namespace shmpi::pml
