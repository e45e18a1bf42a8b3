// Pml: MPI point-to-point matching and protocols over the btl (the wire
// format and protocols are described in pml/protocol.hpp).
//
// Messages to one peer leave in the order their sends started (one send
// queue per peer). Arriving messages are matched against the posted
// receives; unmatched ones are kept as Unexpected records until a receive
// or a matched probe claims them. Control records the receive side owes
// (Ack, Cts, Fin) go out at once, or wait in a per-peer control queue when
// the ring is full, so a handler never blocks.
//
// Single-threaded: the caller serialises every call (MPI_THREAD_SERIALIZED).
#pragma once

#include <sched.h>
#include <sys/types.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "btl/between_polls.hpp"
#include "btl/single_copy.hpp"
#include "btl/transport.hpp"
#include "pml/matcher.hpp"
#include "pml/protocol.hpp"
#include "pml/request.hpp"
#include "pml/route_chooser.hpp"
#include "pml/traffic_stats.hpp"
#include "pml/unexpected_store.hpp"

namespace shmpi::pml {

struct ProtocolLimits {
  std::size_t eager_limit = 4096;       // largest single-record message
  std::size_t max_fragment = 16384;     // largest fragment payload
  std::size_t rndv_threshold = 16384;   // smallest rendezvous message
  std::size_t split_threshold = 0;      // smallest single copy shared with the sender (0: never)
  bool choose_route = false;            // rendezvous: single copy or streaming chosen per epoch (RouteChooser)
  // Rendezvous-sized messages below this are pipelined instead when they
  // answer the peer with nothing else of ours in flight to it (0: never).
  std::size_t pingpong_limit = 0;
};

struct WaitPolicy {
  // Failed progress rounds before a waiting rank starts yielding its core
  // after each further failed round; 0 yields at once (oversubscribed
  // jobs), UINT32_MAX never yields.
  std::uint32_t spins_before_yield = 1u << 14;
  // Yields without progress before the rank sleeps on its doorbell until a
  // peer sends (futex, bounded by sleep_ns); 0 never sleeps.
  std::uint32_t yields_before_sleep = 0;
  long sleep_ns = 1'000'000;
  // Pause instructions after each poll that found nothing (0: an lfence);
  // see btl::between_polls().
  std::uint32_t pauses_between_polls = 0;
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

  // Starts sending `bytes` from `buffer` to world rank `dest`. The request
  // completes when the buffer may be reused (and, in synchronous mode, once
  // the receiver matched it). `envelope.source` is our communicator rank.
  void start_send(Request& request, std::uint32_t dest, const Envelope& envelope, const void* buffer,
                  std::size_t bytes, SendMode mode = SendMode::Standard);

  // How this rank waits (the policy it was built with).
  const WaitPolicy& wait_policy() const noexcept { return wait_; }

  // Starts a receive of at most `capacity` bytes matching `want`.
  void start_recv(Request& request, const Envelope& want, void* buffer, std::size_t capacity);

  // Fast paths of the blocking calls: a small ping-pong's critical path
  // without a request in the send queue, a posted receive, or a round of
  // progress over every peer. (osu_latency_floor, 0 bytes, placement with a
  // 0.065 us hand-off: 1.43x the floor without them, 1.17x with them.)
  //
  // Sends a standard-mode message of one eager record now if nothing of
  // ours to `dest` is queued and the channel has room. True if sent (the
  // buffer may be reused); false: the caller start_send()s.
  bool try_send_eager_now(std::uint32_t dest, const Envelope& envelope, const void* buffer,
                          std::size_t bytes) noexcept;
  // Receives from world rank `peer` (want.source: its rank in the
  // communicator) by watching the peer's fast box for a while, if no other
  // receive is posted, nothing of ours waits to be sent, and no message that
  // arrived earlier matches: takes a matching eager record that fits
  // `capacity` straight out of the box, with no request. True if received
  // so, with the message's source, tag and length in `status` (only those:
  // the rest of a Status means nothing here); false once anything else
  // arrives or nothing does for a while (the caller then start_recv()s and
  // waits).
  bool try_receive_boxed(std::uint32_t peer, const Envelope& want, void* buffer, std::size_t capacity,
                         Status& status) noexcept;

  // Polls every inbound ring and pushes queued records. True if anything moved.
  bool progress() noexcept;

  // Progresses until done() is true, yielding the core after a while
  // without progress when the wait policy says so.
  template <class Done>
  void wait_until(Done&& done) noexcept {
    std::uint32_t idle = 0;
    std::uint32_t yields = 0;
    while (!done()) {
      if (progress()) {
        idle = yields = 0;
      } else if (idle < wait_.spins_before_yield) {
        // Spin: the answer is usually a fraction of a microsecond away.
        btl::between_polls(idle++, wait_.pauses_between_polls);
      } else if (wait_.yields_before_sleep != 0 && ++yields >= wait_.yields_before_sleep && can_sleep()) {
        transport_.wait_for_records(wait_.sleep_ns);  // and again, until something moves
        yields = wait_.yields_before_sleep;
      } else {
        ::sched_yield();
      }
    }
  }

  // Progresses until `request` completes.
  void wait(Request& request) noexcept {
    wait_until([&request] { return request.complete; });
  }

  // The earliest pending message matching `want`, if any (after one round
  // of progress). The message stays pending.
  bool probe(const Envelope& want, ProbeResult& result) noexcept;

  // Matched probe: removes the earliest matching message from matching and
  // returns it (nullptr if none), to be received by start_mrecv.
  Unexpected* take_message(const Envelope& want, ProbeResult& result) noexcept;
  void start_mrecv(Request& request, Unexpected& message, void* buffer, std::size_t capacity) noexcept;

  // Cancels a receive still waiting for a message, or a send none of which
  // has left yet. True if cancelled (the request is then complete).
  bool cancel(Request& request) noexcept;

  // Nothing of ours waits for ring space, so only a peer's record can
  // make progress possible: safe to sleep until one arrives.
  bool can_sleep() const noexcept { return queued_sends_ == 0 && controls_.empty() && pending_reads_ == 0; }

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
  // Rendezvous-sized sends pipelined as ping-pong answers (pingpong_limit).
  std::uint64_t pipelined_answers() const noexcept { return pipelined_answers_; }
  // What our traffic did, for the run report (pml/traffic_stats.hpp).
  const TrafficStats& stats() const noexcept { return stats_; }
  // The most unexpected messages held at once.
  std::size_t unexpected_peak() const noexcept { return store_.peak(); }

 private:
  // Polls of the peer's box before try_receive_boxed() gives up (a few
  // microseconds: longer than a small message's round trip).
  static constexpr std::uint32_t kBoxedSpins = 1024;

  // Single-copy reads of rendezvous messages below this size wait, up to
  // btl::SingleCopy::kMaxPieces from one peer, for the end of the round of
  // progress and are then made in one system call (osu_bw 4 KiB streams
  // one such read per message; batched, each cost half as much). 128 KiB
  // rather than 64: osu_bw 64 KiB 25.5 -> 29.7 GB/s, osu_bibw 42.7 -> 54.7
  // (4 interleaved runs); larger ones are split or cost far more than a call.
  static constexpr std::size_t kBatchedReadMax = 128 * 1024;
  struct PendingRead {
    Request* request = nullptr;
    std::uint64_t address = 0;
    std::size_t bytes = 0;
  };

  // The pipelined message currently streaming in on one peer's ring.
  struct Incoming {
    Request* request = nullptr;        // matched receive, or
    Unexpected* unexpected = nullptr;  // unmatched message being buffered
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
  };
  // A busy period of one peer's rendezvous messages to us (see
  // pml/route_chooser.hpp): from the start of one while none was in
  // progress to the end of the last one.
  struct RouteEpoch {
    std::uint64_t started = 0;      // ticks() when it opened
    std::uint64_t bytes = 0;        // moved by its messages so far
    std::uint32_t in_flight = 0;
    std::uint32_t messages = 0;
    Route route = Route::SingleCopy;
    bool clean = true;  // all its messages of chosen sizes, on its route, without a fallback
  };
  struct SendQueue {
    Request* head = nullptr;
    Request* tail = nullptr;
  };
  // A control record owed to a peer: header fields and a small payload.
  struct Control {
    std::uint32_t peer = 0;
    RecordKind kind = RecordKind::Fin;
    std::uint8_t flags = 0;
    std::uint64_t cookie = 0;    // the header's length field
    std::uint8_t payload_bytes = 0;
    std::byte payload[sizeof(SplitOffer)] = {};

    template <class T>
    static Control with(std::uint32_t peer, RecordKind kind, const T& body) noexcept {
      static_assert(sizeof(T) <= sizeof(payload));
      Control c{peer, kind};
      c.payload_bytes = sizeof(T);
      std::memcpy(c.payload, &body, sizeof(T));
      return c;
    }
  };

  // Send side (send_path.cpp).
  void enqueue(Request& request) noexcept;
  bool push(Request& request) noexcept;
  bool push_eager(Request& request, btl::ChannelWriter& channel) noexcept;
  bool push_rts(Request& request, btl::ChannelWriter& channel) noexcept;
  bool push_fragments(Request& request, btl::ChannelWriter& channel, RecordKind first, RecordKind rest) noexcept;
  void push_queued(std::uint32_t peer) noexcept;
  void send_control(const Control& control) noexcept;
  bool try_control(const Control& control) noexcept;
  void flush_controls() noexcept;

  // Receive side (receive_path.cpp).
  void on_record(std::uint32_t peer, std::span<const std::byte> body);
  void on_first(std::uint32_t peer, const MatchHeader& header, std::span<const std::byte> payload);
  void on_fragment(std::uint32_t peer, std::span<const std::byte> payload) noexcept;
  void on_control(std::uint32_t peer, const MatchHeader& header, std::span<const std::byte> payload) noexcept;
  void on_rndv_fragment(const MatchHeader& header, std::span<const std::byte> payload) noexcept;
  void claim(Request& request, Unexpected& message) noexcept;
  void start_rendezvous(Request& request, std::uint32_t peer, std::uint64_t address, std::uint64_t cookie,
                        bool peer_can_write) noexcept;
  void start_split(Request& request, std::size_t bytes) noexcept;
  bool single_copy_on() const noexcept { return single_copy_ != nullptr && single_copy_->enabled(); }
  void on_split(std::uint32_t peer, const SplitOffer& offer) noexcept;
  void on_split_done(std::uint32_t peer, const MatchHeader& header) noexcept;
  bool read_from(std::uint32_t peer, std::uint64_t address, void* into, std::size_t bytes) noexcept;
  void read_later(Request& request, std::uint32_t peer, std::size_t bytes) noexcept;
  void flush_reads() noexcept;
  void finish_read(Request& request, bool done) noexcept;
  void finish_rendezvous(Request& request) noexcept;
  void stream_rendezvous(Request& request) noexcept;
  Route join_epoch(Request& request, std::uint32_t peer, std::uint64_t bytes) noexcept;
  void leave_epoch(Request& request) noexcept;
  void spoil_epoch(const Request& request) noexcept;
  void acknowledge(std::uint32_t peer, std::uint64_t cookie) noexcept;

  btl::Transport& transport_;
  ProtocolLimits limits_;
  WaitPolicy wait_;
  btl::SingleCopy* single_copy_;
  UnexpectedStore store_;  // owns the nodes of unexpected_: declared first, destroyed last
  PostedQueue posted_;
  UnexpectedQueue unexpected_;
  std::vector<Incoming> incoming_;      // by world rank
  std::vector<SendQueue> send_queues_;  // by world rank
  std::vector<Control> controls_;       // control records waiting for ring space
  std::array<PendingRead, btl::SingleCopy::kMaxPieces> reads_{};  // batched single-copy reads, all from
  std::uint32_t pending_reads_ = 0;                                 // reads_peer_; flushed by progress()
  std::uint32_t reads_peer_ = 0;
  std::uint64_t reads_batched_ = 0;
  std::uint32_t queued_sends_ = 0;
  std::uint64_t split_parts_written_ = 0;
  RouteChooser routes_;
  std::vector<RouteEpoch> epochs_;  // by world rank
  // By world rank: our rendezvous sends whose offer it has not answered
  // (no Fin or Cts yet). While there are some, the peer is busy copying
  // our messages, and a Cts of ours would wait behind them.
  std::vector<std::uint32_t> rndv_offers_out_;
  // By world rank: 1 once we started a send to it (start_send()), 0 again
  // when a record from it is delivered. A send that finds 0 answers the peer.
  std::vector<std::uint8_t> sent_since_heard_;
  std::uint64_t pipelined_answers_ = 0;
  std::array<std::uint64_t, 2> routes_taken_{};
  std::uint64_t epochs_recorded_ = 0;
  TrafficStats stats_;  // counted where each message's protocol is decided
};

}  // namespace shmpi::pml
