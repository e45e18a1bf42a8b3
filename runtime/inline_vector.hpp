// A vector whose first N elements live inside it, for the per-rank arrays
// of a collective call (runtime/coll_schedules.hpp's Blocks): on a few
// ranks they cost no allocation. Four malloc/free pairs were ~40 ns of a
// 0.25 us 2-rank MPI_Alltoall at 8 B. Trivially copyable elements only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <type_traits>
#include <vector>

namespace shmpi::runtime {

template <class T, std::size_t N>
class InlineVector {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  InlineVector() = default;
  InlineVector(const InlineVector& other) { *this = other; }
  InlineVector& operator=(const InlineVector& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  InlineVector(InlineVector&& other) noexcept { *this = std::move(other); }
  InlineVector& operator=(InlineVector&& other) noexcept {
    if (this == &other) return *this;
    if (other.size_ <= N) std::copy_n(other.inline_, other.size_, inline_);
    heap_ = std::move(other.heap_);
    size_ = other.size_;
    other.size_ = 0;
    return *this;
  }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  T* data() noexcept { return size_ <= N ? inline_ : heap_.data(); }
  const T* data() const noexcept { return size_ <= N ? inline_ : heap_.data(); }
  T* begin() noexcept { return data(); }
  T* end() noexcept { return data() + size_; }
  const T* begin() const noexcept { return data(); }
  const T* end() const noexcept { return data() + size_; }
  T& operator[](std::size_t i) noexcept { return data()[i]; }
  const T& operator[](std::size_t i) const noexcept { return data()[i]; }

  // New elements are value-initialized, as std::vector's. Throws
  // std::bad_alloc past N elements.
  void resize(std::size_t n) {
    if (n <= N) {
      if (size_ > N)
        std::copy_n(heap_.data(), n, inline_);
      else if (n > size_)
        std::fill(inline_ + size_, inline_ + n, T{});
      heap_.clear();
    } else {
      if (size_ <= N) heap_.assign(inline_, inline_ + size_);
      heap_.resize(n);
    }
    size_ = n;
  }
  void assign(std::size_t n, const T& value) {
    resize(n);
    std::fill(begin(), end(), value);
  }
  template <std::input_iterator It>
  void assign(It first, It last) {
    resize(static_cast<std::size_t>(std::distance(first, last)));
    std::copy(first, last, begin());
  }
  void push_back(const T& value) {
    const T copy = value;  // `value` may be one of ours, moved by resize
    resize(size_ + 1);
    (*this)[size_ - 1] = copy;
  }

 private:
  T inline_[N];  // only the first size_ are ever read: left uninitialized
  std::vector<T> heap_;
  std::size_t size_ = 0;
};

}  // namespace shmpi::runtime
