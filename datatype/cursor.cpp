#include "datatype/cursor.hpp"

#include <algorithm>
#include <utility>

namespace shmpi::datatype {

Cursor::Cursor(const Program& program, std::uint64_t count, Offset extent)
    : ops_(program.ops.data()),
      op_count_(static_cast<std::uint32_t>(program.ops.size())),
      count_(count),
      size_(program.size),
      extent_(extent),
      total_(count * program.size),
      frames_(inline_frames_.data()) {
  // A stream that is one run, or one evenly strided run across elements,
  // is walked as a single op (the common contiguous and column cases).
  if (program.ops.size() == 1 && !program.ops[0].loop && count > 0) {
    const Op& r = program.ops[0];
    if (r.count == 1 && static_cast<Offset>(r.bytes) == extent) {
      folded_ = r;
      folded_.bytes = r.bytes * count;
    } else if (r.count > 1 && r.stride * static_cast<Offset>(r.count) == extent) {
      folded_ = r;
      folded_.count = r.count * count;
    }
    if (folded_.bytes != 0) {
      ops_ = &folded_;
      count_ = 1;
      size_ = total_;
    }
  }
  // An array of flat elements made by one loop (MPI_Type_contiguous(n,
  // struct)): its iterations tile the stream, so it is walked as
  // count * n elements of the loop's body, one stride apart.
  const Op& top = program.ops.empty() ? folded_ : program.ops[0];
  if (ops_ != &folded_ && program.depth == 1 && top.loop && top.next(0) == op_count_ &&
      (count == 1 || top.stride * static_cast<Offset>(top.count) == extent)) {
    ops_ = program.ops.data() + 1;
    op_count_ = top.body;
    origin_ = top.offset;
    count_ = count * top.count;
    extent_ = top.stride;
    size_ = top.bytes;
  }
  flat_ = ops_ != &folded_ && size_ != 0 && op_count_ <= kFlatOps && count_ > 1 &&
          std::all_of(ops_, ops_ + op_count_, [](const Op& op) { return !op.loop && op.count == 1; });
  if (program.depth + 1 > kInlineDepth) {
    more_frames_.resize(program.depth + 1);
    frames_ = more_frames_.data();
  }
  seek(0);
}

void Cursor::seek(std::uint64_t offset) noexcept {
  if (offset > total_) offset = total_;
  position_ = offset;
  run_ = skip_ = 0;
  top_ = 0;
  const std::uint32_t n = ops_ == &folded_ ? 1 : op_count_;
  if (total_ == 0) {
    frames_[0] = Frame{0, n, n, 0, 0, 0, 0};  // nothing to walk
    return;
  }
  std::uint64_t element = offset / size_;
  std::uint64_t rest = offset % size_;
  if (element == count_) {  // at the very end: the last element, all ops done
    frames_[0] = Frame{0, n, n, count_ - 1, count_, extent_, origin_ + static_cast<Offset>(count_ - 1) * extent_};
    return;
  }
  frames_[0] = Frame{0, n, 0, element, count_, extent_, origin_ + static_cast<Offset>(element) * extent_};
  for (;;) {
    Frame& f = frames_[top_];
    const Op& op = ops_[f.pos];
    if (rest >= op.total()) {
      rest -= op.total();
      f.pos = op.next(f.pos);
      continue;
    }
    if (!op.loop) {
      run_ = rest / op.bytes;
      skip_ = rest % op.bytes;
      return;
    }
    const std::uint64_t iter = rest / op.bytes;
    rest %= op.bytes;
    push(Frame{f.pos + 1, op.next(f.pos), f.pos + 1, iter, op.count, op.stride,
               f.base + op.offset + static_cast<Offset>(iter) * op.stride});
  }
}

std::uint64_t Cursor::take_elements(std::uint64_t max_bytes, Offset& first) noexcept {
  if (!flat_ || run_ != 0 || skip_ != 0) return 0;
  Frame& f = frames_[0];
  if (f.pos == f.end && !finish_frame()) return 0;  // the last element's ops done: on to the next
  if (f.pos != 0) return 0;
  const std::uint64_t elements = std::min(f.count - f.iter, max_bytes / size_);
  if (elements == 0) return 0;
  first = f.base;
  f.iter += elements;
  f.base += static_cast<Offset>(elements) * f.stride;
  if (f.iter == f.count) {  // at the end of the stream, as finish_frame() leaves it
    f.iter = f.count - 1;
    f.base -= f.stride;
    f.pos = f.end;
  }
  position_ += elements * size_;
  return elements;
}

bool Cursor::finish_frame() noexcept {
  Frame& f = frames_[top_];
  if (++f.iter < f.count) {
    f.base += f.stride;
    f.pos = f.first;
    return true;
  }
  if (top_ == 0) {
    f.iter = f.count - 1;  // stay at the end
    return false;
  }
  --top_;
  frames_[top_].pos = f.end;
  return true;
}

Overlap find_overlap(const Program& program, std::uint64_t count, Offset extent, std::uint64_t max_runs) {
  std::vector<std::pair<Offset, Offset>> runs;  // [begin, end)
  Cursor cursor(program, count, extent);
  bool too_many = false;
  cursor.advance(cursor.total(), [&](Offset at, std::uint64_t len) {
    if (runs.size() == max_runs) {
      too_many = true;
      return false;
    }
    runs.emplace_back(at, at + static_cast<Offset>(len));
    return true;
  });
  if (too_many) return Overlap::Unknown;
  std::sort(runs.begin(), runs.end());
  for (std::size_t i = 1; i < runs.size(); ++i)
    if (runs[i].first < runs[i - 1].second) return Overlap::Yes;
  return Overlap::No;
}

}  // namespace shmpi::datatype
