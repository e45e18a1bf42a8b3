// Pml: cancelling a send that has left. The sender asks the receiver to
// withdraw the message (Withdraw); the receiver takes it out of its
// unexpected queue and answers Withdrawn, or answers Withdrawn kTooLate if
// a receive (or a matched probe) has it. The send completes on that answer
// and, when too late, on whatever completes it anyway (Ack, Fin, its last
// fragment pushed). Peers on other nodes are not asked (net_path.cpp sends
// no sequence numbers): a send to them that has left is not cancelled.
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

bool Pml::withdraw(Request& request) noexcept {
  if (remote_[request.dest] != 0 || request.withdraw_asked) return false;
  const bool rendezvous = request.length >= limits_.rndv_threshold && !request.pipelined_reply;
  if (known_matched(request, rendezvous)) return false;
  request.withdraw_asked = true;
  request.withdrawing = true;
  request.complete = false;  // an eager send completed as it left: reopened until the answer
  const Envelope& e = request.envelope;
  ControlRecord ask =
      ControlRecord::with(request.dest, RecordKind::Withdraw, WithdrawNotice{e.context, e.source, e.tag, request.sequence});
  ask.cookie = cookie_of(request);
  send_control(ask);
  return false;
}

// The receiver's side. Records from one peer arrive in order, so the
// message has arrived before its Withdraw: not in the queue means matched.
void Pml::on_withdraw(std::uint32_t peer, std::uint64_t cookie, const WithdrawNotice& notice) noexcept {
  const Envelope envelope{notice.context, notice.source, notice.tag};
  UnexpectedMsg* found = unexpected_.find_exact_if(envelope, [&](const UnexpectedMsg& m) {
    const auto& u = static_cast<const Unexpected&>(m);
    return u.peer == peer && u.sequence == notice.sequence;
  });
  ControlRecord answer{peer, RecordKind::Withdrawn};
  answer.cookie = cookie;
  if (found == nullptr) {
    answer.flags = kTooLate;
  } else {
    auto& message = static_cast<Unexpected&>(*found);
    unexpected_.remove(message);
    Incoming& in = incoming_[peer];
    if (in.unexpected == &message) in.unexpected = nullptr;  // still streaming in: the rest is dropped
    store_.release(message);
    ++messages_withdrawn_;
  }
  send_control(answer);
}

void Pml::on_withdrawn(const MatchHeader& header) noexcept {
  Request& request = request_of(header.length);
  request.withdrawing = false;
  if ((header.flags & kTooLate) == 0) {
    // Nobody will answer the message now: no Ack, Cts or Fin.
    const bool rendezvous = request.length >= limits_.rndv_threshold && !request.pipelined_reply;
    if (rendezvous) --rndv_offers_out_[request.dest];
    request.awaiting_peer = false;
    request.status.cancelled = true;
  }
  if (request.pushed && !request.awaiting_peer) request.complete = true;
}

}  // namespace shmpi::pml
