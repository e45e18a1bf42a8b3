// Pml, receive side: posting receives, matching arriving records against
// them, buffering unexpected messages, probes. Rendezvous messages go on in
// rendezvous.cpp once matched.
#include <cstring>

#include "btl/small_copy.hpp"
#include "pml/pml.hpp"
#include "pml/request_ops.hpp"

namespace shmpi::pml {
namespace {

// A receive request, not yet complete, into `buffer` of `capacity` bytes.
void set_up_receive(Request& request, void* buffer, std::size_t capacity) noexcept {
  request.kind = RequestKind::Recv;
  request.complete = false;
  request.recv_buffer = static_cast<std::byte*>(buffer);
  request.capacity = capacity;
  request.received = 0;
  request.layout = nullptr;
  request.span_unit = 0;
  request.spanned = 0;
  request.read_at_once = false;
  request.status = Status{};
}

}  // namespace

void Pml::start_recv(Request& request, const Envelope& want, void* buffer, std::size_t capacity,
                     const RunLayout* runs) {
  set_up_receive(request, buffer, capacity);
  request.layout = runs;
  take_or_post(request, want);
}

void Pml::start_operand_recv(Request& request, const Envelope& want, void* buffer, std::size_t capacity) {
  set_up_receive(request, buffer, capacity);
  request.read_at_once = true;
  take_or_post(request, want);
}

void Pml::start_spanned_recv(Request& request, const Envelope& want, void* buffer, std::size_t capacity,
                             std::uint64_t span_unit, const RunLayout* runs) {
  set_up_receive(request, buffer, capacity);
  request.layout = runs;
  request.span_unit = span_unit;
  take_or_post(request, want);
}

void Pml::take_or_post(Request& request, const Envelope& want) noexcept {
  request.want = load_envelope(want);
  if (UnexpectedMsg* message = unexpected_.take(request.want)) {
    deliver_unexpected(request, static_cast<Unexpected&>(*message));
    return;
  }
  posted_.post(request);
}

// Done as the message matches, before any later record is delivered: a
// message of the sender's next round for one of these tags must find them
// gone. Those not posted yet (the message was unexpected) are the caller's
// to skip, told by `spanned`.
void Pml::take_spanned(Request& request, std::uint64_t length) noexcept {
  if (request.span_unit == 0 || length <= request.span_unit) return;
  request.spanned = static_cast<std::uint32_t>((length - 1) / request.span_unit);
  for (std::uint32_t k = 1; k <= request.spanned; ++k) {
    const Envelope follower{request.want.context, request.want.source, request.want.tag - static_cast<std::int32_t>(k)};
    if (PostedRecv* posted = posted_.match(follower)) {
      auto& filled = static_cast<Request&>(*posted);
      filled.status.source = follower.source;
      filled.status.tag = follower.tag;
      filled.complete = true;
    }
  }
}

// Watches the peer's fast box (btl/fast_box.hpp), where a message of one
// small record arrives, for up to kBoxedSpins polls, and copies a matching
// one straight out of it; an eager message in the ring, when it is the
// pair's next record, is copied straight out of the ring the same way
// (not posted, then matched by a progress round). A rank whose policy is
// not to spin (ranks outnumber cores) does not watch: it would keep the
// sender off the core.
template <class Copy>
bool Pml::receive_now(std::uint32_t peer, const Envelope& want_in, std::size_t capacity, std::size_t posted,
                      Status& status, Copy&& copy) noexcept {
  const Envelope want = load_envelope(want_in);
  if (wait_.spins_before_yield == 0 || remote_[peer] != 0 || posted_.size() != posted || queued_sends_ != 0 ||
      !controls_.empty() || !reads_.empty() || unexpected_.find(want) != nullptr)
    return false;
  // Takes the record if it is a whole eager message for this receive.
  auto take = [&](std::span<const std::byte> body, bool in_box) noexcept {
    MatchPrefix prefix;
    std::memcpy(&prefix, body.data(), kPrefixBytes);
    const std::span<const std::byte> payload = body.subspan(kPrefixBytes);
    const Envelope envelope{prefix.context, prefix.source, prefix.tag};
    if (prefix.kind != RecordKind::Eager || prefix.flags != 0 || !matches(want, envelope) || payload.size() > capacity)
      return false;
    copy(payload, in_box);
    sent_since_heard_[peer] = 0;
    next_sequence_in(peer);
    status.source = envelope.source;
    status.tag = envelope.tag;
    status.bytes = payload.size();
    return true;
  };
  auto accept = [&](std::span<const std::byte> body) noexcept { return take(body, true); };
  auto accept_from_ring = [&](std::span<const std::byte> body) noexcept { return take(body, false); };
  btl::ChannelReader& channel = transport_.reader(peer);
  for (std::uint32_t spin = 0; spin < kBoxedSpins; ++spin) {
    if (channel.deliver_boxed_if(accept)) return true;
    // Anything else for us (a record not taken, another peer's) goes the
    // usual way. So does the box record arriving just after the poll above,
    // unless it is offered once more: without that second offer 13-23% of
    // 0-byte receives fell back to the posted path (osu_latency, 0 bytes).
    if (channel.ready() || (spin % 16 == 15 && transport_.any_ready()))
      return channel.deliver_boxed_if(accept) || channel.deliver_ring_if(accept_from_ring);
    pace(spin);
  }
  return false;
}

bool Pml::try_receive_now(std::uint32_t peer, const Envelope& want, void* buffer, std::size_t capacity,
                          Status& status) noexcept {
  return receive_now(peer, want, capacity, 0, status, [&](std::span<const std::byte> payload, bool in_box) {
    static_assert(btl::kBoxBody <= btl::kSmallCopyMax, "a box record fits copy_small()");
    if (in_box) {
      btl::copy_small(buffer, payload.data(), payload.size());
    } else if (!payload.empty()) {
      std::memcpy(buffer, payload.data(), payload.size());
    }
  });
}

bool Pml::try_receive_now(std::uint32_t peer, const Envelope& want, const RunLayout& runs, std::size_t capacity,
                          Status& status) noexcept {
  return receive_now(peer, want, capacity, 0, status, [&](std::span<const std::byte> payload, bool /*in_box*/) {
    scatter_into(runs, capacity, 0, payload);
  });
}

bool Pml::try_finish_now(Request& request, std::uint32_t peer) noexcept {
  if (request.kind != RequestKind::Recv || request.complete || !request.queued() || request.want.source == kAnySource)
    return false;
  Status status;
  if (!receive_now(peer, request.want, request.capacity, 1, status,
                   [&](std::span<const std::byte> payload, bool /*in_box*/) { copy_into(request, 0, payload); }))
    return false;
  posted_.cancel(request);
  describe(request, Envelope{request.want.context, status.source, status.tag}, status.bytes);
  finish_receive(request);
  return true;
}

void Pml::start_mrecv(Request& request, Unexpected& message, void* buffer, std::size_t capacity,
                      const RunLayout* runs) noexcept {
  set_up_receive(request, buffer, capacity);
  request.layout = runs;
  deliver_unexpected(request, message);
}

// A receive takes a message that arrived before it (wholly, in part, or
// only as a rendezvous offer). `message` is already out of the queue.
void Pml::deliver_unexpected(Request& request, Unexpected& message) noexcept {
  describe(request, message.env, message.length);
  if (message.spans) take_spanned(request, message.length);
  if (message.rendezvous) {
    if (remote_[message.peer] != 0) {
      receive_net(request, message);
      release_unexpected(message);
      return;
    }
    start_rendezvous(request, message.peer, message.address, message.cookie, message.can_write);
  } else {
    if (message.sync) acknowledge(message.peer, message.cookie);
    copy_into(request, 0, std::span<const std::byte>(message.data.data(), message.received));
    if (message.arrived()) {
      finish_receive(request);
    } else {
      // The rest streams straight into the receive buffer.
      Incoming& in = incoming_[message.peer];
      in.request = &request;
      in.unexpected = nullptr;
    }
  }
  release_unexpected(message);
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
    case RecordKind::Fin: on_receiver_reply(header, payload); break;
    case RecordKind::Split: {
      SplitOffer offer;
      std::memcpy(&offer, payload.data(), sizeof offer);
      on_split(peer, offer, header.flags);
      break;
    }
    case RecordKind::SplitDone: on_split_done(header); break;
    case RecordKind::Withdraw: {
      WithdrawNotice notice;
      std::memcpy(&notice, payload.data(), sizeof notice);
      on_withdraw(peer, header.length, notice);
      break;
    }
    case RecordKind::Withdrawn: on_withdrawn(header); break;
    default: on_first(peer, header, payload); break;
  }
}

// The first record of a message (Eager, FragFirst or Rts): match it against
// the posted receives, or keep it as unexpected.
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
  const std::uint32_t sequence = next_sequence_in(peer);

  if (PostedRecv* posted = posted_.match(envelope)) {
    Request& request = static_cast<Request&>(*posted);
    describe(request, envelope, header.length);
    if ((header.flags & kSpans) != 0) take_spanned(request, header.length);
    if (rendezvous) {
      start_rendezvous(request, peer, offer.address, offer.cookie, (header.flags & kCanWrite) != 0);
      return;
    }
    if (sync) acknowledge(peer, cookie);
    copy_into(request, 0, payload);
    if (more) {
      incoming_[peer] = Incoming{&request, nullptr, payload.size(), header.length};
    } else {
      finish_receive(request);
    }
    return;
  }
  Unexpected& message = store_.acquire(peer, header.length, rendezvous ? 0 : header.length, !rendezvous);
  message.env = envelope;
  message.rendezvous = rendezvous;
  message.sync = sync;
  message.can_write = (header.flags & kCanWrite) != 0;
  message.spans = (header.flags & kSpans) != 0;
  message.cookie = rendezvous ? offer.cookie : cookie;
  message.address = offer.address;
  message.sequence = sequence;
  if (!rendezvous) {
    if (!payload.empty()) std::memcpy(message.data.data(), payload.data(), payload.size());
    message.received = payload.size();
  }
  unexpected_.push(message);
  stored_unexpected();
  if (more) incoming_[peer] = Incoming{nullptr, &message, payload.size(), header.length};
}

void Pml::on_fragment(std::uint32_t peer, std::span<const std::byte> payload) noexcept {
  Incoming& in = incoming_[peer];
  if (in.request != nullptr) {
    copy_into(*in.request, in.offset, payload);
  } else if (in.unexpected != nullptr) {  // none: the message was withdrawn
    std::memcpy(in.unexpected->data.data() + in.offset, payload.data(), payload.size());
    in.unexpected->received += payload.size();
  }
  in.offset += payload.size();
  if (in.offset < in.length) return;
  if (in.request != nullptr) finish_receive(*in.request);
  in = Incoming{};
}

// A probe looks at the messages already received before it progresses: a
// match there is earlier than anything from its source still in a channel,
// and a progress round that finds nothing hands a box line just delivered
// back to its writer, so the reply to a probed message would take the ring.
bool Pml::probe(const Envelope& want, ProbeResult& result) noexcept {
  const UnexpectedMsg* found = unexpected_.find(want);
  if (found == nullptr) {
    progress();
    found = unexpected_.find(want);
  }
  if (found == nullptr) return false;
  const auto& message = static_cast<const Unexpected&>(*found);
  result = ProbeResult{message.env.source, message.env.tag, message.length};
  return true;
}

Unexpected* Pml::take_message(const Envelope& want, ProbeResult& result) noexcept {
  UnexpectedMsg* found = unexpected_.take(want);
  if (found == nullptr) {
    progress();
    found = unexpected_.take(want);
  }
  if (found == nullptr) return nullptr;
  auto& message = static_cast<Unexpected&>(*found);
  result = ProbeResult{message.env.source, message.env.tag, message.length};
  return &message;
}

}  // namespace shmpi::pml
