// Pml, receive side: matching arriving records, buffering unexpected
// messages, rendezvous (single copy or streamed), probes.
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include <algorithm>
#include <cstring>

#include "btl/monotonic_ns.hpp"
#include "btl/small_copy.hpp"
#include "pml/pml.hpp"

namespace shmpi::pml {
namespace {

void finish(Request& request) noexcept {
  const std::uint64_t sent = request.status.sent_bytes;
  request.status.bytes = std::min<std::uint64_t>(sent, request.capacity);
  request.status.result = sent > request.capacity ? Completion::Truncated : Completion::Ok;
  request.complete = true;
}

// Copies `payload`, which belongs at message offset `offset`, into the part
// of the receive buffer that exists (a truncated receive keeps its prefix).
void copy_into(Request& request, std::uint64_t offset, std::span<const std::byte> payload) noexcept {
  if (offset >= request.capacity || payload.empty()) return;
  const std::size_t n = std::min<std::size_t>(payload.size(), request.capacity - offset);
  std::memcpy(request.recv_buffer + offset, payload.data(), n);
}

void describe(Request& request, const Envelope& envelope, std::uint64_t length) noexcept {
  request.status.source = envelope.source;
  request.status.tag = envelope.tag;
  request.status.sent_bytes = length;
}

// A receive request, not yet complete, into `buffer` of `capacity` bytes.
void set_up_receive(Request& request, void* buffer, std::size_t capacity) noexcept {
  request.kind = RequestKind::Recv;
  request.complete = false;
  request.recv_buffer = static_cast<std::byte*>(buffer);
  request.capacity = capacity;
  request.received = 0;
  request.status = Status{};
}

Request& request_of(std::uint64_t cookie) noexcept { return *reinterpret_cast<Request*>(cookie); }

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

void Pml::start_recv(Request& request, const Envelope& want, void* buffer, std::size_t capacity) {
  set_up_receive(request, buffer, capacity);
  request.want = load_envelope(want);
  if (UnexpectedMsg* message = unexpected_.take(request.want)) {
    claim(request, static_cast<Unexpected&>(*message));
    return;
  }
  posted_.post(request);
}

bool Pml::try_receive_boxed(std::uint32_t peer, const Envelope& want_in, void* buffer, std::size_t capacity,
                            Status& status) noexcept {
  const Envelope want = load_envelope(want_in);
  if (wait_.spins_before_yield == 0 || !posted_.empty() || queued_sends_ != 0 || !controls_.empty() ||
      pending_reads_ != 0 || unexpected_.find(want) != nullptr)
    return false;
  auto accept = [&](std::span<const std::byte> body) noexcept {
    MatchPrefix prefix;
    std::memcpy(&prefix, body.data(), kPrefixBytes);
    const std::span<const std::byte> payload = body.subspan(kPrefixBytes);
    const Envelope envelope{prefix.context, prefix.source, prefix.tag};
    if (prefix.kind != RecordKind::Eager || prefix.flags != 0 || !matches(want, envelope) || payload.size() > capacity)
      return false;
    static_assert(btl::kBoxBody <= btl::kSmallCopyMax, "a box record fits copy_small()");
    btl::copy_small(buffer, payload.data(), payload.size());
    sent_since_heard_[peer] = 0;
    status.source = envelope.source;
    status.tag = envelope.tag;
    status.bytes = payload.size();
    return true;
  };
  btl::ChannelReader& channel = transport_.reader(peer);
  for (std::uint32_t spin = 0; spin < kBoxedSpins; ++spin) {
    if (channel.deliver_boxed_if(accept)) return true;
    // Anything else for us (a record not taken, another peer's) goes the
    // usual way. So does the box record arriving just after the poll above,
    // unless it is offered once more: without that second offer 13-23% of
    // 0-byte receives fell back to the posted path (osu_latency, 0 bytes).
    if (channel.ready() || (spin % 16 == 15 && transport_.any_ready())) return channel.deliver_boxed_if(accept);
    btl::between_polls(spin, wait_.pauses_between_polls);
  }
  return false;
}

void Pml::start_mrecv(Request& request, Unexpected& message, void* buffer, std::size_t capacity) noexcept {
  set_up_receive(request, buffer, capacity);
  claim(request, message);
}

// A receive takes a message that arrived before it (wholly, in part, or
// only as a rendezvous offer). `message` is already out of the queue.
void Pml::claim(Request& request, Unexpected& message) noexcept {
  describe(request, message.env, message.length);
  if (message.rendezvous) {
    start_rendezvous(request, message.peer, message.address, message.cookie, message.can_write);
  } else {
    if (message.sync) acknowledge(message.peer, message.cookie);
    copy_into(request, 0, std::span<const std::byte>(message.data.data(), message.received));
    if (message.arrived()) {
      finish(request);
    } else {
      // The rest streams straight into the receive buffer.
      Incoming& in = incoming_[message.peer];
      in.request = &request;
      in.unexpected = nullptr;
    }
  }
  store_.release(message);
}

void Pml::on_record(std::uint32_t peer, std::span<const std::byte> body) {
  sent_since_heard_[peer] = 0;
  MatchHeader header;
  std::memcpy(static_cast<MatchPrefix*>(&header), body.data(), kPrefixBytes);
  if (header.kind == RecordKind::Eager) {
    header.length = body.size() - kPrefixBytes - ((header.flags & kSync) != 0 ? kCookieBytes : 0);
  } else {
    std::memcpy(&header.length, body.data() + kPrefixBytes, sizeof header.length);
  }
  const std::span<const std::byte> payload = body.subspan(header_bytes(header.kind));
  switch (header.kind) {
    case RecordKind::Frag: on_fragment(peer, payload); break;
    case RecordKind::RndvFrag: on_rndv_fragment(header, payload); break;
    case RecordKind::Ack:
    case RecordKind::Cts:
    case RecordKind::Fin: on_control(peer, header, payload); break;
    case RecordKind::Split: {
      SplitOffer offer;
      std::memcpy(&offer, payload.data(), sizeof offer);
      on_split(peer, offer);
      break;
    }
    case RecordKind::SplitDone: on_split_done(peer, header); break;
    default: on_first(peer, header, payload); break;
  }
}

void Pml::on_first(std::uint32_t peer, const MatchHeader& header, std::span<const std::byte> payload) {
  const Envelope envelope{header.context, header.source, header.tag};
  const bool sync = (header.flags & kSync) != 0;
  std::uint64_t cookie = 0;
  if (sync) {
    std::memcpy(&cookie, payload.data(), sizeof cookie);
    payload = payload.subspan(sizeof cookie);
  }
  const bool rendezvous = header.kind == RecordKind::Rts;
  RendezvousOffer offer{};
  if (rendezvous) std::memcpy(&offer, payload.data(), sizeof offer);
  const bool more = header.kind == RecordKind::FragFirst && payload.size() < header.length;

  if (PostedRecv* posted = posted_.match(envelope)) {
    Request& request = static_cast<Request&>(*posted);
    describe(request, envelope, header.length);
    if (rendezvous) {
      start_rendezvous(request, peer, offer.address, offer.cookie, (header.flags & kCanWrite) != 0);
      return;
    }
    if (sync) acknowledge(peer, cookie);
    copy_into(request, 0, payload);
    if (more) {
      incoming_[peer] = Incoming{&request, nullptr, payload.size(), header.length};
    } else {
      finish(request);
    }
    return;
  }
  Unexpected& message = store_.acquire(peer, header.length, rendezvous ? 0 : header.length);
  message.env = envelope;
  message.rendezvous = rendezvous;
  message.sync = sync;
  message.can_write = (header.flags & kCanWrite) != 0;
  message.cookie = rendezvous ? offer.cookie : cookie;
  message.address = offer.address;
  if (!rendezvous) {
    if (!payload.empty()) std::memcpy(message.data.data(), payload.data(), payload.size());
    message.received = payload.size();
  }
  unexpected_.push(message);
  if (more) incoming_[peer] = Incoming{nullptr, &message, payload.size(), header.length};
}

void Pml::on_fragment(std::uint32_t peer, std::span<const std::byte> payload) noexcept {
  Incoming& in = incoming_[peer];
  if (in.request != nullptr) {
    copy_into(*in.request, in.offset, payload);
  } else {
    std::memcpy(in.unexpected->data.data() + in.offset, payload.data(), payload.size());
    in.unexpected->received += payload.size();
  }
  in.offset += payload.size();
  if (in.offset < in.length) return;
  if (in.request != nullptr) finish(*in.request);
  in = Incoming{};
}

void Pml::on_rndv_fragment(const MatchHeader& header, std::span<const std::byte> payload) noexcept {
  Request& request = request_of(header.length);
  copy_into(request, request.received, payload);
  request.received += payload.size();
  if (request.received >= request.status.sent_bytes) {
    finish(request);
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

void Pml::on_control(std::uint32_t, const MatchHeader& header, std::span<const std::byte> payload) noexcept {
  if (header.kind == RecordKind::Cts) {
    RendezvousReply reply;
    std::memcpy(&reply, payload.data(), sizeof reply);
    Request& request = request_of(reply.sender_cookie);
    --rndv_offers_out_[request.dest];
    request.awaiting_peer = false;
    request.pushed = false;
    request.peer_cookie = reply.receiver_cookie;
    request.sent = 0;
    enqueue(request);
    return;
  }
  // Ack or Fin: the receiver has what it needs from this send.
  Request& request = request_of(header.length);
  if (header.kind == RecordKind::Fin) --rndv_offers_out_[request.dest];
  request.awaiting_peer = false;
  if (request.pushed) request.complete = true;
}

// A rendezvous message matched `request`: copy it out of the sender at once
// when single copy is permitted (large copies shared with the sender), else
// ask the sender to stream it.
void Pml::start_rendezvous(Request& request, std::uint32_t peer, std::uint64_t address, std::uint64_t cookie,
                           bool peer_can_write) noexcept {
  const std::size_t n = std::min<std::uint64_t>(request.status.sent_bytes, request.capacity);
  request.remote_address = address;
  request.sender_cookie = cookie;
  request.source_world = peer;
  request.part_failed = false;
  request.awaiting_peer = false;
  request.in_epoch = false;
  const bool cross_process = peer != transport_.rank() && single_copy_on();  // CMA can reach the sender
  if (routes_.enabled() && cross_process) {
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
  if (peer_can_write && cross_process && limits_.split_threshold != 0 && n >= limits_.split_threshold) {
    start_split(request, n);
    return;
  }
  // Batch only where more are likely to come: while other receives are
  // posted (a window of osu_bw), or a batch is open. A lone ping-pong
  // message read at once ran 5-10% faster at 8-32 KiB than one deferred to
  // the end of the round of progress.
  if (cross_process && n != 0 && n < kBatchedReadMax && (pending_reads_ != 0 || !posted_.empty())) {
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

void Pml::read_later(Request& request, std::uint32_t peer, std::size_t bytes) noexcept {
  if (pending_reads_ == reads_.size() || (pending_reads_ != 0 && reads_peer_ != peer)) flush_reads();
  reads_peer_ = peer;
  reads_[pending_reads_++] = PendingRead{&request, request.remote_address, bytes};
}

// Makes the pending reads, in one system call when there are several; if
// that one falls short, each again on its own (which tells each one's fate).
void Pml::flush_reads() noexcept {
  const std::uint32_t n = pending_reads_;
  if (n == 0) return;
  pending_reads_ = 0;
  bool all = false;
  if (n > 1) {
    std::array<btl::ReadPiece, btl::SingleCopy::kMaxPieces> pieces;
    for (std::uint32_t i = 0; i < n; ++i)
      pieces[i] = btl::ReadPiece{reads_[i].address, reads_[i].request->recv_buffer, reads_[i].bytes};
    all = single_copy_on() &&
          single_copy_->read_pieces(transport_.peer_pid(reads_peer_), std::span(pieces.data(), n)) ==
              btl::CopyResult::Done;
    if (all) reads_batched_ += n;
    stats_.read_batch(all);
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    const PendingRead& read = reads_[i];
    finish_read(*read.request, all || read_from(reads_peer_, read.address, read.request->recv_buffer, read.bytes));
  }
}

// Asks the sender to write the second half while we read the first.
void Pml::start_split(Request& request, std::size_t bytes) noexcept {
  const std::size_t half = (bytes / 2) & ~std::size_t{4095};  // page-aligned split point
  const std::uint32_t peer = request.source_world;
  send_control(Control::with(peer, RecordKind::Split,
                             SplitOffer{request.sender_cookie, reinterpret_cast<std::uintptr_t>(&request),
                                        reinterpret_cast<std::uintptr_t>(request.recv_buffer + half), half,
                                        bytes - half}));
  request.awaiting_peer = true;
  request.part_failed = !read_from(peer, request.remote_address, request.recv_buffer, half);
}

// Sender side: write our part of a split copy into the receiver's buffer.
void Pml::on_split(std::uint32_t peer, const SplitOffer& offer) noexcept {
  Request& request = request_of(offer.sender_cookie);
  const bool ok = single_copy_on() && single_copy_->write(transport_.peer_pid(peer), offer.address,
                                                          request.send_buffer + offer.offset,
                                                          offer.bytes) == btl::CopyResult::Done;
  if (ok) ++split_parts_written_;
  Control done{peer, RecordKind::SplitDone};
  done.flags = ok ? 0 : kRefused;
  done.cookie = offer.receiver_cookie;
  send_control(done);  // the send completes on the receiver's Fin
}

void Pml::on_split_done(std::uint32_t, const MatchHeader& header) noexcept {
  Request& request = request_of(header.length);
  request.awaiting_peer = false;
  if ((header.flags & kRefused) != 0 || request.part_failed) {
    // Rare: some part could not be copied. Copy all of it ourselves, or stream it.
    const std::size_t n = std::min<std::uint64_t>(request.status.sent_bytes, request.capacity);
    spoil_epoch(request);
    if (!read_from(request.source_world, request.remote_address, request.recv_buffer, n)) {
      stream_rendezvous(request);
      return;
    }
  }
  stats_.count(Protocol::Split, request.status.sent_bytes);
  finish_rendezvous(request);
}

bool Pml::read_from(std::uint32_t peer, std::uint64_t address, void* into, std::size_t bytes) noexcept {
  if (bytes == 0) return true;
  if (peer == transport_.rank()) {
    std::memcpy(into, reinterpret_cast<const void*>(address), bytes);
    return true;
  }
  return single_copy_on() &&
         single_copy_->read(transport_.peer_pid(peer), address, into, bytes) == btl::CopyResult::Done;
}

void Pml::finish_rendezvous(Request& request) noexcept {
  finish(request);
  Control fin{request.source_world, RecordKind::Fin};
  fin.cookie = request.sender_cookie;
  send_control(fin);
  leave_epoch(request);  // after the Fin: the sender waits for it
}

void Pml::stream_rendezvous(Request& request) noexcept {
  stats_.count(Protocol::Streamed, request.status.sent_bytes);
  request.received = 0;
  send_control(Control::with(request.source_world, RecordKind::Cts,
                             RendezvousReply{request.sender_cookie, reinterpret_cast<std::uintptr_t>(&request)}));
}

void Pml::acknowledge(std::uint32_t peer, std::uint64_t cookie) noexcept {
  Control ack{peer, RecordKind::Ack};
  ack.cookie = cookie;
  send_control(ack);
}

bool Pml::probe(const Envelope& want, ProbeResult& result) noexcept {
  progress();
  const UnexpectedMsg* found = unexpected_.find(want);
  if (found == nullptr) return false;
  const auto& message = static_cast<const Unexpected&>(*found);
  result = ProbeResult{message.env.source, message.env.tag, message.length};
  return true;
}

Unexpected* Pml::take_message(const Envelope& want, ProbeResult& result) noexcept {
  progress();
  UnexpectedMsg* found = unexpected_.take(want);
  if (found == nullptr) return nullptr;
  auto& message = static_cast<Unexpected&>(*found);
  result = ProbeResult{message.env.source, message.env.tag, message.length};
  return &message;
}

}  // namespace shmpi::pml
