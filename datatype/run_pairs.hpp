// RunPairs: one batch of a single copy between two layouts of the same
// packed stream, e.g. a matrix column here and a contiguous buffer (or
// another column) in a peer. Both sides are walked with their own Cursor in
// lockstep; a batch is the iovecs of both sides behind the same bytes, at
// most kMaxIovecs a side (what process_vm_readv takes in one call), so a
// strided message crosses memory once, in one system call per batch, and
// is never packed on either side.
#pragma once

#include <sys/uio.h>

#include <array>
#include <cstddef>
#include <cstdint>

#include "datatype/cursor.hpp"

namespace shmpi::datatype {

struct RunPairs {
  // UIO_MAXIOV: the most iovecs process_vm_readv/writev take per side.
  static constexpr std::size_t kMaxIovecs = 1024;
  std::array<iovec, kMaxIovecs> local;   // this process's runs
  std::array<iovec, kMaxIovecs> remote;  // the peer's runs (addresses in its address space)
  std::size_t local_count = 0;
  std::size_t remote_count = 0;
  std::uint64_t bytes = 0;  // behind either side's iovecs
};

// Fills `out` with the runs behind the next bytes of the stream, at most
// `max_bytes` and as many as kMaxIovecs runs on each side cover (adjacent
// runs joined): `local` walks the layout at `local_origin`, `remote` the one
// at `remote_origin` (an address in the peer). Both cursors must stand at
// the same stream position; both move past exactly out.bytes. Returns
// out.bytes (0 at the end of either stream).
std::uint64_t next_run_pairs(Cursor& local, void* local_origin, Cursor& remote, std::uint64_t remote_origin,
                             std::uint64_t max_bytes, RunPairs& out) noexcept;

// Copies a batch whose `remote` side lies in this process too (a message
// to ourselves): from the remote runs into the local ones.
void copy_run_pairs(const RunPairs& pairs) noexcept;

}  // namespace shmpi::datatype
