// LineSplitter: turns a rank's byte stream into whole lines, so lines of
// different ranks never mix. Pure; unit-tested.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace shmpi::launcher {

class LineSplitter {
 public:
  // A line longer than `max_line` bytes is emitted in pieces of that size
  // (each piece ends with '\n'), so a rank writing binary data without
  // newlines cannot make shmpirun grow without bound.
  explicit LineSplitter(std::size_t max_line = std::size_t{1} << 20) : max_line_(max_line) {}

  // Calls emit(std::string_view line) for every complete line in `bytes`
  // (plus what earlier calls left over); each line ends with '\n'.
  template <class Emit>
  void feed(std::string_view bytes, Emit&& emit) {
    while (!bytes.empty()) {
      std::size_t newline = bytes.find('\n');
      std::size_t take = newline == std::string_view::npos ? bytes.size() : newline + 1;
      take = std::min(take, max_line_ - partial_.size());
      bool complete = take > 0 && bytes[take - 1] == '\n';
      if (complete && partial_.empty()) {
        emit(bytes.substr(0, take));  // the common case: no copy
      } else {
        partial_.append(bytes.substr(0, take));
        if (complete || partial_.size() >= max_line_) {
          if (!complete) partial_ += '\n';
          emit(std::string_view(partial_));
          partial_.clear();
        }
      }
      bytes.remove_prefix(take);
    }
  }

  // At end of stream: the unterminated last line, if any, gets a '\n'.
  template <class Emit>
  void finish(Emit&& emit) {
    if (partial_.empty()) return;
    partial_ += '\n';
    emit(std::string_view(partial_));
    partial_.clear();
  }

  bool has_partial() const noexcept { return !partial_.empty(); }

 private:
  std::size_t max_line_;
  std::string partial_;
};

}  // namespace shmpi::launcher
