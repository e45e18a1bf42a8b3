// Pml, receive side: matching arriving records, buffering unexpected
// messages, rendezvous (single copy or streamed), probes.
#include <algorithm>
#include <cstring>

#include "pml/pml.hpp"

namespace shmpi::pml {
namespace {

constexpr std::size_t kHeaderBytes = sizeof(MatchHeader);

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

Request& request_of(std::uint64_t cookie) noexcept { return *reinterpret_cast<Request*>(cookie); }

}  // namespace

void Pml::start_recv(Request& request, const Envelope& want, void* buffer, std::size_t capacity) {
  request.kind = RequestKind::Recv;
  request.complete = false;
  request.recv_buffer = static_cast<std::byte*>(buffer);
  request.capacity = capacity;
  request.received = 0;
  request.status = Status{};
  request.want = want;
  if (UnexpectedMsg* message = unexpected_.take(want)) {
    claim(request, static_cast<Unexpected&>(*message));
    return;
  }
  posted_.post(request);
}

void Pml::start_mrecv(Request& request, Unexpected& message, void* buffer, std::size_t capacity) noexcept {
  request.kind = RequestKind::Recv;
  request.complete = false;
  request.recv_buffer = static_cast<std::byte*>(buffer);
  request.capacity = capacity;
  request.received = 0;
  request.status = Status{};
  claim(request, message);
}

// A receive takes a message that arrived before it (wholly, in part, or
// only as a rendezvous offer). `message` is already out of the queue.
void Pml::claim(Request& request, Unexpected& message) noexcept {
  describe(request, message.env, message.length);
  if (message.rendezvous) {
    start_rendezvous(request, message.peer, message.address, message.cookie);
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
  MatchHeader header;
  std::memcpy(&header, body.data(), kHeaderBytes);
  const std::span<const std::byte> payload = body.subspan(kHeaderBytes);
  switch (header.kind) {
    case RecordKind::Frag: on_fragment(peer, payload); break;
    case RecordKind::RndvFrag: on_rndv_fragment(header, payload); break;
    case RecordKind::Ack:
    case RecordKind::Cts:
    case RecordKind::Fin: on_control(peer, header, payload); break;
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
      start_rendezvous(request, peer, offer.address, offer.cookie);
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
  if (request.received >= request.status.sent_bytes) finish(request);
}

void Pml::on_control(std::uint32_t, const MatchHeader& header, std::span<const std::byte> payload) noexcept {
  if (header.kind == RecordKind::Cts) {
    RendezvousReply reply;
    std::memcpy(&reply, payload.data(), sizeof reply);
    Request& request = request_of(reply.sender_cookie);
    request.awaiting_peer = false;
    request.pushed = false;
    request.peer_cookie = reply.receiver_cookie;
    request.sent = 0;
    enqueue(request);
    return;
  }
  // Ack or Fin: the receiver has what it needs from this send.
  Request& request = request_of(header.length);
  request.awaiting_peer = false;
  if (request.pushed) request.complete = true;
}

// A rendezvous message matched `request`: copy it out of the sender at once
// when single copy is permitted, else ask the sender to stream it.
void Pml::start_rendezvous(Request& request, std::uint32_t peer, std::uint64_t address,
                           std::uint64_t cookie) noexcept {
  const std::size_t n = std::min<std::uint64_t>(request.status.sent_bytes, request.capacity);
  bool copied = n == 0;
  if (!copied && peer == transport_.rank()) {
    std::memcpy(request.recv_buffer, reinterpret_cast<const void*>(address), n);
    copied = true;
  } else if (!copied && single_copy_ != nullptr && single_copy_->enabled()) {
    copied = single_copy_->read(transport_.peer_pid(peer), address, request.recv_buffer, n) ==
             btl::CopyResult::Done;
  }
  if (copied) {
    finish(request);
    send_control(Control{peer, RecordKind::Fin, cookie, {}});
    return;
  }
  request.received = 0;
  send_control(Control{peer, RecordKind::Cts, 0, RendezvousReply{cookie, reinterpret_cast<std::uintptr_t>(&request)}});
}

void Pml::acknowledge(std::uint32_t peer, std::uint64_t cookie) noexcept {
  send_control(Control{peer, RecordKind::Ack, cookie, {}});
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
