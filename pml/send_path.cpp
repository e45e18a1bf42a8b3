// Pml, send side: starting sends, pushing records as ring space allows,
// and the control records the receive side owes its peers.
#include <algorithm>
#include <cstring>
#include <new>

#include "pml/pml.hpp"

namespace shmpi::pml {
namespace {

std::uint64_t cookie_of(const Request& request) noexcept { return reinterpret_cast<std::uintptr_t>(&request); }

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

// Everything owed has been pushed; complete unless the peer still owes us.
void finished_pushing(Request& request) noexcept {
  request.pushed = true;
  if (!request.awaiting_peer) request.complete = true;
}

}  // namespace

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
      stats_(transport.size()) {}

void Pml::start_send(Request& request, std::uint32_t dest, const Envelope& envelope, const void* buffer,
                     std::size_t bytes, SendMode mode) {
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
  // A ping-pong: a single copy read alone, never batched with others
  // (SingleCopy::read_pieces), costs more than the two copies through the
  // ring below pingpong_limit (measured in tunables.hpp).
  request.pipelined_answer = bytes >= limits_.rndv_threshold && bytes < limits_.pingpong_limit &&
                             sent_since_heard_[dest] == 0 && send_queues_[dest].head == nullptr &&
                             rndv_offers_out_[dest] == 0;
  if (request.pipelined_answer) ++pipelined_answers_;
  sent_since_heard_[dest] = 1;
  stats_.sent_to(dest, bytes);
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

bool Pml::try_send_eager_now(std::uint32_t dest, const Envelope& envelope, const void* buffer,
                             std::size_t bytes) noexcept {
  if (bytes > limits_.eager_limit || bytes >= limits_.rndv_threshold || send_queues_[dest].head != nullptr)
    return false;
  btl::ChannelWriter& channel = transport_.writer(dest);
  std::byte* out = channel.try_reserve(kPrefixBytes + bytes);
  if (out == nullptr) return false;
  btl::copy_to_ring(write_prefix(out, load_envelope(envelope), RecordKind::Eager, 0), buffer, bytes);
  transport_.publish(dest);
  stats_.sent_to(dest, bytes);
  stats_.count_eager(channel.reserved_in_box(), bytes);
  return true;
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
  if (!request.started && request.length >= limits_.rndv_threshold && !request.pipelined_answer)
    return push_rts(request, channel);
  if (!request.started && request.length <= limits_.eager_limit) return push_eager(request, channel);
  return push_fragments(request, channel, RecordKind::FragFirst, RecordKind::Frag);
}

bool Pml::push_eager(Request& request, btl::ChannelWriter& channel) noexcept {
  const bool sync = request.mode == SendMode::Synchronous;
  const std::size_t extra = sync ? kCookieBytes : 0;
  std::byte* out = channel.try_reserve(kPrefixBytes + extra + request.length);
  if (out == nullptr) return false;
  std::byte* payload = write_header(out, request, RecordKind::Eager, sync ? kSync : std::uint8_t{0}, request.length);
  btl::copy_to_ring(payload, request.send_buffer, request.length);
  transport_.publish(request.dest);
  stats_.count_eager(channel.reserved_in_box(), request.length);
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
  std::byte* payload = write_header(out, request, RecordKind::Rts, can_write ? kCanWrite : std::uint8_t{0},
                                    request.length);
  ::new (payload) RendezvousOffer{reinterpret_cast<std::uintptr_t>(request.send_buffer), cookie_of(request)};
  transport_.publish(request.dest);
  request.started = true;
  request.awaiting_peer = true;  // Fin, or Cts to stream
  ++rndv_offers_out_[request.dest];
  stats_.count(Protocol::Rendezvous, request.length);
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
    std::byte* payload = write_header(out, request, kind, extra != 0 ? kSync : std::uint8_t{0}, length_field);
    std::memcpy(payload, request.send_buffer + request.sent, chunk);
    transport_.publish(request.dest);
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

bool Pml::try_control(const Control& control) noexcept {
  btl::ChannelWriter& channel = transport_.writer(control.peer);
  std::byte* out = channel.try_reserve(kHeaderBytes + control.payload_bytes);
  if (out == nullptr) return false;
  ::new (out) MatchPrefix{0, 0, 0, control.kind, control.flags};
  ::new (out + kPrefixBytes) std::uint64_t{control.cookie};
  if (control.payload_bytes != 0) std::memcpy(out + kHeaderBytes, control.payload, control.payload_bytes);
  transport_.publish(control.peer);
  return true;
}

void Pml::send_control(const Control& control) noexcept {
  if (controls_.empty() && try_control(control)) return;
  controls_.push_back(control);  // capacity is kept: no allocation once warm
}

void Pml::flush_controls() noexcept {
  std::erase_if(controls_, [this](const Control& c) { return try_control(c); });
}

bool Pml::cancel(Request& request) noexcept {
  if (request.complete) return false;
  if (request.kind == RequestKind::Recv) {
    if (!posted_.cancel(request)) return false;
  } else {
    if (request.started) return false;  // part of it has left: too late
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
  return true;
}

bool Pml::progress() noexcept {
  bool moved = transport_.poll([this](std::uint32_t peer, std::span<const std::byte> body) {
                 on_record(peer, body);
               }) != 0;
  flush_reads();
  if (!controls_.empty()) flush_controls();
  if (queued_sends_ != 0) {
    const std::uint32_t before = queued_sends_;
    for (std::uint32_t peer = 0; peer < transport_.size(); ++peer)
      if (send_queues_[peer].head != nullptr) push_queued(peer);
    moved = moved || queued_sends_ != before;
  }
  return moved;
}

}  // namespace shmpi::pml
