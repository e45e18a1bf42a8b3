// StableSlots<T>: the slots of a handle table (communicators, datatypes,
// groups, infos, keyvals, user ops), indexed like a vector, whose elements
// never move once made.
//
// Why: under MPI_THREAD_MULTIPLE a call that waits releases the rank's lock
// (runtime/thread_support.hpp) while it still holds a pointer into a table
// (its Communicator, its datatype, its reduction op); a std::vector growing
// in another thread's call meanwhile would move that element under it.
// Here growing adds a chunk and leaves the others where they are; lookups
// stay two loads (the chunk, then the slot).
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace shmpi::runtime {

template <class T, std::size_t kChunk = 64>
class StableSlots {
  static_assert((kChunk & (kChunk - 1)) == 0, "a power of two: index arithmetic is a shift and a mask");

 public:
  StableSlots() = default;
  // `n` default-constructed slots.
  explicit StableSlots(std::size_t n) {
    while (size_ < n) emplace_back();
  }

  std::size_t size() const noexcept { return size_; }
  T& operator[](std::size_t i) noexcept { return chunks_[i / kChunk][i % kChunk]; }
  const T& operator[](std::size_t i) const noexcept { return chunks_[i / kChunk][i % kChunk]; }

  // A new default-constructed slot at index size(); moves no other slot.
  // Throws std::bad_alloc.
  T& emplace_back() {
    if (size_ % kChunk == 0) chunks_.push_back(std::make_unique<T[]>(kChunk));
    return (*this)[size_++];
  }
  T& push_back(T value) { return emplace_back() = std::move(value); }

 private:
  // Only these pointers move when the table grows, never the chunks.
  std::vector<std::unique_ptr<T[]>> chunks_;
  std::size_t size_ = 0;  // slots in use; the last chunk's tail is constructed but unused
};

}  // namespace shmpi::runtime
