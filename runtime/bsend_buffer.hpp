// BsendBuffer: the user's buffer for MPI_Bsend (MPI_Buffer_attach).
//
// Each buffered message costs exactly its size plus MPI_BSEND_OVERHEAD
// bytes (first fit), so a buffer sized by the standard's formula (the sum
// of size + MPI_BSEND_OVERHEAD over the messages it must hold) holds them
// all. The overhead pays for aligning the copy: a slot's data starts at the
// first kDataAlign-aligned address inside it. The bookkeeping lives here,
// not in the user's buffer. The space comes back when the internal send
// completes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "mpi.h"

namespace shmpi::runtime {

class BsendBuffer {
 public:
  // Alignment of each message's copy (a cache line: the copy into the
  // ring or the peer's single-copy read starts on a line).
  static constexpr std::size_t kDataAlign = 64;
  static_assert(MPI_BSEND_OVERHEAD >= kDataAlign - 1, "the overhead must cover the alignment padding");

  // What one message of `bytes` costs in the buffer.
  static constexpr std::size_t slot_bytes(std::size_t bytes) noexcept { return bytes + MPI_BSEND_OVERHEAD; }

  bool attached() const noexcept { return base_ != nullptr; }
  void attach(void* base, std::size_t size) noexcept {
    base_ = static_cast<std::byte*>(base);
    size_ = size;
  }
  // Detaches and returns the buffer; the caller first waits for in_use() == 0.
  std::pair<void*, std::size_t> detach() noexcept {
    std::pair<void*, std::size_t> out{base_, size_};
    base_ = nullptr;
    size_ = 0;
    return out;
  }
  std::size_t size() const noexcept { return size_; }
  std::size_t in_use() const noexcept { return blocks_.size(); }

  // The slot (its offset) for a message of `bytes`, or nothing if no gap
  // is large enough.
  std::optional<std::size_t> allocate(std::size_t bytes);
  void release(std::size_t offset) noexcept;
  // Where the message of the slot at `offset` is copied to: aligned, and
  // with its `bytes` inside the slot.
  std::byte* at(std::size_t offset) const noexcept {
    const auto start = reinterpret_cast<std::uintptr_t>(base_ + offset);
    return base_ + offset + ((kDataAlign - start % kDataAlign) % kDataAlign);
  }

 private:
  struct Block {
    std::size_t offset;
    std::size_t bytes;  // slot_bytes() of its message
  };
  std::byte* base_ = nullptr;
  std::size_t size_ = 0;
  std::vector<Block> blocks_;  // sorted by offset
};

}  // namespace shmpi::runtime
