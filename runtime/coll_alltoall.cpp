// Alltoall(v,w) schedules.
#include <algorithm>

#include "runtime/coll_schedules.hpp"

namespace shmpi::runtime {
namespace {

// Blocks up to this size are all exchanged in one round.
constexpr std::size_t kOneRoundLimit = 8 * 1024;

}  // namespace

void build_alltoall(Schedule& s, const Blocks& send, const Blocks& recv) {
  const std::int32_t n = s.size();
  const std::int32_t rank = s.rank();
  s.copy(send.at(rank), recv.at(rank), recv.size_of(rank));
  s.end_round();
  const std::size_t largest = std::max(*std::max_element(send.bytes.begin(), send.bytes.end()),
                                       *std::max_element(recv.bytes.begin(), recv.bytes.end()));
  const bool one_round = largest <= kOneRoundLimit;
  // Step k: send to rank + k, receive from rank - k (a zero-size block is
  // skipped on both sides: MPI makes the sizes agree).
  for (std::int32_t k = 1; k < n; ++k) {
    const std::int32_t to = (rank + k) % n;
    const std::int32_t from = (rank - k + n) % n;
    if (recv.size_of(from) != 0) s.recv(from, recv.at(from), recv.size_of(from));
    if (send.size_of(to) != 0) s.send(to, send.at(to), send.size_of(to));
    if (!one_round) s.end_round();
  }
  s.end_round();
}

}  // namespace shmpi::runtime
