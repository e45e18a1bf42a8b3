// Scan and exscan schedules.
#include <utility>

#include "runtime/coll_schedules.hpp"

namespace shmpi::runtime {

// Round `mask` exchanges with rank ^ mask. `partial` holds the reduction of
// our aligned block of `mask` ranks, the result that of ranks 0..rank (or
// 0..rank-1): a lower partner's partial is combined into both, a higher
// partner's only into partial.
void build_scan(Schedule& s, const void* send, void* recv, std::size_t count, bool exclusive) {
  const std::size_t bytes = count * s.operation().element_bytes;
  const std::int32_t n = s.size();
  const std::int32_t rank = s.rank();
  std::byte* partial = s.scratch(bytes);
  std::byte* incoming = s.scratch(bytes);
  auto* result = static_cast<std::byte*>(recv);
  s.copy(send, partial, bytes);  // first: with MPI_IN_PLACE `send` is `recv`
  if (!exclusive) s.copy(send, result, bytes);
  s.end_round();
  bool have_result = !exclusive;
  for (std::int32_t mask = 1; mask < n; mask <<= 1) {
    const std::int32_t partner = rank ^ mask;
    if (partner >= n) continue;
    s.recv(partner, incoming, bytes);
    s.send(partner, partial, bytes);
    if (partner < rank) {
      if (have_result)
        s.reduce(incoming, result, count);
      else
        s.copy(incoming, result, bytes);
      have_result = true;
      s.reduce(incoming, partial, count);
    } else {
      s.reduce(partial, incoming, count);
      std::swap(partial, incoming);
    }
    s.end_round();
  }
}

}  // namespace shmpi::runtime
