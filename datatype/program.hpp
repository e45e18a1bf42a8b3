// Program: what a committed datatype compiles to, the compact description
// every copy runs from. A program is a list of ops in typemap order:
//   Run:  `count` runs of `bytes` contiguous bytes, `stride` bytes apart;
//   Loop: its body (the `body` ops that follow it) repeated `count` times,
//         `stride` bytes apart.
// Offsets are relative to the origin of the enclosing loop's iteration (or
// of the element). Repeated patterns stay loops, never expanded, so a
// million-row column is one Run op, and adjacent runs are merged when the
// program is built (wrap_loop, append_ops).
#pragma once

#include <cstdint>
#include <vector>

namespace shmpi::datatype {

using Offset = std::int64_t;

struct Op {
  Offset offset = 0;        // from the enclosing iteration's origin
  Offset stride = 0;        // between repetitions
  std::uint64_t count = 1;  // repetitions (never 0: empty ops are dropped)
  std::uint64_t bytes = 0;  // Run: bytes of one run; Loop: packed bytes of one iteration (never 0)
  std::uint32_t body = 0;   // Loop: ops in its body, nested ones included
  bool loop = false;

  std::uint64_t total() const noexcept { return count * bytes; }
  // Index one past this op (and its body) in a program starting at `at`.
  std::uint32_t next(std::uint32_t at) const noexcept { return at + 1 + (loop ? body : 0); }
};

struct Program {
  std::vector<Op> ops;
  std::uint64_t size = 0;   // packed bytes of one element (the sum of the top-level ops' totals)
  std::uint32_t depth = 0;  // deepest loop nesting
  std::uint32_t last = 0;   // index of the last top-level op (for merging appended runs)

  // One run of contiguous bytes at `ops[0].offset` (or nothing at all).
  bool single_run() const noexcept { return ops.size() == 1 && !ops[0].loop && ops[0].count == 1; }
};

// The program of `count` repetitions of `body`, `stride` bytes apart,
// simplified: a single run repeated back to back becomes one longer run, a
// single run repeated at a stride a strided run, one repetition the body
// itself.
Program wrap_loop(std::uint64_t count, Offset stride, const Program& body);

// Runs of contiguous bytes one element of `program` makes (runs of
// different ops that happen to touch counted apart).
std::uint64_t runs_per_element(const Program& program) noexcept;

// Mean bytes of one run of `program` (its size when it makes no run).
inline std::uint64_t mean_run(const Program& program) noexcept {
  const std::uint64_t runs = runs_per_element(program);
  return runs == 0 ? program.size : program.size / runs;
}

// Appends `more`, shifted by `shift` bytes, to `program`; a run that starts
// where the previous one ends is merged into it.
void append_ops(Program& program, const Program& more, Offset shift);

}  // namespace shmpi::datatype
