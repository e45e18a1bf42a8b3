// Pml, peers on other nodes: each send is one network message (header: the
// match envelope, length and the sender's cookie). The network delivers
// each peer's messages in send order, and they meet the same posted and
// unexpected queues as shared-memory arrivals, so every matching rule
// (ANY_SOURCE, probes, cancel, earliest posted receive) holds across both.
//
// Small payloads arrive with their header: copied into a matched receive,
// or kept as an Unexpected's data. Large ones (a UCX rendezvous) stay at
// the sender until matched, then land straight in the receive buffer.
// A synchronous send completes on the receiver's Ack (sent when it matches).
#include <cstring>

#include "pml/pml.hpp"
#include "pml/request_ops.hpp"

namespace shmpi::pml {
namespace {

struct NetHeader {
  MatchPrefix prefix;    // kind Eager (a message), Ack, Withdraw or Withdrawn
  std::uint64_t length;  // message bytes (Withdraw: the message's sequence number)
  std::uint64_t cookie;  // the sender's request (Ack: the one matched; Withdraw, Withdrawn: the one cancelled)
};
static_assert(sizeof(NetHeader) <= net::Network::kMaxHeader);

std::span<const std::byte> bytes_of(const NetHeader& header) noexcept {
  return {reinterpret_cast<const std::byte*>(&header), sizeof header};
}

// The network has the payload: the send's buffer may be reused.
void on_net_sent(void* user) noexcept {
  Request& request = *static_cast<Request*>(user);
  request.pushed = true;
  if (!request.awaiting_peer && !request.withdrawing) request.complete = true;
}

void on_net_received(void* user) noexcept { finish_receive(*static_cast<Request*>(user)); }

}  // namespace

void Pml::use_network(net::Network& network, const std::vector<bool>& remote) {
  network_ = &network;
  for (std::uint32_t peer = 0; peer < remote.size() && peer < remote_.size(); ++peer) remote_[peer] = remote[peer] ? 1 : 0;
  network.set_receiver(&Pml::on_net_arrival, this);
  local_wake_fd_ = transport_.sleep_on_fd();
}

// A rank with remote peers sleeps in ppoll() on the network's fd and on its
// own eventfd, which its local peers write instead of the futex when they
// find it asleep (btl::Transport::sleep_on_fd): it wakes at once for either.
bool Pml::ready_to_sleep(std::uint32_t& seen) noexcept {
  if (network_ != nullptr && !network_->arm()) return false;
  const std::optional<std::uint32_t> armed = transport_.ready_to_sleep();
  if (armed) seen = *armed;
  return armed.has_value();
}

void Pml::stay_awake() noexcept {
  if (network_ == nullptr)
    transport_.stay_awake();
  else
    transport_.woke_from_fd();  // the network stays armed: a spurious wake-up later costs a round
}

void Pml::sleep_until_traffic(std::uint32_t seen) noexcept {
  if (network_ == nullptr) {
    transport_.sleep(seen, wait_.sleep_ns);
    return;
  }
  network_->sleep_until_traffic(wait_.sleep_ns, local_wake_fd_);
  transport_.woke_from_fd();
}

bool Pml::progress_network() noexcept {
  if (++rounds_ % kNetworkEvery != 0) return false;
  return network_->progress();
}

void Pml::start_net_send(Request& request, const Envelope& envelope) noexcept {
  const bool sync = request.mode == SendMode::Synchronous;
  request.envelope = load_envelope(envelope);
  const Envelope& e = request.envelope;
  const NetHeader header{
      MatchPrefix{e.context, e.tag, static_cast<std::uint16_t>(e.source), RecordKind::Eager, sync ? kSync : std::uint8_t{0}},
      request.length, cookie_of(request)};
  request.pipelined_reply = false;
  request.awaiting_peer = sync;
  request.next_send = nullptr;
  request.status = Status{};
  request.started = true;  // cancel() asks the receiver to withdraw it
  request.sequence = next_sequence_out(request.dest);
  request.sent = request.length;
  stats_.count(Protocol::Network, request.length);
  if (network_->send(request.dest, bytes_of(header), request.send_buffer, request.length, &on_net_sent, &request))
    on_net_sent(&request);
}

bool Pml::on_net_arrival(void* self, const net::Arrival& arrival) {
  return static_cast<Pml*>(self)->net_arrival(arrival);
}

// One message (or Ack) from a remote peer, in its send order. True if the
// message's payload stays at the sender until a receive takes it.
bool Pml::net_arrival(const net::Arrival& arrival) {
  NetHeader header;
  std::memcpy(&header, arrival.header.data(), sizeof header);
  if (header.prefix.kind == RecordKind::Ack) {
    Request& request = request_of(header.cookie);
    request.awaiting_peer = false;
    if (request.pushed && !request.withdrawing) request.complete = true;
    return false;
  }
  if (header.prefix.kind == RecordKind::Withdraw) {
    const WithdrawNotice notice{header.prefix.context, header.prefix.source, header.prefix.tag,
                                static_cast<std::uint32_t>(header.length)};
    const bool withdrawn = take_back(arrival.peer, notice);
    const NetHeader answer{MatchPrefix{0, 0, 0, RecordKind::Withdrawn, withdrawn ? std::uint8_t{0} : kTooLate}, 0,
                           header.cookie};
    network_->send(arrival.peer, bytes_of(answer), nullptr, 0, nullptr, nullptr);
    return false;
  }
  if (header.prefix.kind == RecordKind::Withdrawn) {
    withdrawal_answered(request_of(header.cookie), (header.prefix.flags & kTooLate) != 0);
    return false;
  }
  const std::uint32_t sequence = next_sequence_in(arrival.peer);  // every message, matched or not
  const Envelope envelope{header.prefix.context, header.prefix.source, header.prefix.tag};
  const bool sync = (header.prefix.flags & kSync) != 0;
  if (PostedRecv* posted = posted_.match(envelope)) {
    Request& request = static_cast<Request&>(*posted);
    describe(request, envelope, arrival.length);
    if (sync) acknowledge(arrival.peer, header.cookie);
    if (arrival.pending != nullptr) {
      network_->receive(arrival.pending, arrival.length, request.recv_buffer, bytes_to_receive(request),
                        &on_net_received, &request);
      return false;
    }
    copy_into(request, 0, arrival.data);
    finish_receive(request);
    return false;
  }
  const bool pending = arrival.pending != nullptr;
  Unexpected& message = store_.acquire(arrival.peer, arrival.length, pending ? 0 : arrival.length, !pending);
  message.env = envelope;
  message.rendezvous = pending;
  message.sync = sync;
  message.cookie = header.cookie;
  message.address = reinterpret_cast<std::uintptr_t>(arrival.pending);
  message.sequence = sequence;
  if (!pending) {
    if (!arrival.data.empty()) std::memcpy(message.data.data(), arrival.data.data(), arrival.data.size());
    message.received = arrival.data.size();
  }
  unexpected_.push(message);
  stored_unexpected();
  return pending;
}

// A receive takes a remote message whose payload is still at the sender.
void Pml::receive_net(Request& request, Unexpected& message) noexcept {
  if (message.sync) acknowledge(message.peer, message.cookie);
  network_->receive(reinterpret_cast<void*>(message.address), message.length, request.recv_buffer,
                    bytes_to_receive(request), &on_net_received, &request);
}

// Asks `peer` to withdraw our message `notice` names. It leaves after the
// message (the network keeps a pair's order), so the peer has the message
// when the ask comes: it answers Withdrawn, flagged kTooLate if matched.
void Pml::net_withdraw(std::uint32_t peer, std::uint64_t cookie, const WithdrawNotice& notice) noexcept {
  const NetHeader header{MatchPrefix{notice.context, notice.tag, static_cast<std::uint16_t>(notice.source),
                                     RecordKind::Withdraw, 0},
                         notice.sequence, cookie};
  network_->send(peer, bytes_of(header), nullptr, 0, nullptr, nullptr);
}

void Pml::net_acknowledge(std::uint32_t peer, std::uint64_t cookie) noexcept {
  const NetHeader header{MatchPrefix{0, 0, 0, RecordKind::Ack, 0}, 0, cookie};
  network_->send(peer, bytes_of(header), nullptr, 0, nullptr, nullptr);
}

}  // namespace shmpi::pml
