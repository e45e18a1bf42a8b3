#include "datatype/layouts.hpp"

#include <algorithm>
#include <vector>

namespace shmpi::datatype {
namespace {

// Dimension indices from the fastest-running to the slowest.
std::vector<std::size_t> fastest_first(std::size_t n, Order order) {
  std::vector<std::size_t> dims(n);
  for (std::size_t i = 0; i < n; ++i) dims[i] = order == Order::C ? n - 1 - i : i;
  return dims;
}

// The blocks of dimension elements (each `stride` bytes of `inner`) that
// process `coord` of `procs` holds of `gsize` under `distrib`.
std::vector<Block> owned_blocks(Distribution distrib, std::int64_t darg, std::int64_t gsize, std::int64_t procs,
                                std::int64_t coord, Offset stride, const TypeRef& inner) {
  if (distrib == Distribution::None) return {Block{0, gsize, 1, 0, inner}};
  if (distrib == Distribution::Block) {
    const std::int64_t b = darg == kDefaultDistributionArg ? (gsize + procs - 1) / procs : darg;
    const std::int64_t start = coord * b;
    const std::int64_t len = std::clamp<std::int64_t>(gsize - start, 0, b);
    return {Block{start * stride, len, 1, 0, inner}};
  }
  const std::int64_t b = darg == kDefaultDistributionArg ? 1 : darg;
  const std::int64_t cycle = procs * b, start = coord * b;
  std::vector<Block> blocks;
  if (start >= gsize) return blocks;
  const std::int64_t full = gsize - start >= b ? (gsize - start - b) / cycle + 1 : 0;
  if (full > 0) blocks.push_back(Block{start * stride, b, full, cycle * stride, inner});
  const std::int64_t tail = start + full * cycle;
  if (tail < gsize) blocks.push_back(Block{tail * stride, std::min(b, gsize - tail), 1, 0, inner});
  return blocks;
}

}  // namespace

TypeRef make_subarray(std::span<const std::int64_t> sizes, std::span<const std::int64_t> subsizes,
                      std::span<const std::int64_t> starts, Order order, const TypeRef& old) {
  TypeRef t = old;
  Offset stride = old->extent(), disp = 0;
  bool first = true;
  for (std::size_t d : fastest_first(sizes.size(), order)) {
    t = first ? make_contiguous(subsizes[d], old) : make_hvector(subsizes[d], 1, stride, t);
    first = false;
    Offset shift = 0;
    if (!t || __builtin_mul_overflow(starts[d], stride, &shift) || __builtin_add_overflow(disp, shift, &disp) ||
        __builtin_mul_overflow(stride, sizes[d], &stride))
      return nullptr;
  }
  t = Type::blocks({Block{disp, 1, 1, 0, t}});
  return t ? Type::resized(t, 0, stride) : nullptr;
}

TypeRef make_darray(std::int64_t rank, std::span<const std::int64_t> gsizes,
                    std::span<const Distribution> distribs, std::span<const std::int64_t> dargs,
                    std::span<const std::int64_t> psizes, Order order, const TypeRef& old) {
  const std::size_t n = gsizes.size();
  std::vector<std::int64_t> coords(n);
  for (std::size_t i = n; i-- > 0;) {  // the process grid is row-major whatever the array order
    coords[i] = rank % psizes[i];
    rank /= psizes[i];
  }
  TypeRef t = old;
  Offset stride = old->extent();
  for (std::size_t d : fastest_first(n, order)) {
    Offset whole = 0;
    if (__builtin_mul_overflow(stride, gsizes[d], &whole)) return nullptr;
    t = Type::blocks(owned_blocks(distribs[d], dargs[d], gsizes[d], psizes[d], coords[d], stride, t));
    if (!t) return nullptr;
    t = Type::resized(t, 0, whole);
    stride = whole;
    if (!t) return nullptr;
  }
  return t;
}

}  // namespace shmpi::datatype
