// Barrier and broadcast schedules, and the Blocks helper.
#include "runtime/coll_schedules.hpp"

namespace shmpi::runtime {

Blocks Blocks::uniform(const void* base, std::size_t each, std::int32_t n) {
  Blocks b;
  b.base = static_cast<std::byte*>(const_cast<void*>(base));  // a send side is only read
  b.bytes.assign(static_cast<std::size_t>(n), each);
  b.offset.resize(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < b.offset.size(); ++i) b.offset[i] = i * each;
  return b;
}

void build_barrier(Schedule& s) {
  const std::int32_t n = s.size();
  for (std::int32_t distance = 1; distance < n; distance <<= 1) {
    s.recv((s.rank() - distance + n) % n, nullptr, 0);
    s.send((s.rank() + distance) % n, nullptr, 0);
    s.end_round();
  }
}

void build_bcast(Schedule& s, void* buffer, std::size_t bytes, std::int32_t root) {
  const std::int32_t n = s.size();
  const std::int32_t me = (s.rank() - root + n) % n;
  const auto actual = [&](std::int32_t relative) { return (relative + root) % n; };
  // Our parent is `me` without its lowest set bit; our children are
  // me + mask for every power of two below that bit, largest subtree first.
  std::int32_t mask = 1;
  for (; mask < n; mask <<= 1) {
    if (me & mask) {
      s.recv(actual(me - mask), buffer, bytes);
      s.end_round();
      break;
    }
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (me + mask < n) s.send(actual(me + mask), buffer, bytes);
  s.end_round();
}

}  // namespace shmpi::runtime
