// BsendBuffer: the user's buffer for MPI_Bsend (MPI_Buffer_attach).
//
// Each buffered message takes its size plus MPI_BSEND_OVERHEAD bytes, first
// fit; the space comes back when the internal send completes.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace shmpi::runtime {

class BsendBuffer {
 public:
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

  // Offset of `bytes` of free space, or nothing if no gap is large enough.
  std::optional<std::size_t> allocate(std::size_t bytes);
  void release(std::size_t offset) noexcept;
  std::byte* at(std::size_t offset) const noexcept { return base_ + offset; }

 private:
  struct Block {
    std::size_t offset;
    std::size_t bytes;  // including the overhead
  };
  std::byte* base_ = nullptr;
  std::size_t size_ = 0;
  std::vector<Block> blocks_;  // sorted by offset
};

}  // namespace shmpi::runtime
