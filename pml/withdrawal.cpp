// Pml: cancelling a send that has left. The sender asks the receiver to
// withdraw the message (Withdraw); the receiver takes it out of its
// unexpected queue and answers Withdrawn, or answers Withdrawn kTooLate if
// a receive (or a matched probe) has it. The send completes on that answer
// and, when too late, on whatever completes it anyway (Ack, Fin, its last
// fragment pushed, the network's send done). Peers on other nodes are
// asked the same way, through the network (net_path.cpp carries the ask
// and the answer as messages of their own).
#include "pml/pml.hpp"
#include "pml/request_ops.hpp"

namespace shmpi::pml {
namespace {

// The receiver told us it matched the send already: Cts (we stream into its
// receive), or the Ack or Fin a synchronous or rendezvous send waits for.
bool known_matched(const Request& request, bool rendezvous) noexcept {
  if (request.peer_cookie != 0) return true;
  return (rendezvous || request.mode == SendMode::Synchronous) && !request.awaiting_peer;
}

}  // namespace

// A rendezvous of ours on this node, which its receiver answers (Fin or
// Cts). A send over the network is one message whatever its size: UCX runs
// its own rendezvous, which the pml never sees answered.
bool Pml::answered_rendezvous(const Request& request) const noexcept {
  return remote_[request.dest] == 0 && request.offered;
}

bool Pml::withdraw(Request& request) noexcept {
  if (request.withdraw_asked || known_matched(request, answered_rendezvous(request))) return false;
  request.withdraw_asked = true;
  request.withdrawing = true;
  request.complete = false;  // an eager send completed as it left: reopened until the answer
  const Envelope& e = request.envelope;
  const WithdrawNotice notice{e.context, e.source, e.tag, request.sequence};
  if (remote_[request.dest] != 0) {
    net_withdraw(request.dest, cookie_of(request), notice);
    return false;
  }
  ControlRecord ask = ControlRecord::with(request.dest, RecordKind::Withdraw, notice);
  ask.cookie = cookie_of(request);
  send_control(ask);
  return false;
}

// The receiver's side. Messages from one peer arrive in order (records on
// a ring; the network's messages put back in send order), so the message
// has arrived before its Withdraw: not in the queue means matched.
bool Pml::take_back(std::uint32_t peer, const WithdrawNotice& notice) noexcept {
  const Envelope envelope{notice.context, notice.source, notice.tag};
  UnexpectedMsg* found = unexpected_.find_exact_if(envelope, [&](const UnexpectedMsg& m) {
    const auto& u = static_cast<const Unexpected&>(m);
    return u.peer == peer && u.sequence == notice.sequence;
  });
  if (found == nullptr) return false;
  auto& message = static_cast<Unexpected&>(*found);
  unexpected_.remove(message);
  if (remote_[peer] != 0) {
    // A payload still at the sender: UCX lets its send complete.
    if (message.rendezvous) network_->discard(reinterpret_cast<void*>(message.address));
  } else {
    Incoming& in = incoming_[peer];
    if (in.unexpected == &message) in.unexpected = nullptr;  // still streaming in: the rest is dropped
  }
  release_unexpected(message);
  ++messages_withdrawn_;
  return true;
}

void Pml::on_withdraw(std::uint32_t peer, std::uint64_t cookie, const WithdrawNotice& notice) noexcept {
  ControlRecord answer{peer, RecordKind::Withdrawn};
  answer.cookie = cookie;
  if (!take_back(peer, notice)) answer.flags = kTooLate;
  send_control(answer);
}

void Pml::on_withdrawn(const MatchHeader& header) noexcept {
  withdrawal_answered(request_of(header.length), (header.flags & kTooLate) != 0);
}

void Pml::withdrawal_answered(Request& request, bool too_late) noexcept {
  request.withdrawing = false;
  if (!too_late) {
    // Nobody will answer the message now: no Ack, Cts or Fin.
    if (answered_rendezvous(request)) --rndv_offers_out_[request.dest];
    request.awaiting_peer = false;
    request.status.cancelled = true;
  }
  if (request.pushed && !request.awaiting_peer) request.complete = true;
}

}  // namespace shmpi::pml
