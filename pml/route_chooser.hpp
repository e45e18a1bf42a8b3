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
// Only sizes from `first` (the rendezvous threshold) up to 4x that are
// chosen for; above them single copy wins either way (measured). Each
// power-of-two size bucket keeps a route in use and now and then tries the
// other for as many epochs as it takes to time kTryMessages messages (one
// osu_bw window; four ping-pongs). Both are judged by their cheapest
// epoch of the last kWindow: a route's first messages after a change run
// cold (a lone single copy amid streamed ones cost 1.4x a warm one, and
// the first epoch of a run far more: it is not counted), and one preempted
// epoch must not flip the choice. The first try comes once kTryMessages
// were timed on the route in use; the next kFirstGap epochs after a try
// that won or came close, four times the previous gap (up to kMaxGap)
// after one that lost clearly, and at once when the route in use has
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
  static constexpr std::uint32_t kFirstGap = 16;    // epochs from a try to the next
  static constexpr std::uint32_t kMaxGap = 1024;
  static constexpr std::uint32_t kMaxTryEpochs = 2 * kTryMessages;  // then a try never timed is given up
  static constexpr int kBuckets = 2;  // [first, 2 first) and [2 first, 4 first)

  // `first`: the smallest rendezvous message (0: never choose).
  explicit RouteChooser(std::uint64_t first = 0) noexcept : first_(first) {}

  // False when told never to choose (`first` 0).
  bool enabled() const noexcept { return first_ != 0; }

  // True if messages of `bytes` have their route chosen here.
  bool chooses(std::uint64_t bytes) const noexcept { return bucket_of(bytes) >= 0; }

  // True if messages of `a` and `b` bytes are chosen for together.
  bool same_bucket(std::uint64_t a, std::uint64_t b) const noexcept { return bucket_of(a) == bucket_of(b); }

  // The route for an epoch starting with a message of `bytes`.
  Route choose(std::uint64_t bytes) noexcept {
    const int b = bucket_of(bytes);
    if (b < 0) return Route::SingleCopy;
    Bucket& bucket = buckets_[static_cast<std::size_t>(b)];
    ++bucket.epochs;
    if (bucket.trying) {
      if (++bucket.try_epochs <= kMaxTryEpochs) return other(bucket.in_use);
      bucket.trying = false;  // its epochs were never timed (spoiled): give it up
      bucket.next_try = bucket.epochs + bucket.gap;
    }
    if (bucket.epochs < bucket.next_try || bucket.in_use_messages < kTryMessages) return bucket.in_use;
    bucket.trying = true;
    bucket.try_epochs = 1;
    bucket.try_messages = 0;
    bucket.samples[index(other(bucket.in_use))] = Samples{};  // judged by this try alone
    return other(bucket.in_use);
  }

  // An epoch by `route` of `messages` messages of `bytes` moved
  // `total_bytes` in `ticks` (of any clock, the same for every call).
  void record(Route route, std::uint64_t bytes, std::uint64_t total_bytes, std::uint32_t messages,
              std::uint64_t ticks) noexcept {
    const int b = bucket_of(bytes);
    if (b < 0 || total_bytes == 0) return;
    Bucket& bucket = buckets_[static_cast<std::size_t>(b)];
    if (!bucket.warm) {  // the first epoch pays for fresh pages: says nothing of its route
      bucket.warm = true;
      return;
    }
    Samples& samples = bucket.samples[index(route)];
    samples.add(ticks * kScale / total_bytes + 1);  // never 0: 0 marks an empty slot
    if (route == bucket.in_use) {
      bucket.in_use_messages += messages;
      // The route in use became dearer than the other's last try: try
      // that again at once rather than after the gap.
      if (!bucket.trying && least(samples) > least(bucket.samples[index(other(route))]))
        bucket.next_try = bucket.epochs + 1;
      return;
    }
    if (!bucket.trying || (bucket.try_messages += messages) < kTryMessages) return;
    // The try is over: judged by its cheapest recent epoch, as the route in
    // use is. One clearly dearer makes the next try wait four times as
    // long (up to kMaxGap epochs), so a losing route costs less and less;
    // a close or winning one is tried again soon.
    bucket.trying = false;
    const std::uint64_t tried = least(samples);
    const std::uint64_t in_use = least(bucket.samples[index(bucket.in_use)]);
    if (tried < in_use) {
      bucket.in_use = route;
      bucket.in_use_messages = bucket.try_messages;
      bucket.gap = kFirstGap;
    } else if (tried * 4 >= in_use * 5) {  // 1.25x dearer or more
      bucket.gap = bucket.gap * 4 > kMaxGap ? kMaxGap : bucket.gap * 4;
    } else {
      bucket.gap = kFirstGap;
    }
    bucket.next_try = bucket.epochs + bucket.gap;
  }

  // The route in use for `bytes` (SingleCopy outside the chosen sizes).
  Route in_use(std::uint64_t bytes) const noexcept {
    const int b = bucket_of(bytes);
    return b < 0 ? Route::SingleCopy : buckets_[static_cast<std::size_t>(b)].in_use;
  }

  // The current cost per byte of `route` for `bytes` (scaled; 0: unknown).
  std::uint64_t cost(Route route, std::uint64_t bytes) const noexcept {
    const int b = bucket_of(bytes);
    const std::uint64_t c = b < 0 ? kUnknown : least(buckets_[static_cast<std::size_t>(b)].samples[index(route)]);
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
  struct Bucket {
    std::array<Samples, 2> samples{};  // by route
    Route in_use = Route::SingleCopy;
    bool warm = false;                  // an epoch was recorded
    bool trying = false;                // epochs go to the other route
    std::uint32_t epochs = 0;           // chosen
    std::uint32_t try_epochs = 0;       // chosen for the current try
    std::uint32_t try_messages = 0;     // timed in the current try
    std::uint32_t in_use_messages = 0;  // timed on the route in use
    std::uint32_t next_try = 0;         // first epoch that may try the other route
    std::uint32_t gap = kFirstGap;
  };

  static std::uint64_t least(const Samples& samples) noexcept {
    std::uint64_t best = kUnknown;
    for (std::uint64_t s : samples.recent)
      if (s != 0 && s < best) best = s;
    return best;
  }
  static std::size_t index(Route route) noexcept { return static_cast<std::size_t>(route); }
  static Route other(Route route) noexcept { return route == Route::SingleCopy ? Route::Stream : Route::SingleCopy; }
  int bucket_of(std::uint64_t bytes) const noexcept {
    if (first_ == 0 || bytes < first_) return -1;
    int b = 0;
    for (std::uint64_t edge = 2 * first_; bytes >= edge; edge *= 2)
      if (++b == kBuckets) return -1;
    return b;
  }

  std::uint64_t first_;
  std::array<Bucket, kBuckets> buckets_{};
};

}  // namespace shmpi::pml
