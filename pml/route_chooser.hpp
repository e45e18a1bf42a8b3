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
// power-of-two size bucket keeps a route in use, judged by the cheapest of
// its last kWindow epochs (one preempted epoch does not flip it), and tries
// the other now and then, judged by that one epoch: first on the third
// epoch (the first pays for cold pages), then kFirstGap epochs after a try
// that won or came close, twice the previous gap (up to kMaxGap) after one
// that lost clearly, and at once when the route in use has become dearer
// than the other's last try. After a try the cheaper route is in use.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace shmpi::pml {

enum class Route : std::uint8_t { SingleCopy = 0, Stream = 1 };

class RouteChooser {
 public:
  static constexpr std::uint32_t kFirstGap = 16;  // epochs from a try to the next
  static constexpr std::uint32_t kMaxGap = 256;
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
    if (++bucket.epochs < bucket.next_try) return bucket.in_use;
    bucket.next_try = bucket.epochs + bucket.gap;  // again then should this try never be told
    bucket.trying = true;
    return other(bucket.in_use);
  }

  // An epoch by `route` of messages of `bytes` moved `total_bytes` in `ns`.
  void record(Route route, std::uint64_t bytes, std::uint64_t total_bytes, std::uint64_t ns) noexcept {
    const int b = bucket_of(bytes);
    if (b < 0 || total_bytes == 0) return;
    Bucket& bucket = buckets_[static_cast<std::size_t>(b)];
    Samples& samples = bucket.samples[index(route)];
    const std::uint64_t sample = ns * kScale / total_bytes + 1;  // never 0: 0 marks an empty slot
    if (route == bucket.in_use || !bucket.trying) {
      samples.add(sample);
      // The route in use became dearer than the other's last try: try
      // that again at once rather than after the gap.
      if (route == bucket.in_use && least(samples) > least(bucket.samples[index(other(route))]) &&
          bucket.next_try > bucket.epochs + 1)
        bucket.next_try = bucket.epochs + 1;
      return;
    }
    // A try, judged by itself. One clearly dearer makes the next try wait
    // twice as long (up to kMaxGap epochs), so a route that loses keeps
    // costing less and less; a close or winning one is tried again soon.
    bucket.trying = false;
    samples = Samples{};
    samples.add(sample);
    const std::uint64_t in_use = least(bucket.samples[index(bucket.in_use)]);
    if (sample < in_use) {
      bucket.in_use = route;
      bucket.gap = kFirstGap;
    } else if (sample * 4 >= in_use * 5) {  // 1.25x dearer or more
      bucket.gap = bucket.gap * 2 > kMaxGap ? kMaxGap : bucket.gap * 2;
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
  static constexpr std::uint64_t kScale = 1 << 16;  // cost unit: ns / 65536 bytes
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
    bool trying = false;           // the other route's try is out
    std::uint32_t epochs = 0;      // chosen
    std::uint32_t next_try = 3;    // epoch that tries the other route (the first is cold)
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
