// Pml: MPI point-to-point matching and protocols over the btl (the wire
// format and protocols are described in pml/protocol.hpp).
//
// Messages to one peer leave in the order their sends started (one send
// queue per peer). Arriving messages are matched against the posted
// receives; unmatched ones are kept as Unexpected records until a receive
// or a matched probe takes them. Control records owed to a peer (Ack, Cts,
// Fin, Split, SplitDone) go out at once, or wait in one queue while its
// ring is full, so a record handler never blocks.
//
// Files: the contract below; pml.cpp (progress, cancel), withdrawal.cpp
// (cancelling sends that left), send_path.cpp
// (sends, receivers' replies, control records), receive_path.cpp
// (matching, probes), rendezvous.cpp (the receiver's rendezvous and its
// route), single_copy_reads.cpp; waiting is described in wait_loop.hpp;
// net_path.cpp: peers on other nodes, through net::Network (one message
// per send, matched by the same matcher as every other arrival).
//
// Single-threaded: the caller serialises every call. Under
// MPI_THREAD_MULTIPLE the runtime's lock does (runtime/thread_support.hpp);
// wait_until() lets its watcher hand that lock on between rounds.
#pragma once

#include <sched.h>
#include <sys/types.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "btl/between_polls.hpp"
#include "btl/monotonic_ns.hpp"
#include "btl/single_copy.hpp"
#include "btl/transport.hpp"
#include "net/network.hpp"
#include "pml/control_record.hpp"
#include "pml/matcher.hpp"
#include "pml/protocol.hpp"
#include "pml/read_batch.hpp"
#include "pml/request.hpp"
#include "pml/route_chooser.hpp"
#include "pml/traffic_stats.hpp"
#include "pml/unexpected_store.hpp"
#include "pml/wait_loop.hpp"

namespace shmpi::pml {

// Message sizes that pick a protocol (pml/protocol.hpp). No defaults: the
// runtime fills every field from its Config (the tunables), a test says
// what it wants.
struct ProtocolLimits {
  std::size_t eager_limit;      // largest single-record message
  std::size_t max_fragment;     // largest fragment payload
  std::size_t rndv_threshold;   // smallest rendezvous message
  std::size_t split_threshold;  // smallest single copy shared with the sender (0: never)
  std::size_t run_copy_min;     // shortest mean run a non-contiguous single copy takes (run_copies.cpp)
  bool choose_route;            // rendezvous: single copy or streaming chosen per epoch (RouteChooser)
  // Rendezvous-sized messages below this are pipelined instead when they
  // reply to the peer's last message with nothing else of ours in flight
  // to it (0: never).
  std::size_t reply_pipeline_limit;
  // Most bytes of payload (UnexpectedStore::held()) our unexpected messages
  // may hold before we raise our backlog flag, which makes senders on this
  // node send every message to us as a rendezvous offer (the payload stays
  // with them until a receive matches it); the flag drops once half of it
  // drained. 0: the flag is up from the start, for good.
  std::uint64_t unexpected_budget;
};

// What a probe learns about a pending message.
struct ProbeResult {
  std::int32_t source;
  std::int32_t tag;
  std::uint64_t bytes;
};

class Pml {
 public:
  // `single_copy` may be nullptr (no single copy: rendezvous streams).
  Pml(btl::Transport& transport, const ProtocolLimits& limits, const WaitPolicy& wait,
      btl::SingleCopy* single_copy = nullptr);

  // Peers with remote[peer] true are on other nodes: their messages go
  // through `network` (the transport's channels to them are closed).
  // Called once, before any traffic.
  void use_network(net::Network& network, const std::vector<bool>& remote);

  // --- Sends and receives. A request must stay put until it completes;
  // every call below returns at once (only wait_until() waits).

  // Starts sending `bytes` from `buffer` to world rank `dest`. The request
  // completes when the buffer may be reused (and, in synchronous mode, once
  // the receiver matched it). `envelope.source` is our communicator rank.
  // With `runs` (only where moves_runs() says so) the bytes are the packed
  // stream of that layout, taken from it without packing it first
  // (run_layout.hpp); `buffer` is unused.
  void start_send(Request& request, std::uint32_t dest, const Envelope& envelope, const void* buffer,
                  std::size_t bytes, SendMode mode = SendMode::Standard, const RunLayout* runs = nullptr);
  // Starts a receive of at most `capacity` bytes matching `want`; with
  // `runs` (only where moves_runs() says so) into that layout, `buffer`
  // unused.
  void start_recv(Request& request, const Envelope& want, void* buffer, std::size_t capacity,
                  const RunLayout* runs = nullptr);
  // A receive whose data the caller reads right after (a reduction's
  // operand): its single copy is never shared with the sender, so every
  // byte lands in our cache, not half of them in the sender's.
  void start_operand_recv(Request& request, const Envelope& want, void* buffer, std::size_t capacity);
  // Whether sends and receives may take a RunLayout: not while peers on
  // other nodes exist (the network moves contiguous bytes only).
  bool moves_runs() const noexcept { return network_ == nullptr; }

  // Spanning messages (kSpans; a partitioned transfer's ready partitions
  // as one message). The sender's message fills the receive it matches and
  // the receives posted for the tags just below want.tag, one per
  // `span_unit` bytes; those leave the posted queue when it matches, so no
  // later message can meet them, and the first receive's `spanned` says
  // how many they were. Only to peers on this node (spans_to()). With
  // `runs` (where moves_runs() says so) the bytes come from / go into that
  // layout, as start_send's and start_recv's do.
  void start_spanning_send(Request& request, std::uint32_t dest, const Envelope& envelope, const void* buffer,
                           std::size_t bytes, const RunLayout* runs = nullptr);
  void start_spanned_recv(Request& request, const Envelope& want, void* buffer, std::size_t capacity,
                          std::uint64_t span_unit, const RunLayout* runs = nullptr);
  bool spans_to(std::uint32_t dest) const noexcept { return remote_[dest] == 0; }

  // Cancels a receive still waiting for a message, or a send none of which
  // has left yet: true, and the request is then complete, cancelled. A
  // send that has left (even one complete already, as an eager send is),
  // to a peer on this node or another, and may not be matched yet is withdrawn instead
  // (pml/withdrawal.cpp): false, and the request completes once the
  // receiver answers, status.cancelled telling whether it was withdrawn.
  bool cancel(Request& request) noexcept;

  // --- Fast paths of the blocking calls: a small ping-pong's critical path
  // with no request queued or posted and no round of progress over every
  // peer. Each does only what the calls above would have done the same
  // way, and declines everything else.

  // Sends a standard-mode message of one eager record now if nothing of
  // ours to `dest` is queued and the channel has room. True if sent (the
  // buffer may be reused); false: the caller start_send()s.
  bool try_send_eager_now(std::uint32_t dest, const Envelope& envelope, const void* buffer,
                          std::size_t bytes) noexcept;
  // The same for the `bytes` packed bytes of `runs` (only where
  // moves_runs() says so), packed straight into the record.
  bool try_send_eager_now(std::uint32_t dest, const Envelope& envelope, const RunLayout& runs,
                          std::size_t bytes) noexcept;
  // Receives a small message from world rank `peer` (want.source: its rank
  // in the communicator) into `buffer` now, without a request, if it can:
  // nothing else of ours is pending (no receive posted, nothing waiting to
  // be sent, no earlier message matching) and the peer's next record is a
  // matching one-record message that fits `capacity`, or becomes one within
  // a few microseconds. True if received, with the message's source, tag
  // and length in `status` (only those); false once anything else arrives
  // or nothing does (the caller then start_recv()s and waits).
  bool try_receive_now(std::uint32_t peer, const Envelope& want, void* buffer, std::size_t capacity,
                       Status& status) noexcept;
  // The same into the runs of a derived datatype (`capacity` packed bytes;
  // only where moves_runs() says so).
  bool try_receive_now(std::uint32_t peer, const Envelope& want, const RunLayout& runs, std::size_t capacity,
                       Status& status) noexcept;
  // The same for a receive started earlier (MPI_Irecv or a persistent
  // MPI_Start, then a wait) from world rank `peer`, when it is the only
  // receive posted: a message taken now completes it, and it leaves the
  // posted queue. True if it completed.
  bool try_finish_now(Request& request, std::uint32_t peer) noexcept;

  // --- Probes.

  // The earliest pending message matching `want`, if any (after one round
  // of progress). The message stays pending.
  bool probe(const Envelope& want, ProbeResult& result) noexcept;
  // Matched probe: removes the earliest matching message from matching and
  // returns it (nullptr if none), to be received by start_mrecv.
  Unexpected* take_message(const Envelope& want, ProbeResult& result) noexcept;
  void start_mrecv(Request& request, Unexpected& message, void* buffer, std::size_t capacity,
                   const RunLayout* runs = nullptr) noexcept;

  // --- Progress and waiting.

  // One round: polls every inbound channel, delivers what arrived, pushes
  // what waits to be sent. True if anything moved.
  bool progress() noexcept;

  // Runs rounds of progress until done() is true: the one loop a rank
  // waits in (pml/wait_loop.hpp). Should the wait last, watch.long_wait()
  // is called once and watch.long_wait_over() when it ends.
  template <class Done, class Watch = Unwatched>
  void wait_until(Done&& done, Watch&& watch = Watch{}) noexcept;
  void wait(Request& request) noexcept {
    wait_until([&request] { return request.complete; });
  }

  // Nothing of ours waits: every record we owe a peer is in its channel and
  // no read is deferred. Only a peer's record can make progress now.
  bool owes_nothing() const noexcept { return queued_sends_ == 0 && controls_.empty() && reads_.empty(); }
  // Rounds of progress() that moved something, ever: a caller that saw
  // this change knows requests not its own may have completed.
  std::uint64_t moves() const noexcept { return moves_; }
  // A caller completed a request without progress() (a partition sent
  // whole at MPI_Pready): counted as a move, for the same readers.
  void count_move() noexcept { ++moves_; }

  // --- Counters, for tests and benchmarks.

  std::size_t posted_count() const noexcept { return posted_.size(); }
  std::size_t unexpected_count() const noexcept { return unexpected_.size(); }
  // Parts of our own rendezvous sends we copied into receivers (splits).
  std::uint64_t split_parts_written() const noexcept { return split_parts_written_; }
  // Rendezvous messages received by `route` as chosen by the RouteChooser.
  std::uint64_t routes_taken(Route route) const noexcept { return routes_taken_[static_cast<std::size_t>(route)]; }
  // Rendezvous messages read by single copy in a batch of several.
  std::uint64_t reads_batched() const noexcept { return reads_batched_; }
  // Epochs of rendezvous messages timed and told to the RouteChooser.
  std::uint64_t epochs_recorded() const noexcept { return epochs_recorded_; }
  // Rendezvous-sized sends pipelined as replies (reply_pipeline_limit).
  std::uint64_t pipelined_replies() const noexcept { return pipelined_replies_; }
  // Rendezvous messages received by one copy between runs, a RunLayout on
  // either side (run_copies.cpp).
  std::uint64_t run_copies() const noexcept { return run_copies_; }
  // What our traffic did, for the run report (pml/traffic_stats.hpp).
  const TrafficStats& stats() const noexcept { return stats_; }
  // The most unexpected messages held at once.
  std::size_t unexpected_peak() const noexcept { return store_.peak(); }
  // The most bytes their payloads held at once (UnexpectedStore::held()),
  // which unexpected_budget bounds up to what was already on its way.
  std::uint64_t unexpected_held_peak() const noexcept { return store_.held_peak(); }
  // Whether our backlog flag is up, and how often it went up.
  bool backlogged() const noexcept { return backlog_; }
  std::uint64_t backlogs_raised() const noexcept { return backlogs_raised_; }
  // Our sends that went as rendezvous offers because their receiver was
  // backlogged (they would have gone eager or pipelined).
  std::uint64_t sends_held_back() const noexcept { return sends_held_back_; }
  // Messages peers withdrew from our unexpected queue (cancelled sends).
  std::uint64_t messages_withdrawn() const noexcept { return messages_withdrawn_; }

 private:
  // Polls of the peer's box before try_receive_now() gives up (a few
  // microseconds: longer than a small message's round trip).
  static constexpr std::uint32_t kBoxedSpins = 1024;

  // Single-copy reads of rendezvous messages below this size wait, up to
  // btl::SingleCopy::kMaxPieces from one peer, for the end of the round of
  // progress and are then made in one system call (ReadBatch). 128 KiB
  // rather than 64: osu_bw 64 KiB 25.5 -> 29.7 GB/s, osu_bibw 42.7 -> 54.7
  // (4 interleaved runs); larger ones are split or cost far more than a call.
  static constexpr std::size_t kBatchedReadMax = 128 * 1024;

  // The pipelined message currently streaming in on one peer's ring.
  struct Incoming {
    Request* request = nullptr;        // matched receive, or
    Unexpected* unexpected = nullptr;  // unmatched message being buffered
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
  };
  // Our sends to one peer that wait for ring space, oldest first.
  struct SendQueue {
    Request* head = nullptr;
    Request* tail = nullptr;
  };

  // Waiting (below): the pause after a poll that found nothing, and the
  // spin, yield and sleep of a long wait.
  void pace(std::uint32_t polls) const noexcept { btl::between_polls(polls, wait_.pauses_between_polls); }
  template <class Done, class Watch>
  void wait_long(Done& done, Watch& watch) noexcept;
  bool yielded_enough(std::uint32_t yields, std::uint64_t& yielding_since) const noexcept;

  // Send side (send_path.cpp): pushing our sends as ring space allows, and
  // the records their receivers answer with.
  void enqueue(Request& request) noexcept;
  bool push(Request& request) noexcept;
  bool push_eager(Request& request, btl::ChannelWriter& channel) noexcept;
  bool push_rts(Request& request, btl::ChannelWriter& channel) noexcept;
  bool push_fragments(Request& request, btl::ChannelWriter& channel, RecordKind first, RecordKind rest) noexcept;
  void push_queued(std::uint32_t peer) noexcept;
  void on_receiver_reply(const MatchHeader& header, std::span<const std::byte> payload) noexcept;
  void on_split(std::uint32_t peer, const SplitOffer& offer, std::uint8_t flags) noexcept;
  // Control records we owe peers, sent at once or queued.
  void send_control(const ControlRecord& control) noexcept;
  bool try_control(const ControlRecord& control) noexcept;
  void flush_controls() noexcept;
  void acknowledge(std::uint32_t peer, std::uint64_t cookie) noexcept;

  // Matching arriving records (receive_path.cpp).
  void on_record(std::uint32_t peer, std::span<const std::byte> body);
  void begin_send(Request& request, std::uint32_t dest, const Envelope& envelope, const void* buffer, std::size_t bytes,
                  SendMode mode, const RunLayout* runs);
  void on_first(std::uint32_t peer, const MatchHeader& header, std::span<const std::byte> payload);
  void on_fragment(std::uint32_t peer, std::span<const std::byte> payload) noexcept;
  void deliver_unexpected(Request& request, Unexpected& message) noexcept;
  // Gives a receive set up for `want` the earliest message waiting for it,
  // or posts it.
  void take_or_post(Request& request, const Envelope& want) noexcept;
  // `request` matched a message of `length` bytes that spans: takes the
  // receives it also fills out of the posted queue.
  void take_spanned(Request& request, std::uint64_t length) noexcept;
  // The backlog flag (ProtocolLimits::unexpected_budget): after a message
  // was stored, and instead of store_.release().
  void stored_unexpected() noexcept {
    if (!backlog_ && store_.held() > limits_.unexpected_budget) [[unlikely]] set_backlog(true);
  }
  void release_unexpected(Unexpected& message) noexcept {
    store_.release(message);
    if (backlog_ && store_.held() <= limits_.unexpected_budget / 2 && limits_.unexpected_budget != 0) [[unlikely]]
      set_backlog(false);
  }
  void set_backlog(bool on) noexcept;
  // Whether a send to `dest` not started yet goes as a rendezvous offer:
  // rendezvous-sized, or its receiver is backlogged.
  bool offers(const Request& request) const noexcept {
    return rendezvous_sized(request) || transport_.backlogged(request.dest);
  }
  // From rndv_threshold, unless pipelined as a reply, or its runs are too
  // short for a single copy (run_copies.cpp streams them packed anyway) and
  // it is below kShortRunsPipelineMax: then the rendezvous round trip buys
  // nothing.
  bool rendezvous_sized(const Request& request) const noexcept {
    if (request.length < limits_.rndv_threshold || request.pipelined_reply) return false;
    return request.length >= kShortRunsPipelineMax || request.layout == nullptr ||
           datatype::mean_run(*request.layout->program) >= limits_.run_copy_min;
  }

  // Rendezvous, the receiver's side, and the route epochs (rendezvous.cpp).
  void start_rendezvous(Request& request, std::uint32_t peer, std::uint64_t address, std::uint64_t cookie,
                        bool peer_can_write) noexcept;
  void start_split(Request& request, std::size_t bytes) noexcept;
  void on_split_done(const MatchHeader& header) noexcept;
  void on_rndv_fragment(const MatchHeader& header, std::span<const std::byte> payload) noexcept;
  void finish_read(Request& request, bool done) noexcept;
  void finish_rendezvous(Request& request) noexcept;
  // try_receive_now's body: `copy(payload, in_box)` writes a taken message's
  // bytes where the receive wants them.
  // `posted`: receives posted (0, or 1 for try_finish_now's own).
  template <class Copy>
  bool receive_now(std::uint32_t peer, const Envelope& want, std::size_t capacity, std::size_t posted, Status& status,
                   Copy&& copy) noexcept;
  // try_send_eager_now's body: `fill(payload)` writes the record's bytes.
  template <class Fill>
  bool try_eager_now(std::uint32_t dest, const Envelope& envelope, std::size_t bytes, Fill&& fill) noexcept;
  void stream_rendezvous(Request& request) noexcept;
  Route join_epoch(Request& request, std::uint32_t peer, std::uint64_t bytes) noexcept;
  void leave_epoch(Request& request) noexcept;
  void spoil_epoch(const Request& request) noexcept;
  // Rendezvous where either side is a RunLayout (run_copies.cpp).
  enum class RunCopy : bool { FromPeer, ToPeer };
  void start_run_rendezvous(Request& request, std::uint32_t peer, bool sender_runs, bool peer_can_write) noexcept;
  void start_run_split(Request& request, std::uint32_t peer, RunSide& mine, RunSide& theirs,
                       std::uint64_t bytes) noexcept;
  bool run_sides(Request& request, std::uint32_t peer, bool sender_runs, RunSide& mine, RunSide& theirs) noexcept;
  bool copy_runs(std::uint32_t peer, RunSide& mine, RunSide& theirs, std::uint64_t from, std::uint64_t to,
                 RunCopy way) noexcept;
  bool write_run_part(const Request& request, std::uint32_t peer, const SplitOffer& offer, bool receiver_runs) noexcept;
  bool fetch(std::uint32_t peer, std::uint64_t address, void* into, std::size_t bytes) noexcept;
  bool fetch_runs(std::uint32_t peer, std::uint64_t address, RunSide& side) noexcept;

  // Cancelling sends that left (withdrawal.cpp).
  bool withdraw(Request& request) noexcept;
  bool answered_rendezvous(const Request& request) const noexcept;
  // Removes the message `notice` names from the unexpected queue: false if
  // it is not there (matched already).
  bool take_back(std::uint32_t peer, const WithdrawNotice& notice) noexcept;
  void on_withdraw(std::uint32_t peer, std::uint64_t cookie, const WithdrawNotice& notice) noexcept;
  void on_withdrawn(const MatchHeader& header) noexcept;
  void withdrawal_answered(Request& request, bool too_late) noexcept;
  // The next first-record sequence number to `peer` / from `peer`.
  std::uint32_t next_sequence_out(std::uint32_t peer) noexcept { return ++sequence_out_[peer]; }
  std::uint32_t next_sequence_in(std::uint32_t peer) noexcept { return ++sequence_in_[peer]; }

  // Peers on other nodes (net_path.cpp).
  void start_net_send(Request& request, const Envelope& envelope) noexcept;
  static bool on_net_arrival(void* self, const net::Arrival& arrival);
  bool net_arrival(const net::Arrival& arrival);
  void net_acknowledge(std::uint32_t peer, std::uint64_t cookie) noexcept;
  void net_withdraw(std::uint32_t peer, std::uint64_t cookie, const WithdrawNotice& notice) noexcept;
  void receive_net(Request& request, Unexpected& message) noexcept;
  bool progress_network() noexcept;
  // Sleeping in two steps, so that a rank's threads take the first holding
  // their lock: false if something came in meanwhile (net_path.cpp).
  bool ready_to_sleep(std::uint32_t& seen) noexcept;
  void sleep_until_traffic(std::uint32_t seen) noexcept;
  // Undoes ready_to_sleep() when the wait turns out to be over.
  void stay_awake() noexcept;

  // Single-copy reads (single_copy_reads.cpp).
  bool single_copy_on() const noexcept { return single_copy_ != nullptr && single_copy_->enabled(); }
  // Whether the `bytes` single copy of `request`'s message from `peer` is
  // split with the sender (contiguous or run to run): large enough, the
  // sender offered to write, and the caller does not read it right after.
  bool shares_copy(const Request& request, std::uint32_t peer, bool peer_can_write, std::size_t bytes) const noexcept {
    return peer_can_write && peer != transport_.rank() && single_copy_on() && limits_.split_threshold != 0 &&
           bytes >= limits_.split_threshold && !request.read_at_once;
  }
  bool read_from(std::uint32_t peer, std::uint64_t address, void* into, std::size_t bytes) noexcept;
  void read_later(Request& request, std::uint32_t peer, std::size_t bytes) noexcept;
  void flush_reads() noexcept;

  btl::Transport& transport_;
  ProtocolLimits limits_;
  WaitPolicy wait_;
  btl::SingleCopy* single_copy_;
  UnexpectedStore store_;  // owns the nodes of unexpected_: declared first, destroyed last
  PostedQueue posted_;
  UnexpectedQueue unexpected_;
  std::vector<Incoming> incoming_;      // by world rank
  std::vector<SendQueue> send_queues_;  // by world rank
  std::uint32_t queued_sends_ = 0;      // in all send_queues_
  std::uint64_t moves_ = 0;             // see moves()
  std::vector<ControlRecord> controls_;  // control records waiting for ring space
  ReadBatch reads_;                      // made by progress()
  // Short-run messages below this are pipelined (rendezvous_sized): osu_halo
  // columns of 8-byte runs, 2026-12-07, on separate cores, took 4.9 us at
  // 16 KiB pipelined against 13.7 as a streamed rendezvous, 42 against 65
  // at 32 KiB. 128 KiB: the rendezvous threshold they were measured at
  // before it came down to 16 KiB.
  static constexpr std::size_t kShortRunsPipelineMax = 128 * 1024;
  RouteChooser routes_;
  std::vector<RouteEpoch> epochs_;  // by world rank
  // By world rank: our rendezvous sends whose offer it has not answered
  // (no Fin or Cts yet). While there are some, the peer is busy copying
  // our messages, and a Cts of ours would wait behind them.
  std::vector<std::uint32_t> rndv_offers_out_;
  // By world rank: 1 once we started a send to it (start_send()), 0 again
  // when a record from it is delivered. A send that finds 0 replies to the peer.
  std::vector<std::uint8_t> sent_since_heard_;
  // By world rank: Eager, FragFirst and Rts records sent to / delivered
  // from it on this node (messages, over the network), so that a Withdraw
  // can name a message by its place on the pair (WithdrawNotice) without
  // a word in every record.
  std::vector<std::uint32_t> sequence_out_;
  std::vector<std::uint32_t> sequence_in_;

  // Counters (see the accessors above).
  std::uint64_t split_parts_written_ = 0;
  std::array<std::uint64_t, 2> routes_taken_{};
  std::uint64_t reads_batched_ = 0;
  std::uint64_t epochs_recorded_ = 0;
  std::uint64_t pipelined_replies_ = 0;
  std::uint64_t messages_withdrawn_ = 0;
  std::uint64_t run_copies_ = 0;  // rendezvous messages copied between runs (run_copies.cpp)
  bool backlog_ = false;          // our backlog flag is up (set_backlog())
  std::uint64_t backlogs_raised_ = 0;
  std::uint64_t sends_held_back_ = 0;
  TrafficStats stats_;  // counted where each message's protocol is decided

  // Peers on other nodes: none unless use_network() was called.
  net::Network* network_ = nullptr;
  std::vector<std::uint8_t> remote_;  // by world rank: 1 if through network_
  std::uint32_t rounds_ = 0;          // of progress(), to poll network_ every kNetworkEvery
  int local_wake_fd_ = -1;            // with network_: the eventfd our local peers wake us by
  // An idle ucp_worker_progress costs ~150 ns and a system call on tcp
  // (DESIGN.md): progress() polls the network on one round in this many.
  static constexpr std::uint32_t kNetworkEvery = 4;
};

template <class Done, class Watch>
void Pml::wait_until(Done&& done, Watch&& watch) noexcept {
  for (std::uint32_t polls = 0; polls < kPollsBeforeLongWait; ++polls) {
    if (done()) return;
    if (const Turn turn = watch.take_turn(done); turn != Turn::Progress) {
      if (turn == Turn::Done) return;
      continue;
    }
    if (!progress()) {
      if (wait_.long_at_once) break;
      pace(polls);
    }
    watch.between_rounds();
  }
  if (done()) return;
  watch.long_wait();
  wait_long(done, watch);
  watch.long_wait_over();
}

// The yield phase ends after yields_before_sleep yields or yield_ns,
// whichever comes first: on a loaded node one yield can hand the core away
// for a whole time slice, and thousands of them would keep a waiter awake
// (and runnable) for minutes.
inline bool Pml::yielded_enough(std::uint32_t yields, std::uint64_t& yielding_since) const noexcept {
  if (yields >= wait_.yields_before_sleep) return true;
  const std::uint64_t now = btl::monotonic_ns();
  if (yields == 1) yielding_since = now;
  return now - yielding_since >= wait_.yield_ns;
}

template <class Done, class Watch>
void Pml::wait_long(Done& done, Watch& watch) noexcept {
  std::uint32_t idle = 0;
  std::uint32_t yields = 0;
  std::uint64_t yielding_since = 0;
  while (!done()) {
    if (const Turn turn = watch.take_turn(done); turn != Turn::Progress) {
      if (turn == Turn::Done) return;
      continue;
    }
    if (progress()) {
      idle = yields = 0;
    } else if (idle < wait_.spins_before_yield) {
      pace(idle++);  // spin: the answer is usually a fraction of a microsecond away
    } else if (wait_.yields_before_sleep != 0 && yielded_enough(++yields, yielding_since) && owes_nothing()) {
      // and again, until something moves
      // done() is asked again once the peers can see we sleep: what we wait
      // for may be a word a peer stores outside our channels (a collective
      // slot), whose writer looks at our doorbell after a fence
      // (Transport::wake_if_sleeping). done() is not asked again after true.
      std::uint32_t seen = 0;
      bool over = false;
      const auto ready = [&] {
        if (!ready_to_sleep(seen)) return false;
        std::atomic_thread_fence(std::memory_order_seq_cst);
        over = done();
        if (over) stay_awake();
        return !over;
      };
      watch.sleep(wait_.sleep_ns, ready, [&] { sleep_until_traffic(seen); });
      if (over) return;
      yields = wait_.yields_before_sleep;
    } else {
      watch.unlocked([] { ::sched_yield(); });
    }
    watch.between_rounds();
  }
}

}  // namespace shmpi::pml
