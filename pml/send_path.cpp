// Pml, send side: starting sends, pushing their records as ring space
// allows, what receivers answer them (Ack, Cts, Fin) and the sender's half
// of a split copy; and the control records this rank owes its peers.
#include <algorithm>
#include <cstring>
#include <new>

#include "pml/pml.hpp"
#include "pml/request_ops.hpp"

namespace shmpi::pml {
namespace {

// Writes the match prefix of a record from `envelope` in place at `out`,
// the start of a reserved record. Building it on the stack and copying it
// in made the wide load of the copy wait for the narrow stores of the
// fields: a store-forwarding stall on every message. Returns what follows.
std::byte* write_prefix(std::byte* out, const Envelope& envelope, RecordKind kind, std::uint8_t flags) noexcept {
  const MatchPrefix prefix{envelope.context, envelope.tag, static_cast<std::uint16_t>(envelope.source), kind, flags};
  ::new (out) MatchPrefix(prefix);
  return out + kPrefixBytes;
}

// Writes the header of a record about `request` in place at `out` (an Eager
// record gets only the prefix). The cookie of a synchronous first record
// follows the header. Returns where the payload goes.
std::byte* write_header(std::byte* out, const Request& request, RecordKind kind, std::uint8_t flags,
                        std::uint64_t length) noexcept {
  std::byte* next = write_prefix(out, request.envelope, kind, flags);
  if (kind != RecordKind::Eager) {
    ::new (next) std::uint64_t{length};
    next += kLengthBytes;
  }
  if ((flags & kSync) != 0) {
    ::new (next) std::uint64_t{cookie_of(request)};
    next += kCookieBytes;
  }
  return next;
}

// Everything owed has been pushed; complete unless the peer still owes us
// (an answer, or a withdrawal's answer).
void finished_pushing(Request& request) noexcept {
  request.pushed = true;
  if (!request.awaiting_peer && !request.withdrawing) request.complete = true;
}

}  // namespace

void Pml::start_send(Request& request, std::uint32_t dest, const Envelope& envelope, const void* buffer,
                     std::size_t bytes, SendMode mode, const RunLayout* runs) {
  request.first_flags = 0;
  begin_send(request, dest, envelope, buffer, bytes, mode, runs);
}

void Pml::start_spanning_send(Request& request, std::uint32_t dest, const Envelope& envelope, const void* buffer,
                              std::size_t bytes, const RunLayout* runs) {
  request.first_flags = kSpans;
  begin_send(request, dest, envelope, buffer, bytes, SendMode::Standard, runs);
}

void Pml::begin_send(Request& request, std::uint32_t dest, const Envelope& envelope, const void* buffer,
                     std::size_t bytes, SendMode mode, const RunLayout* runs) {
  stats_.sent_to(dest, bytes);
  request.layout = runs;
  request.kind = RequestKind::Send;
  request.complete = false;
  request.send_buffer = static_cast<const std::byte*>(buffer);
  request.length = bytes;
  request.sent = 0;
  request.peer_cookie = 0;
  request.dest = dest;
  request.mode = mode;
  request.started = false;
  request.pushed = false;
  request.withdraw_asked = false;
  request.withdrawing = false;
  request.offered = false;
  if (remote_[dest] != 0) {
    start_net_send(request, envelope);
    return;
  }
  // A reply (a ping-pong): a single copy read alone, never batched with
  // others (SingleCopy::read_pieces), costs more than the two copies through
  // the ring below reply_pipeline_limit (measured in tunables.hpp).
  request.pipelined_reply = bytes >= limits_.rndv_threshold && bytes < limits_.reply_pipeline_limit &&
                            sent_since_heard_[dest] == 0 && send_queues_[dest].head == nullptr &&
                            rndv_offers_out_[dest] == 0;
  if (request.pipelined_reply) ++pipelined_replies_;
  sent_since_heard_[dest] = 1;
  // A synchronous eager or pipelined send waits for the receiver's Ack; a
  // rendezvous send always waits for the receiver (Fin or Cts).
  request.awaiting_peer = mode == SendMode::Synchronous;
  request.envelope = load_envelope(envelope);
  request.next_send = nullptr;
  request.status = Status{};
  if (send_queues_[dest].head == nullptr && push(request)) {
    finished_pushing(request);
    return;
  }
  enqueue(request);
}

// Inlined into each caller: the contiguous one is the small send's whole
// critical path (out of line it cost 0.04 -> 0.06 us of osu_latency 0 B).
template <class Fill>
[[gnu::always_inline]] inline bool Pml::try_eager_now(std::uint32_t dest, const Envelope& envelope, std::size_t bytes, Fill&& fill) noexcept {
  if (bytes > limits_.eager_limit || bytes >= limits_.rndv_threshold || send_queues_[dest].head != nullptr ||
      transport_.backlogged(dest))
    return false;
  btl::ChannelWriter& channel = transport_.writer(dest);
  std::byte* out = channel.try_reserve(kPrefixBytes + bytes);
  if (out == nullptr) return false;
  fill(write_prefix(out, load_envelope(envelope), RecordKind::Eager, 0));
  transport_.publish(dest);
  next_sequence_out(dest);
  stats_.sent_to(dest, bytes);
  stats_.count_eager(channel.reserved_in_box(), bytes);
  return true;
}

bool Pml::try_send_eager_now(std::uint32_t dest, const Envelope& envelope, const void* buffer,
                             std::size_t bytes) noexcept {
  return try_eager_now(dest, envelope, bytes, [&](std::byte* payload) { btl::copy_to_ring(payload, buffer, bytes); });
}

bool Pml::try_send_eager_now(std::uint32_t dest, const Envelope& envelope, const RunLayout& runs,
                             std::size_t bytes) noexcept {
  return try_eager_now(dest, envelope, bytes, [&](std::byte* payload) { gather_from(runs, 0, payload, bytes); });
}

void Pml::enqueue(Request& request) noexcept {
  SendQueue& queue = send_queues_[request.dest];
  request.next_send = nullptr;
  if (queue.tail != nullptr) queue.tail->next_send = &request; else queue.head = &request;
  queue.tail = &request;
  ++queued_sends_;
}

// Pushes as much of `request` as the ring takes. True once all it owes now is in.
bool Pml::push(Request& request) noexcept {
  btl::ChannelWriter& channel = transport_.writer(request.dest);
  if (request.peer_cookie != 0) return push_fragments(request, channel, RecordKind::RndvFrag, RecordKind::RndvFrag);
  // Decided as the first record goes, not when the send started: a send
  // queued behind others sees the receiver's backlog flag as it is now.
  if (!request.started && offers(request)) return push_rts(request, channel);
  if (!request.started && request.length <= limits_.eager_limit) return push_eager(request, channel);
  return push_fragments(request, channel, RecordKind::FragFirst, RecordKind::Frag);
}

bool Pml::push_eager(Request& request, btl::ChannelWriter& channel) noexcept {
  const bool sync = request.mode == SendMode::Synchronous;
  const std::size_t extra = sync ? kCookieBytes : 0;
  std::byte* out = channel.try_reserve(kPrefixBytes + extra + request.length);
  if (out == nullptr) return false;
  const std::uint8_t flags = (sync ? kSync : std::uint8_t{0}) | request.first_flags;
  std::byte* payload = write_header(out, request, RecordKind::Eager, flags, request.length);
  if (request.layout == nullptr) [[likely]] {
    btl::copy_to_ring(payload, request.send_buffer, request.length);
  } else {
    gather_from(*request.layout, 0, payload, request.length);  // packed straight into the record
  }
  transport_.publish(request.dest);
  stats_.count_eager(channel.reserved_in_box(), request.length);
  request.sequence = next_sequence_out(request.dest);
  request.started = true;
  request.sent = request.length;
  return true;
}

bool Pml::push_rts(Request& request, btl::ChannelWriter& channel) noexcept {
  std::byte* out = channel.try_reserve(kHeaderBytes + sizeof(RendezvousOffer));
  if (out == nullptr) return false;
  // Offer our core for a split copy only when no receive of ours is posted:
  // a rank expecting messages will be busy copying them in, and splitting
  // then only adds a round trip (measured: osu_bibw at 128-256 KiB ran
  // 17 GB/s split, 22-26 GB/s unsplit; osu_bw gains from splitting).
  const bool can_write = single_copy_on() && posted_.empty();
  const std::uint8_t flags = (can_write ? kCanWrite : std::uint8_t{0}) | request.first_flags;
  std::byte* payload = write_header(out, request, RecordKind::Rts, flags, request.length);
  // A send from runs offers its RunLayout instead of a buffer (run_layout.hpp).
  const bool runs = request.layout != nullptr;
  const void* offered = runs ? static_cast<const void*>(request.layout) : request.send_buffer;
  ::new (payload)
      RendezvousOffer{reinterpret_cast<std::uintptr_t>(offered), cookie_of(request) | (runs ? kRunsCookie : 0)};
  transport_.publish(request.dest);
  stats_.count(Protocol::Rendezvous, request.length);
  request.sequence = next_sequence_out(request.dest);
  request.started = true;
  request.awaiting_peer = true;  // Fin, or Cts to stream
  request.offered = true;
  if (!rendezvous_sized(request)) ++sends_held_back_;
  ++rndv_offers_out_[request.dest];
  return true;
}

bool Pml::push_fragments(Request& request, btl::ChannelWriter& channel, RecordKind first, RecordKind rest) noexcept {
  const bool sync = request.mode == SendMode::Synchronous && first == RecordKind::FragFirst;
  const std::size_t fragment = std::min(limits_.max_fragment, channel.max_body() - kHeaderBytes - kCookieBytes);
  const std::uint64_t length_field = first == RecordKind::RndvFrag ? request.peer_cookie : request.length;
  bool first_record = !request.started;
  while (first_record || request.sent < request.length) {
    const RecordKind kind = first_record ? first : rest;
    const std::size_t extra = kind == RecordKind::FragFirst && sync ? kCookieBytes : 0;
    const std::size_t chunk = std::min(fragment, request.length - request.sent);
    std::byte* out = channel.try_reserve(kHeaderBytes + extra + chunk);
    if (out == nullptr) return false;
    const std::uint8_t flags = (extra != 0 ? kSync : std::uint8_t{0}) |
                               (kind == RecordKind::FragFirst ? request.first_flags : std::uint8_t{0});
    std::byte* payload = write_header(out, request, kind, flags, length_field);
    copy_out(request, request.sent, payload, chunk);
    transport_.publish(request.dest);
    if (kind == RecordKind::FragFirst) request.sequence = next_sequence_out(request.dest);
    request.started = true;
    request.sent += chunk;
    first_record = false;
  }
  if (first == RecordKind::FragFirst) stats_.count(Protocol::Pipelined, request.length);
  return true;
}

void Pml::push_queued(std::uint32_t peer) noexcept {
  SendQueue& queue = send_queues_[peer];
  while (queue.head != nullptr && push(*queue.head)) {
    Request* done = queue.head;
    queue.head = done->next_send;
    if (queue.head == nullptr) queue.tail = nullptr;
    done->next_send = nullptr;
    --queued_sends_;
    finished_pushing(*done);
  }
}

// A receiver answers one of our sends: Cts (stream the rendezvous message
// to it), or Ack / Fin (it has what it needs from the send).
void Pml::on_receiver_reply(const MatchHeader& header, std::span<const std::byte> payload) noexcept {
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
  Request& request = request_of(header.length);
  if (header.kind == RecordKind::Fin) --rndv_offers_out_[request.dest];
  request.awaiting_peer = false;
  if (request.pushed && !request.withdrawing) request.complete = true;
}

// The sender's half of a split copy: write our part of the message into
// the receiver's buffer, then tell it (the send completes on its Fin).
void Pml::on_split(std::uint32_t peer, const SplitOffer& offer, std::uint8_t flags) noexcept {
  Request& request = request_of(offer.sender_cookie);
  const bool runs = request.layout != nullptr || (flags & kRunsLayout) != 0;
  const bool ok = runs ? write_run_part(request, peer, offer, (flags & kRunsLayout) != 0)
                       : single_copy_on() && single_copy_->write(transport_.peer_pid(peer), offer.address,
                                                                 request.send_buffer + offer.offset,
                                                                 offer.bytes) == btl::CopyResult::Done;
  if (ok) ++split_parts_written_;
  ControlRecord done{peer, RecordKind::SplitDone};
  done.flags = ok ? 0 : kRefused;
  done.cookie = offer.receiver_cookie;
  send_control(done);
}

bool Pml::try_control(const ControlRecord& control) noexcept {
  btl::ChannelWriter& channel = transport_.writer(control.peer);
  std::byte* out = channel.try_reserve(kHeaderBytes + control.payload_bytes);
  if (out == nullptr) return false;
  ::new (out) MatchPrefix{0, 0, 0, control.kind, control.flags};
  ::new (out + kPrefixBytes) std::uint64_t{control.cookie};
  if (control.payload_bytes != 0) std::memcpy(out + kHeaderBytes, control.payload, control.payload_bytes);
  transport_.publish(control.peer);
  return true;
}

void Pml::send_control(const ControlRecord& control) noexcept {
  if (controls_.empty() && try_control(control)) return;
  controls_.push_back(control);  // capacity is kept: no allocation once warm
}

void Pml::flush_controls() noexcept {
  std::erase_if(controls_, [this](const ControlRecord& c) { return try_control(c); });
}

void Pml::acknowledge(std::uint32_t peer, std::uint64_t cookie) noexcept {
  if (remote_[peer] != 0) {
    net_acknowledge(peer, cookie);
    return;
  }
  ControlRecord ack{peer, RecordKind::Ack};
  ack.cookie = cookie;
  send_control(ack);
}

}  // namespace shmpi::pml
