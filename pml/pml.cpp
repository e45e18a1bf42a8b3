// Pml: construction, progress and cancellation; the send side is in
// send_path.cpp, the receive side in receive_path.cpp, rendezvous.cpp and
// single_copy_reads.cpp.
#include <utility>

#include "pml/pml.hpp"

namespace shmpi::pml {

Pml::Pml(btl::Transport& transport, const ProtocolLimits& limits, const WaitPolicy& wait,
         btl::SingleCopy* single_copy)
    : transport_(transport),
      limits_(limits),
      wait_(wait),
      single_copy_(single_copy),
      incoming_(transport.size()),
      send_queues_(transport.size()),
      routes_(limits.choose_route ? limits.rndv_threshold : 0),
      epochs_(transport.size()),
      rndv_offers_out_(transport.size()),
      sent_since_heard_(transport.size(), 0),
      sequence_out_(transport.size(), 0),
      sequence_in_(transport.size(), 0),
      stats_(transport.size()),
      remote_(transport.size(), 0) {
  if (limits.unexpected_budget == 0) set_backlog(true);
}

void Pml::set_backlog(bool on) noexcept {
  backlog_ = on;
  backlogs_raised_ += on ? 1 : 0;
  transport_.set_backlog(on);
}

bool Pml::cancel(Request& request) noexcept {
  // A send that has left may be complete already (eager): ask the receiver.
  if (request.kind == RequestKind::Send && request.started) return withdraw(request);
  if (request.complete) return false;
  if (request.kind == RequestKind::Recv) {
    if (!posted_.cancel(request)) return false;
  } else {
    SendQueue& queue = send_queues_[request.dest];
    Request* before = nullptr;
    Request* at = queue.head;
    while (at != nullptr && at != &request) before = std::exchange(at, at->next_send);
    if (at == nullptr) return false;
    (before != nullptr ? before->next_send : queue.head) = request.next_send;
    if (queue.tail == &request) queue.tail = before;
    --queued_sends_;
  }
  request.status.cancelled = true;
  request.complete = true;
  ++moves_;  // another thread may wait for it
  return true;
}

bool Pml::progress() noexcept {
  bool moved = transport_.poll([this](std::uint32_t peer, std::span<const std::byte> body) {
                 on_record(peer, body);
               }) != 0;
  flush_reads();
  if (network_ != nullptr && progress_network()) moved = true;
  if (!controls_.empty()) flush_controls();
  if (queued_sends_ != 0) {
    const std::uint32_t before = queued_sends_;
    for (std::uint32_t peer = 0; peer < transport_.size(); ++peer)
      if (send_queues_[peer].head != nullptr) push_queued(peer);
    moved = moved || queued_sends_ != before;
  }
  moves_ += moved ? 1 : 0;
  return moved;
}

}  // namespace shmpi::pml
