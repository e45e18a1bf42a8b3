// Cursor: a position in the packed byte stream of `count` elements of a
// compiled type, and the runs of user memory behind the next bytes. It can
// start at any byte of the stream (seek) and resumes where it stopped, so a
// message can be packed fragment by fragment, or its runs handed out in
// batches (iovecs for process_vm_readv/writev), without ever expanding the
// type. No allocation unless the type nests loops deeper than kInlineDepth.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "datatype/program.hpp"

namespace shmpi::datatype {

class Cursor {
 public:
  // `count` elements `extent` bytes apart. `program` must outlive the cursor.
  Cursor(const Program& program, std::uint64_t count, Offset extent);
  Cursor(const Cursor&) = delete;
  Cursor& operator=(const Cursor&) = delete;

  std::uint64_t total() const noexcept { return total_; }        // packed bytes of all elements
  std::uint64_t position() const noexcept { return position_; }  // packed bytes behind us

  // Moves to packed byte `offset` (clamped to total()).
  void seek(std::uint64_t offset) noexcept;

  // Hands the runs behind the next `max_bytes` packed bytes (fewer at the
  // end of the stream) to take(Offset from the buffer origin, length) in
  // stream order; a run may be cut at max_bytes. take() returns false to
  // refuse a run: the cursor then stops before it. Returns the bytes taken.
  template <class Take>
  std::uint64_t advance(std::uint64_t max_bytes, Take&& take);

  // advance() for copy loops: the runs come in batches of equal runs evenly
  // spaced, take_runs(Offset first, Offset stride, std::uint64_t bytes,
  // std::uint64_t count), so the caller picks its copy for `bytes` once per
  // batch instead of once per run (a column of doubles: one call, not one
  // per double). take_runs returns how many of the runs it took; fewer than
  // `count` stops the cursor before the first one refused.
  template <class TakeRuns>
  std::uint64_t advance_runs(std::uint64_t max_bytes, TakeRuns&& take_runs);

  // For copy loops over a flat type (no loops, a few runs per element: a
  // struct's fields): when the cursor stands at an element's start, moves
  // past the whole elements within the next `max_bytes` bytes and returns
  // how many, with the offset of the first in `first`; else 0. The caller
  // copies them field by field (fields()), each field of every element as
  // one batch of equal runs instead of a call per run.
  std::uint64_t take_elements(std::uint64_t max_bytes, Offset& first) noexcept;
  bool flat() const noexcept { return flat_; }
  const Op* fields() const noexcept { return ops_; }  // top-level Run ops of a flat type
  std::uint32_t field_count() const noexcept { return op_count_; }
  std::uint64_t element_size() const noexcept { return size_; }
  Offset element_extent() const noexcept { return extent_; }

 private:
  // No member initialisers: every frame is written before it is read, and
  // a cursor is made per message (zeroing the inline frames cost 384 bytes
  // of stores each time).
  struct Frame {
    std::uint32_t first, end, pos;  // the loop body's ops, and the next one
    std::uint64_t iter, count;
    Offset stride, base;  // base: origin of the current iteration
  };
  static constexpr std::size_t kInlineDepth = 8;
  static constexpr std::uint32_t kFlatOps = 8;

  void push(const Frame& frame) noexcept { frames_[++top_] = frame; }
  bool finish_frame() noexcept;  // the top frame's ops are done; false at the end of the stream

  const Op* ops_;
  std::uint32_t op_count_;
  bool flat_;  // no loops and a few runs per element: take_elements() may hand out elements
  Op folded_;  // the whole stream when it is one (strided) run: `count` elements folded into it
  std::uint64_t count_;
  std::uint64_t size_;
  Offset extent_;
  Offset origin_ = 0;  // of element 0 (an array's loop may start past the origin)
  std::uint64_t total_;
  std::uint64_t position_ = 0;
  std::uint64_t run_ = 0;   // run within the current Run op
  std::uint64_t skip_ = 0;  // bytes of that run already taken
  std::size_t top_ = 0;
  Frame* frames_;
  std::array<Frame, kInlineDepth> inline_frames_;
  std::vector<Frame> more_frames_;
};

template <class Take>
std::uint64_t Cursor::advance(std::uint64_t max_bytes, Take&& take) {
  return advance_runs(max_bytes, [&](Offset first, Offset stride, std::uint64_t bytes, std::uint64_t count) {
    for (std::uint64_t i = 0; i < count; ++i)
      if (!take(first + static_cast<Offset>(i) * stride, bytes)) return i;
    return count;
  });
}

template <class TakeRuns>
std::uint64_t Cursor::advance_runs(std::uint64_t max_bytes, TakeRuns&& take_runs) {
  std::uint64_t moved = 0;
  if (max_bytes > total_ - position_) max_bytes = total_ - position_;
  while (moved < max_bytes) {
    Frame& f = frames_[top_];
    if (f.pos == f.end) {
      if (!finish_frame()) break;
      continue;
    }
    const Op& op = ops_[f.pos];
    if (op.loop) {
      push(Frame{f.pos + 1, op.next(f.pos), f.pos + 1, 0, op.count, op.stride, f.base + op.offset});
      continue;
    }
    const Offset origin = f.base + op.offset;
    while (run_ < op.count && moved < max_bytes) {
      const Offset at = origin + static_cast<Offset>(run_) * op.stride;
      // Whole runs that fit; the division only when not all of them do (a
      // struct's runs are mostly one per op, and a divide costs more than its copy).
      const std::uint64_t left = op.count - run_, room = max_bytes - moved;
      const std::uint64_t whole = skip_ != 0 ? 0 : left * op.bytes <= room ? left : room / op.bytes;
      if (whole != 0) {  // whole runs
        const std::uint64_t taken = take_runs(at, op.stride, op.bytes, whole);
        moved += taken * op.bytes;
        run_ += taken;
        if (taken < whole) {
          position_ += moved;
          return moved;
        }
        continue;
      }
      // The rest of a run begun before, or the part of one that max_bytes cuts.
      const std::uint64_t len = std::min(op.bytes - skip_, max_bytes - moved);
      if (take_runs(at + static_cast<Offset>(skip_), op.stride, len, 1) == 0) {
        position_ += moved;
        return moved;
      }
      moved += len;
      skip_ += len;
      if (skip_ == op.bytes) {
        skip_ = 0;
        ++run_;
      }
    }
    if (run_ == op.count) {
      run_ = 0;
      ++f.pos;
    }
  }
  position_ += moved;
  return moved;
}

// Whether the runs of `count` elements `extent` bytes apart overlap one
// another (so the type cannot be received into).
enum class Overlap { No, Yes, Unknown };
// Unknown when there are more than `max_runs` runs to compare.
Overlap find_overlap(const Program& program, std::uint64_t count, Offset extent, std::uint64_t max_runs);

}  // namespace shmpi::datatype
