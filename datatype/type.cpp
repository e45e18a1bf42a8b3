#include "datatype/type.hpp"

#include <algorithm>
#include <limits>

namespace shmpi::datatype {
namespace {

// Arithmetic that remembers whether anything overflowed.
struct Checked {
  bool ok = true;
  std::int64_t mul(std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    ok = ok && !__builtin_mul_overflow(a, b, &r);
    return r;
  }
  std::int64_t add(std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    ok = ok && !__builtin_add_overflow(a, b, &r);
    return r;
  }
};

// Lowest and highest offset reached by the copies of a block (relative to
// disp), from the spacing of its repetitions and of its copies.
struct Spread {
  std::int64_t low = 0, high = 0;
};

Spread spread_of(Checked& c, const Block& b, Offset extent) {
  const std::int64_t reps = c.mul(b.reps - 1, b.stride);
  const std::int64_t copies = c.mul(b.blocklen - 1, extent);
  return Spread{c.add(std::min<std::int64_t>(0, reps), std::min<std::int64_t>(0, copies)),
                c.add(std::max<std::int64_t>(0, reps), std::max<std::int64_t>(0, copies))};
}

struct Bounds {
  Offset low = std::numeric_limits<Offset>::max();
  Offset high = std::numeric_limits<Offset>::min();
  bool any() const noexcept { return low <= high; }
  void include(Offset lo, Offset hi) noexcept {
    low = std::min(low, lo);
    high = std::max(high, hi);
  }
};

}  // namespace

TypeRef Type::basic(const Basic& basic, std::int32_t id) {
  std::shared_ptr<Type> t(new Type());
  t->size_ = t->ub_ = t->true_ub_ = basic.size;
  t->elements_ = 1;
  t->external_size_ = basic.external_size;
  t->kind_ = id;
  t->align_ = basic.align;
  t->is_basic_ = true;
  t->basic_ = basic;
  t->compile();
  return t;
}

TypeRef Type::blocks(std::vector<Block> blocks, bool padded, std::int32_t id) {
  std::shared_ptr<Type> t(new Type());
  Checked c;
  Bounds all, marked, data;
  bool first = true;
  for (const Block& b : blocks) {
    if (b.blocklen <= 0 || b.reps <= 0 || !b.type) continue;
    const Type& old = *b.type;
    const std::int64_t copies = c.mul(b.blocklen, b.reps);
    t->size_ = c.add(t->size_, c.mul(copies, old.size_));
    t->elements_ = c.add(t->elements_, c.mul(copies, old.elements_));
    t->external_size_ = c.add(t->external_size_, c.mul(copies, old.external_size_));
    t->kind_ = first || t->kind_ == old.kind_ ? old.kind_ : kMixed;
    t->align_ = std::max(t->align_, old.align_);
    first = false;
    const Spread s = spread_of(c, b, old.extent());
    const Offset lo = c.add(c.add(b.disp, old.lb_), s.low), hi = c.add(c.add(b.disp, old.ub_), s.high);
    if (old.explicit_bounds_) {
      marked.include(lo, hi);
    } else if (old.size_ != 0) {
      all.include(lo, hi);
    }
    if (old.size_ != 0) data.include(c.add(c.add(b.disp, old.true_lb_), s.low), c.add(c.add(b.disp, old.true_ub_), s.high));
  }
  if (!c.ok) return nullptr;
  const Bounds& bounds = marked.any() ? marked : all;
  if (bounds.any()) {
    t->lb_ = bounds.low;
    t->ub_ = bounds.high;
  }
  if (data.any()) {
    t->true_lb_ = data.low;
    t->true_ub_ = data.high;
  }
  t->explicit_bounds_ = marked.any();
  if (padded && !t->explicit_bounds_ && t->extent() % t->align_ != 0)
    t->ub_ = c.add(t->ub_, static_cast<Offset>(t->align_) - t->extent() % t->align_);
  if (id != kMixed) t->kind_ = id;
  t->blocks_ = std::move(blocks);
  if (!c.ok) return nullptr;
  t->compile();
  return t;
}

TypeRef Type::resized(const TypeRef& old, Offset lb, Offset extent) {
  std::int64_t ub = 0;
  if (__builtin_add_overflow(lb, extent, &ub)) return nullptr;
  std::shared_ptr<Type> t(new Type(*old));
  t->lb_ = lb;
  t->ub_ = ub;
  t->explicit_bounds_ = true;
  t->is_basic_ = false;
  t->blocks_ = {Block{0, 1, 1, 0, old}};
  return t;
}

void Type::compile() {
  program_ = Program{};
  if (is_basic_) {
    Op run;
    run.bytes = basic_.size;
    program_.ops.push_back(run);
    program_.size = basic_.size;
    return;
  }
  for (const Block& b : blocks_) {
    if (b.blocklen <= 0 || b.reps <= 0 || !b.type || b.type->size_ == 0) continue;
    const Program copies = wrap_loop(static_cast<std::uint64_t>(b.blocklen), b.type->extent(), b.type->program_);
    append_ops(program_, wrap_loop(static_cast<std::uint64_t>(b.reps), b.stride, copies), b.disp);
  }
}

std::int64_t Type::elements_in(std::int64_t bytes) const noexcept {
  if (size_ == 0 || bytes <= 0) return 0;
  std::int64_t count = bytes / size_ * elements_;
  std::int64_t rest = bytes % size_;
  for (const Block& b : blocks_) {  // a basic type has none: a part of one is no element
    if (rest == 0) break;
    if (b.blocklen <= 0 || b.reps <= 0 || !b.type || b.type->size_ == 0) continue;
    const std::int64_t copies = b.blocklen * b.reps;
    const std::int64_t whole = std::min(copies, rest / b.type->size_);
    count += whole * b.type->elements_;
    rest -= whole * b.type->size_;
    if (whole < copies) return count + b.type->elements_in(rest);
  }
  return count;
}

TypeRef make_contiguous(std::int64_t count, const TypeRef& old) {
  return Type::blocks({Block{0, count, 1, 0, old}});
}

TypeRef make_hvector(std::int64_t count, std::int64_t blocklen, Offset stride, const TypeRef& old) {
  return Type::blocks({Block{0, blocklen, count, stride, old}});
}

TypeRef make_hindexed(std::span<const std::int64_t> blocklens, std::span<const Offset> disps, const TypeRef& old) {
  std::vector<Block> blocks;
  blocks.reserve(blocklens.size());
  for (std::size_t i = 0; i < blocklens.size(); ++i) blocks.push_back(Block{disps[i], blocklens[i], 1, 0, old});
  return Type::blocks(std::move(blocks));
}

TypeRef make_struct(std::span<const std::int64_t> blocklens, std::span<const Offset> disps,
                    std::span<const TypeRef> types) {
  std::vector<Block> blocks;
  blocks.reserve(blocklens.size());
  for (std::size_t i = 0; i < blocklens.size(); ++i) blocks.push_back(Block{disps[i], blocklens[i], 1, 0, types[i]});
  return Type::blocks(std::move(blocks), true);
}

}  // namespace shmpi::datatype
