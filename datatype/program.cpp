#include "datatype/program.hpp"

#include <algorithm>

namespace shmpi::datatype {
namespace {

// A run op, normalised: runs that touch are one run.
Op run_op(Offset offset, std::uint64_t count, Offset stride, std::uint64_t bytes) {
  Op op;
  op.offset = offset;
  op.bytes = bytes;
  if (count > 1 && stride == static_cast<Offset>(bytes)) {
    op.bytes = bytes * count;
  } else {
    op.count = count;
    op.stride = count > 1 ? stride : 0;
  }
  return op;
}

Program single(const Op& op) {
  Program p;
  p.ops.push_back(op);
  p.size = op.total();
  return p;
}

}  // namespace

Program wrap_loop(std::uint64_t count, Offset stride, const Program& body) {
  if (count == 0 || body.size == 0) return Program{};
  if (count == 1) return body;
  if (body.ops.size() == 1 && !body.ops[0].loop) {
    const Op& r = body.ops[0];
    if (r.count == 1) return single(run_op(r.offset, count, stride, r.bytes));
    if (r.stride * static_cast<Offset>(r.count) == stride)  // the repetitions continue its stride
      return single(run_op(r.offset, r.count * count, r.stride, r.bytes));
  }
  const Op& first = body.ops[0];
  if (first.loop && first.next(0) == body.ops.size() && first.stride * static_cast<Offset>(first.count) == stride) {
    Program p = body;  // one loop whose iterations continue at the same stride
    p.ops[0].count *= count;
    p.size *= count;
    return p;
  }
  Program p;
  Op loop;
  loop.loop = true;
  loop.count = count;
  loop.stride = stride;
  loop.bytes = body.size;
  loop.body = static_cast<std::uint32_t>(body.ops.size());
  p.ops.reserve(body.ops.size() + 1);
  p.ops.push_back(loop);
  p.ops.insert(p.ops.end(), body.ops.begin(), body.ops.end());
  p.size = loop.total();
  p.depth = body.depth + 1;
  return p;
}

void append_ops(Program& program, const Program& more, Offset shift) {
  if (more.size == 0) return;
  std::size_t from = 0;
  const Op& head = more.ops[0];
  if (!program.ops.empty() && !head.loop && head.count == 1) {
    Op& tail = program.ops[program.last];
    if (!tail.loop && tail.count == 1 && tail.offset + static_cast<Offset>(tail.bytes) == head.offset + shift) {
      tail.bytes += head.bytes;  // the runs touch: one run
      from = 1;
    }
  }
  for (std::size_t i = from; i < more.ops.size(); i = more.ops[i].next(static_cast<std::uint32_t>(i))) {
    const std::size_t n = more.ops[i].next(static_cast<std::uint32_t>(i)) - i;
    program.last = static_cast<std::uint32_t>(program.ops.size());
    program.ops.insert(program.ops.end(), more.ops.begin() + static_cast<std::ptrdiff_t>(i),
                       more.ops.begin() + static_cast<std::ptrdiff_t>(i + n));
    program.ops[program.last].offset += shift;
  }
  program.size += more.size;
  program.depth = std::max(program.depth, more.depth);
}

namespace {

std::uint64_t runs_in(const std::vector<Op>& ops, std::uint32_t begin, std::uint32_t end) noexcept {
  std::uint64_t runs = 0;
  for (std::uint32_t i = begin; i < end; i = ops[i].next(i))
    if (ops[i].loop)
      runs += ops[i].count * runs_in(ops, i + 1, i + 1 + ops[i].body);
    else
      runs += ops[i].stride == static_cast<Offset>(ops[i].bytes) ? 1 : ops[i].count;
  return runs;
}

}  // namespace

std::uint64_t runs_per_element(const Program& program) noexcept {
  return runs_in(program.ops, 0, static_cast<std::uint32_t>(program.ops.size()));
}

}  // namespace shmpi::datatype
