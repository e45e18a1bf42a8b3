// RouteChooser: how the payloads of rendezvous messages travel, chosen from
// what each way has cost lately for that size:
// - SingleCopy: the receiver reads it out of the sender (CMA), sharing a
//   large copy with the sender (split);
// - Stream: the receiver answers Cts and the sender streams it through the
//   ring, both cores copying at once.
//
// Why choose at run time: single copy costs about the same wherever the two
// ranks run (128 KiB: ~6.8 us here, mostly pinning pages), while streaming
// runs twice as fast when the ranks share a core's caches (4.3 us) as when
// they do not (9 us). No fixed threshold suits both, and on these VMs the
// placement changes within seconds.
//
// The unit of choice is an epoch: a busy period of one peer's rendezvous
// messages to us, from the start of one while none was in progress to the
// end of the last one that overlapped it (a ping-pong has one message per
// epoch, a window of osu_bw one epoch). All messages of an epoch take its
// route, and its cost is its duration per byte. Judging single messages
// instead failed in a stream: each one's cost depends on what the ones
// before it still held (a streamed message queued behind the sender's
// split writes; split reads done early looked free).
//
// Only sizes from `first` (the rendezvous threshold) to twice that are
// chosen for: with a threshold of 128 KiB (general's default until
// 2026-12-07; 16 KiB now), from 256 KiB
// single copy was as fast or faster in both placements (measured on EPYC:
// osu_bw 256 KiB 39-41 GB/s by single copy, 37 by streaming, even where the
// ranks share caches). The route in use is kept
// and now and then the other is tried for as many epochs as it takes to
// time kTryMessages messages (one osu_bw window; four ping-pongs). Both are
// judged by their cheapest epoch of the last kWindow: a route's first
// messages after a change run cold (a lone single copy amid streamed ones
// cost 1.4x a warm one, and the first epoch of a run far more: it is not
// counted), and one preempted epoch must not flip the choice. The first
// try comes once kTryMessages were timed on the route in use; the next
// kFirstGap epochs after a try that won, four times the previous gap (up
// to kMaxGap) after one that lost, and at once when the route in use has
// become dearer than the other's last try.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace shmpi::pml {

enum class Route : std::uint8_t { SingleCopy = 0, Stream = 1 };

class RouteChooser {
 public:
  static constexpr std::uint32_t kTryMessages = 4;  // a try lasts until this many were timed
  static constexpr std::uint32_t kFirstGap = 16;    // epochs from a try that won to the next
  static constexpr std::uint32_t kMaxGap = 1024;
  static constexpr std::uint32_t kMaxTryEpochs = 2 * kTryMessages;  // then a try never timed is given up

  // `first`: the smallest rendezvous message (0: never choose).
  explicit RouteChooser(std::uint64_t first = 0) noexcept : first_(first) {}

  // False when told never to choose (`first` 0).
  bool enabled() const noexcept { return first_ != 0; }

  // True if messages of `bytes` have their route chosen here.
  bool chooses(std::uint64_t bytes) const noexcept { return first_ != 0 && bytes >= first_ && bytes < 2 * first_; }

  // The route for an epoch of chosen sizes.
  Route choose() noexcept {
    ++epochs_;
    if (trying_) {
      if (++try_epochs_ <= kMaxTryEpochs) return other(in_use_);
      trying_ = false;  // its epochs were never timed (spoiled): give it up
      next_try_ = epochs_ + gap_;
    }
    if (epochs_ < next_try_ || in_use_messages_ < kTryMessages) return in_use_;
    trying_ = true;
    try_epochs_ = 1;
    try_messages_ = 0;
    samples_[index(other(in_use_))] = Samples{};  // judged by this try alone
    return other(in_use_);
  }

  // An epoch by `route` of `messages` messages moved `bytes` in `ticks`
  // (of any clock, the same for every call).
  void record(Route route, std::uint64_t bytes, std::uint32_t messages, std::uint64_t ticks) noexcept {
    if (bytes == 0) return;
    if (!warm_) {  // the first epoch pays for fresh pages: says nothing of its route
      warm_ = true;
      return;
    }
    Samples& samples = samples_[index(route)];
    samples.add(ticks * kScale / bytes + 1);  // never 0: 0 marks an empty slot
    if (route == in_use_) {
      in_use_messages_ += messages;
      // The route in use became dearer than the other's last try: try
      // that again at once rather than after the gap.
      if (!trying_ && least(samples) > least(samples_[index(other(route))])) next_try_ = epochs_ + 1;
      return;
    }
    if (!trying_ || (try_messages_ += messages) < kTryMessages) return;
    // The try is over: judged by its cheapest recent epoch, as the route in
    // use is. A try that loses makes the next one wait four times as long
    // (up to kMaxGap epochs): the route in use getting dearer is noticed
    // at once anyway, so the tries only watch for the other getting cheaper.
    trying_ = false;
    if (least(samples) < least(samples_[index(in_use_)])) {
      in_use_ = route;
      in_use_messages_ = try_messages_;
      gap_ = kFirstGap;
    } else {
      gap_ = gap_ * 4 > kMaxGap ? kMaxGap : gap_ * 4;
    }
    next_try_ = epochs_ + gap_;
  }

  // The route in use for chosen sizes.
  Route in_use() const noexcept { return in_use_; }

  // The current cost per byte of `route` (scaled; 0: unknown).
  std::uint64_t cost(Route route) const noexcept {
    const std::uint64_t c = least(samples_[index(route)]);
    return c == kUnknown ? 0 : c;
  }

 private:
  static constexpr std::uint64_t kScale = 1 << 16;  // cost unit: ticks / 65536 bytes
  static constexpr std::size_t kWindow = 4;
  static constexpr std::uint64_t kUnknown = UINT64_MAX;  // the cost of an empty window
  struct Samples {
    std::array<std::uint64_t, kWindow> recent{};  // 0 = empty
    std::uint32_t next = 0;
    void add(std::uint64_t sample) noexcept { recent[next++ % kWindow] = sample; }
  };

  static std::uint64_t least(const Samples& samples) noexcept {
    std::uint64_t best = kUnknown;
    for (std::uint64_t s : samples.recent)
      if (s != 0 && s < best) best = s;
    return best;
  }
  static std::size_t index(Route route) noexcept { return static_cast<std::size_t>(route); }
  static Route other(Route route) noexcept { return route == Route::SingleCopy ? Route::Stream : Route::SingleCopy; }

  std::uint64_t first_;
  std::array<Samples, 2> samples_{};  // by route
  Route in_use_ = Route::SingleCopy;
  bool warm_ = false;                  // an epoch was recorded
  bool trying_ = false;                // epochs go to the other route
  std::uint32_t epochs_ = 0;           // chosen
  std::uint32_t try_epochs_ = 0;       // chosen for the current try
  std::uint32_t try_messages_ = 0;     // timed in the current try
  std::uint32_t in_use_messages_ = 0;  // timed on the route in use
  std::uint32_t next_try_ = 0;         // first epoch that may try the other route
  std::uint32_t gap_ = kFirstGap;
};

// An epoch in progress: one peer's rendezvous messages to us, from the start
// of one while none was in progress to the end of the last one.
struct RouteEpoch {
  std::uint64_t started = 0;  // the clock when it opened (any clock, the one record() is told)
  std::uint64_t bytes = 0;    // moved by its messages so far
  std::uint32_t in_flight = 0;
  std::uint32_t messages = 0;
  Route route = Route::SingleCopy;
  bool clean = true;  // all its messages of chosen sizes, on its route, without a fallback
};

}  // namespace shmpi::pml
