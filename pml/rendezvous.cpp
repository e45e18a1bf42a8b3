// Pml, rendezvous on the receiver's side: once an Rts matched a receive, the
// payload is copied out of the sender (single copy, large ones split with
// the sender) or streamed by the sender after our Cts; the RouteChooser
// picks between the two per epoch of one peer's messages (route_chooser.hpp).
// The sender's side of it is in send_path.cpp.
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include <cstring>

#include "btl/monotonic_ns.hpp"
#include "pml/pml.hpp"
#include "pml/request_ops.hpp"

namespace shmpi::pml {
namespace {

// A clock for timing route epochs, only ever compared with itself: the
// TSC on x86-64 (constant rate here). clock_gettime through kvm-clock cost
// ~60 ns when its page had gone cold, as it has after a 128 KiB copy: twice
// per message on the critical path, osu_latency 128 KiB took 0.15 us longer.
std::uint64_t ticks() noexcept {
#if defined(__x86_64__)
  return __rdtsc();
#else
  return btl::monotonic_ns();
#endif
}

}  // namespace

// A rendezvous message matched `request`: copy it out of the sender at once
// when single copy is permitted (large copies shared with the sender), else
// ask the sender to stream it.
void Pml::start_rendezvous(Request& request, std::uint32_t peer, std::uint64_t address, std::uint64_t cookie,
                           bool peer_can_write) noexcept {
  const std::size_t n = bytes_to_receive(request);
  request.remote_address = address;
  request.sender_cookie = cookie;
  request.source_world = peer;
  request.part_failed = false;
  request.awaiting_peer = false;
  request.in_epoch = false;
  if (n == 0) [[unlikely]] {
    // Nothing to copy (an empty message, or a receive of none of it, which
    // a truncation then reports): no read, no stream, just the Fin.
    request.sender_cookie = cookie & ~kRunsCookie;
    finish_read(request, true);
    return;
  }
  if (request.layout != nullptr || (cookie & kRunsCookie) != 0) [[unlikely]] {
    request.sender_cookie = cookie & ~kRunsCookie;
    start_run_rendezvous(request, peer, (cookie & kRunsCookie) != 0, peer_can_write);
    return;
  }
  const bool cross_process = peer != transport_.rank() && single_copy_on();  // CMA can reach the sender
  // An offer below the threshold came because we were backlogged: it says
  // nothing of the routes, and its small copy is read (batched if it can).
  if (routes_.enabled() && cross_process && request.status.sent_bytes >= limits_.rndv_threshold) {
    if (rndv_offers_out_[peer] != 0) {
      // Both ways at once (osu_bibw): the peer is busy copying our messages,
      // so a stream would wait for it (a tried one cost a whole window),
      // and with both cores copying, one copy beats two. Single copy, and
      // an epoch in progress no longer times one route alone.
      epochs_[peer].clean = false;
    } else if (join_epoch(request, peer, n) == Route::Stream) {
      stream_rendezvous(request);
      return;
    }
  }
  if (shares_copy(request, peer, peer_can_write, n)) {
    start_split(request, n);
    return;
  }
  // Batch only where more are likely to come: while other receives are
  // posted (a window of osu_bw), or a batch is open. A lone ping-pong
  // message read at once ran 5-10% faster at 8-32 KiB than one deferred to
  // the end of the round of progress.
  if (cross_process && n != 0 && n < kBatchedReadMax && (!reads_.empty() || !posted_.empty())) {
    read_later(request, peer, n);
    return;
  }
  finish_read(request, read_from(peer, address, request.recv_buffer, n));
}

// The read of a rendezvous message is over: finish it, or (the copy
// failed) have the sender stream it.
void Pml::finish_read(Request& request, bool done) noexcept {
  if (done) {
    stats_.count(Protocol::SingleCopy, request.status.sent_bytes);
    finish_rendezvous(request);
  } else {
    spoil_epoch(request);
    stream_rendezvous(request);
  }
}

// Asks the sender to write the second half while we read the first.
void Pml::start_split(Request& request, std::size_t bytes) noexcept {
  const std::size_t half = (bytes / 2) & ~std::size_t{4095};  // page-aligned split point
  const std::uint32_t peer = request.source_world;
  send_control(ControlRecord::with(peer, RecordKind::Split,
                                   SplitOffer{request.sender_cookie, cookie_of(request),
                                              reinterpret_cast<std::uintptr_t>(request.recv_buffer + half), half,
                                              bytes - half}));
  request.awaiting_peer = true;
  request.run_split = false;
  request.part_failed = !read_from(peer, request.remote_address, request.recv_buffer, half);
}

// The sender wrote its part of a split copy (or could not).
void Pml::on_split_done(const MatchHeader& header) noexcept {
  Request& request = request_of(header.length);
  request.awaiting_peer = false;
  if ((header.flags & kRefused) != 0 || request.part_failed) {
    // Rare: some part could not be copied. Copy all of it ourselves, or stream it.
    spoil_epoch(request);
    if (request.run_split) {
      stream_rendezvous(request);  // the sender packs it: its copy failed, ours may have too
      return;
    }
    if (!read_from(request.source_world, request.remote_address, request.recv_buffer, bytes_to_receive(request))) {
      stream_rendezvous(request);
      return;
    }
  }
  stats_.count(Protocol::Split, request.status.sent_bytes);
  if (request.run_split) ++run_copies_;
  finish_rendezvous(request);
}

void Pml::finish_rendezvous(Request& request) noexcept {
  finish_receive(request);
  ControlRecord fin{request.source_world, RecordKind::Fin};
  fin.cookie = request.sender_cookie;
  send_control(fin);
  leave_epoch(request);  // after the Fin: the sender waits for it
}

void Pml::stream_rendezvous(Request& request) noexcept {
  stats_.count(Protocol::Streamed, request.status.sent_bytes);
  request.received = 0;
  send_control(ControlRecord::with(request.source_world, RecordKind::Cts,
                                   RendezvousReply{request.sender_cookie, cookie_of(request)}));
}

void Pml::on_rndv_fragment(const MatchHeader& header, std::span<const std::byte> payload) noexcept {
  Request& request = request_of(header.length);
  copy_into(request, request.received, payload);
  request.received += payload.size();
  if (request.received >= request.status.sent_bytes) {
    finish_receive(request);
    leave_epoch(request);
  }
}

// A rendezvous from `peer` starts: it joins the peer's epoch, opening one
// (and choosing its route) if none is in progress. Returns its route.
Route Pml::join_epoch(Request& request, std::uint32_t peer, std::uint64_t bytes) noexcept {
  RouteEpoch& epoch = epochs_[peer];
  const bool chosen = routes_.chooses(bytes);
  if (epoch.in_flight == 0) {
    epoch = RouteEpoch{};
    epoch.started = ticks();
    epoch.route = chosen ? routes_.choose() : Route::SingleCopy;
    epoch.clean = chosen;
  }
  ++epoch.in_flight;
  ++epoch.messages;
  epoch.bytes += bytes;
  request.in_epoch = true;
  if (!chosen) {
    epoch.clean = false;  // another size: the epoch says nothing of the chosen ones
    return Route::SingleCopy;
  }
  ++routes_taken_[static_cast<std::size_t>(epoch.route)];
  return epoch.route;
}

// A rendezvous ended; the last one of an epoch tells the RouteChooser what
// the epoch cost.
void Pml::leave_epoch(Request& request) noexcept {
  if (!request.in_epoch) return;
  request.in_epoch = false;
  RouteEpoch& epoch = epochs_[request.source_world];
  if (--epoch.in_flight != 0 || !epoch.clean) return;
  routes_.record(epoch.route, epoch.bytes, epoch.messages, ticks() - epoch.started);
  ++epochs_recorded_;
}

// A rendezvous left its route (a single copy failed): its epoch's time says
// nothing of either route.
void Pml::spoil_epoch(const Request& request) noexcept {
  if (request.in_epoch) epochs_[request.source_world].clean = false;
}

}  // namespace shmpi::pml
