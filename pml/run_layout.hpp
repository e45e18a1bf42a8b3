// RunLayout: a non-contiguous buffer as the pml moves it without packing,
// `count` elements of a compiled datatype::Program, `extent` bytes apart,
// from `origin`. The runtime fills one per request (it owns it, and keeps
// the program alive, until the request completes).
//
// Zero-copy rendezvous (docs/design.md). A receive with a layout takes
// eager and pipelined payloads straight from the ring record into its runs
// (scatter_into), and reads a rendezvous payload with process_vm_readv
// batches whose local iovecs are its runs. A send with a layout publishes
// it: its Rts offer's `address` is the address of this struct, marked by
// kRunsCookie in the offer's cookie; the receiver reads the struct and the
// program's ops out of the sender (two small reads) and pairs the
// sender's runs with its own, so a column sent to a column crosses memory
// once, one system call per 1024 runs. A large one is split like a
// contiguous copy: the receiver's Split offer names its own RunLayout (or
// buffer), the sender reads that layout out of the receiver and writes the
// second half of the stream run to run while the receiver reads the first.
// If the receiver cannot read (single copy off or refused), it answers Cts
// and the sender packs fragment by fragment into RndvFrag records.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "datatype/program.hpp"

namespace shmpi::pml {

struct RunLayout {
  std::uint64_t origin = 0;  // the user's buffer (element 0's origin)
  std::uint64_t ops = 0;     // address of program->ops.data(), for peers
  std::uint32_t op_count = 0;
  std::uint32_t depth = 0;       // program->depth
  std::uint64_t size = 0;        // packed bytes of one element
  std::uint64_t count = 0;       // elements
  std::int64_t extent = 0;       // bytes between elements
  const datatype::Program* program = nullptr;  // this process's view of `ops` (peers ignore it)
};
static_assert(std::is_standard_layout_v<RunLayout> && sizeof(RunLayout) == 56);
static_assert(std::is_trivially_copyable_v<datatype::Op>, "peers copy ops byte for byte");

// One side of a run-to-run single copy (pml/run_copies.cpp): the runs of
// a layout, ours or a peer's (then `program` holds a copy of its ops), or
// of a contiguous buffer as a one-run program.
struct RunSide {
  datatype::Program program;
  const datatype::Program* layout = nullptr;
  std::uint64_t count = 1;
  std::int64_t extent = 0;
  std::uint64_t origin = 0;
};

// A published program longer than this is not read (the message is
// streamed): a bound on what a receiver allocates for a peer's ops, far
// above any real type's.
inline constexpr std::uint32_t kMaxPublishedOps = 1 << 16;

// Rts offers whose `address` is a RunLayout carry this bit in their cookie
// (a request's address, so the bit is otherwise 0).
inline constexpr std::uint64_t kRunsCookie = 1;

// The layout of `count` elements of `program`, `extent` apart, at `origin`.
inline RunLayout describe_runs(const datatype::Program& program, std::uint64_t count, std::int64_t extent,
                               const void* origin) noexcept {
  return RunLayout{reinterpret_cast<std::uintptr_t>(origin),
                   reinterpret_cast<std::uintptr_t>(program.ops.data()),
                   static_cast<std::uint32_t>(program.ops.size()),
                   program.depth,
                   program.size,
                   count,
                   extent,
                   &program};
}

// Unpacks `payload`, bytes [offset, offset + size) of the packed stream,
// into the runs of `layout`; the part beyond `capacity` is dropped.
void scatter_into(const RunLayout& layout, std::uint64_t capacity, std::uint64_t offset,
                  std::span<const std::byte> payload) noexcept;
// Packs bytes [offset, offset + bytes) of the stream of `layout` into `out`.
void gather_from(const RunLayout& layout, std::uint64_t offset, std::byte* out, std::size_t bytes) noexcept;

}  // namespace shmpi::pml
