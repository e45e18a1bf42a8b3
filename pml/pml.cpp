#include "pml/pml.hpp"

#include <sched.h>

#include <algorithm>
#include <cstring>

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

}  // namespace

Pml::Pml(btl::Transport& transport, const ProtocolLimits& limits, const WaitPolicy& wait)
    : transport_(transport),
      limits_(limits),
      wait_(wait),
      incoming_(transport.size()),
      send_queues_(transport.size()) {}

void Pml::start_send(Request& request, std::uint32_t dest, const Envelope& envelope,
                     const void* buffer, std::size_t bytes) noexcept {
  request.kind = RequestKind::Send;
  request.complete = false;
  request.send_buffer = static_cast<const std::byte*>(buffer);
  request.length = bytes;
  request.sent = 0;
  request.started = false;
  request.dest = dest;
  request.envelope = envelope;
  request.next_send = nullptr;
  request.status = Status{};
  SendQueue& queue = send_queues_[dest];
  if (queue.head == nullptr && push(request)) {
    request.complete = true;
    return;
  }
  if (queue.tail != nullptr) queue.tail->next_send = &request; else queue.head = &request;
  queue.tail = &request;
  ++queued_sends_;
}

// Pushes as much of `request` as the ring takes. True once all of it is in.
bool Pml::push(Request& request) noexcept {
  btl::RingWriter& ring = transport_.writer(request.dest);
  MatchHeader header{request.envelope.context, request.envelope.tag, request.envelope.source,
                     RecordKind::Eager, 0, 0, request.length};
  if (!request.started && request.length <= limits_.eager_limit) {
    std::byte* out = ring.try_reserve(kHeaderBytes + request.length);
    if (out == nullptr) return false;
    std::memcpy(out, &header, kHeaderBytes);
    if (request.length != 0) std::memcpy(out + kHeaderBytes, request.send_buffer, request.length);
    ring.commit();
    request.started = true;
    request.sent = request.length;
    return true;
  }
  const std::size_t fragment = std::min(limits_.max_fragment, ring.max_body() - kHeaderBytes);
  while (!request.started || request.sent < request.length) {
    const std::size_t chunk = std::min(fragment, request.length - request.sent);
    std::byte* out = ring.try_reserve(kHeaderBytes + chunk);
    if (out == nullptr) return false;
    header.kind = request.started ? RecordKind::Frag : RecordKind::FragFirst;
    std::memcpy(out, &header, kHeaderBytes);
    std::memcpy(out + kHeaderBytes, request.send_buffer + request.sent, chunk);
    ring.commit();
    request.started = true;
    request.sent += chunk;
  }
  return true;
}

void Pml::push_queued(std::uint32_t peer) noexcept {
  SendQueue& queue = send_queues_[peer];
  while (queue.head != nullptr && push(*queue.head)) {
    Request* done = queue.head;
    queue.head = done->next_send;
    if (queue.head == nullptr) queue.tail = nullptr;
    done->next_send = nullptr;
    done->complete = true;
    --queued_sends_;
  }
}

void Pml::start_recv(Request& request, const Envelope& want, void* buffer, std::size_t capacity) {
  request.kind = RequestKind::Recv;
  request.complete = false;
  request.recv_buffer = static_cast<std::byte*>(buffer);
  request.capacity = capacity;
  request.status = Status{};
  request.want = want;
  if (UnexpectedMsg* message = unexpected_.take(want)) {
    claim(request, static_cast<Unexpected&>(*message));
    return;
  }
  posted_.post(request);
}

// A receive takes a message that arrived before it (wholly or in part).
void Pml::claim(Request& request, Unexpected& message) noexcept {
  request.status.source = message.env.source;
  request.status.tag = message.env.tag;
  request.status.sent_bytes = message.length;
  copy_into(request, 0, std::span<const std::byte>(message.data.data(), message.received));
  if (message.arrived()) {
    finish(request);
  } else {
    // The rest streams straight into the receive buffer.
    Incoming& in = incoming_[message.peer];
    in.request = &request;
    in.unexpected = nullptr;
  }
  store_.release(message);
}

void Pml::on_record(std::uint32_t peer, std::span<const std::byte> body) {
  MatchHeader header;
  std::memcpy(&header, body.data(), kHeaderBytes);
  std::span<const std::byte> payload = body.subspan(kHeaderBytes);
  if (header.kind == RecordKind::Frag) {
    on_fragment(peer, payload);
  } else {
    on_first(peer, header, payload);
  }
}

void Pml::on_first(std::uint32_t peer, const MatchHeader& header, std::span<const std::byte> payload) {
  const Envelope envelope{header.context, header.source, header.tag};
  const bool more = header.kind == RecordKind::FragFirst && payload.size() < header.length;
  if (PostedRecv* posted = posted_.match(envelope)) {
    Request& request = static_cast<Request&>(*posted);
    request.status.source = header.source;
    request.status.tag = header.tag;
    request.status.sent_bytes = header.length;
    copy_into(request, 0, payload);
    if (!more) {
      finish(request);
      return;
    }
    incoming_[peer] = Incoming{&request, nullptr, payload.size(), header.length};
    return;
  }
  Unexpected& message = store_.acquire(peer, header.length);
  message.env = envelope;
  if (!payload.empty()) std::memcpy(message.data.data(), payload.data(), payload.size());
  message.received = payload.size();
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

bool Pml::progress() noexcept {
  bool moved = transport_.poll([this](std::uint32_t peer, std::span<const std::byte> body) {
                 on_record(peer, body);
               }) != 0;
  if (queued_sends_ != 0) {
    const std::uint32_t before = queued_sends_;
    for (std::uint32_t peer = 0; peer < transport_.size(); ++peer) push_queued(peer);
    moved = moved || queued_sends_ != before;
  }
  return moved;
}

void Pml::wait(Request& request) noexcept {
  std::uint32_t idle = 0;
  while (!request.complete) {
    if (progress()) {
      idle = 0;
    } else if (++idle >= wait_.spins_before_yield) {
      ::sched_yield();
      idle = 0;
    }
  }
}

}  // namespace shmpi::pml
