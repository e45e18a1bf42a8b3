#include "runtime/bsend_buffer.hpp"

#include <algorithm>
#include <limits>

namespace shmpi::runtime {

std::optional<std::size_t> BsendBuffer::allocate(std::size_t bytes) {
  if (bytes > std::numeric_limits<std::size_t>::max() - MPI_BSEND_OVERHEAD) return std::nullopt;
  const std::size_t need = slot_bytes(bytes);
  std::size_t at = 0;
  auto it = blocks_.begin();
  for (; it != blocks_.end(); ++it) {
    if (it->offset - at >= need) break;
    at = it->offset + it->bytes;
  }
  if (it == blocks_.end() && (at > size_ || size_ - at < need)) return std::nullopt;
  blocks_.insert(it, Block{at, need});
  return at;
}

void BsendBuffer::release(std::size_t offset) noexcept {
  auto it = std::find_if(blocks_.begin(), blocks_.end(), [&](const Block& b) { return b.offset == offset; });
  if (it != blocks_.end()) blocks_.erase(it);
}

}  // namespace shmpi::runtime
