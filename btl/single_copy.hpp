// SingleCopy: copies between this process and a peer process with CMA
// (cross-memory attach: process_vm_readv / process_vm_writev), so a large
// message crosses memory once instead of twice.
//
// Permission. The kernel allows the copy when this process may ptrace the
// peer with PTRACE_MODE_ATTACH_REALCREDS: same real uid (or CAP_SYS_PTRACE),
// and the peer must be *dumpable* (PR_GET_DUMPABLE == 1; a set-uid program,
// or one that called prctl(PR_SET_DUMPABLE, 0), refuses everyone but
// CAP_SYS_PTRACE). Under Yama ptrace_scope=1 the peer must also name us as a
// tracer: every rank calls allow_peer_access() once at start-up. Under
// ptrace_scope>=2, in most containers (seccomp) and across uids the copy is
// refused with EPERM (or ENOSYS); SingleCopy then answers NotPermitted,
// switches itself off for the rest of the process, and the caller falls back
// to the pipelined copy-in/copy-out path.
//
// Cost (DESIGN.md, platform facts): ~2 us fixed per call, ~19 GB/s at
// 1-4 MiB; benchmarks/micro/copy_bench.cpp measures it against memcpy.
//
// Thread safety: every member may be called concurrently; the only shared
// state is the enabled flag (relaxed atomic: a thread that misses the switch
// makes one more refused call and sees NotPermitted itself).
#pragma once

#include <sys/types.h>
#include <sys/uio.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>

namespace shmpi::btl {

// One piece of a batched read: `bytes` from address `remote` of the peer into `local`.
struct ReadPiece {
  std::uint64_t remote;
  void* local;
  std::size_t bytes;
};

enum class CopyResult : std::uint8_t {
  Done,          // every byte copied
  NotPermitted,  // CMA refused (EPERM/EACCES/ENOSYS, or the test hook); now disabled
  Failed,        // any other error (dead peer ESRCH, bad address EFAULT, ...); errno says
};

class SingleCopy {
 public:
  // Largest number of bytes handed to one system call. The kernel caps one
  // call near 2 GiB (MAX_RW_COUNT); 1 GiB chunks keep well below that while
  // the ~2 us per call stays invisible next to a 1 GiB copy.
  static constexpr std::size_t kMaxChunkBytes = std::size_t{1} << 30;

  // `enabled`: the single_copy tunable (false: every call is NotPermitted).
  // `forced_failure`: a test hook (from a tunable) that makes every call
  // answer NotPermitted as if the kernel had said EPERM, disabling the object.
  // `max_chunk`: bytes per system call; tests pass small values to exercise
  // the splitting.
  explicit SingleCopy(bool enabled, bool forced_failure = false,
                      std::size_t max_chunk = kMaxChunkBytes) noexcept;
  SingleCopy(const SingleCopy&) = delete;
  SingleCopy& operator=(const SingleCopy&) = delete;

  // False once a call was refused (or when constructed disabled).
  bool enabled() const noexcept { return enabled_.load(std::memory_order_relaxed); }

  // Copies `bytes` from address `remote` of process `peer` into `local`.
  // Loops over partial transfers. On NotPermitted or Failed, errno holds
  // the cause and a prefix of `local` may already be written.
  // Zero bytes is Done (NotPermitted when disabled).
  CopyResult read(pid_t peer, std::uint64_t remote, void* local, std::size_t bytes) noexcept;

  // Reads every piece from process `peer` in one system call (a 4 KiB read
  // cost 0.43 us alone and 0.21 us in a batch of 16 on the Xeon VMs). At
  // most kMaxPieces pieces of at most max_chunk bytes in all. Done only when
  // every byte of every piece arrived; otherwise (NotPermitted or Failed,
  // errno says) any piece may be partly written, and the caller reads them
  // one by one with read(), which reports each one's fate.
  static constexpr std::size_t kMaxPieces = 16;
  CopyResult read_pieces(pid_t peer, std::span<const ReadPiece> pieces) noexcept;

  // Reads the peer's runs `remote` into our runs `local` (both covering
  // `bytes` bytes, at most 1024 iovecs a side) in one system call, more
  // only when the kernel stops short: a non-contiguous message on either
  // side crosses memory once, never packed. Same contract as read(); the
  // iovec arrays are not changed.
  CopyResult read_runs(pid_t peer, std::span<const iovec> local, std::span<const iovec> remote,
                       std::size_t bytes) noexcept;
  // The other way: writes our runs `local` into the peer's runs `remote`
  // (a sender's part of a split copy). Same contract as read_runs().
  CopyResult write_runs(pid_t peer, std::span<const iovec> local, std::span<const iovec> remote,
                        std::size_t bytes) noexcept;

  // Copies `bytes` from `local` to address `remote` of process `peer`.
  // Same contract as read().
  CopyResult write(pid_t peer, std::uint64_t remote, const void* local, std::size_t bytes) noexcept;

  // Probes with a real transfer: reads the `bytes` at `remote` of `peer`
  // (through a small scratch buffer, nothing kept) and answers true only if
  // every byte arrived. A refusal disables the object like read() does.
  // `bytes` must be at least 1: the kernel checks nothing for an empty copy
  // (false with EINVAL).
  bool probe(pid_t peer, std::uint64_t remote, std::size_t bytes) noexcept;

 private:
  enum class Direction : std::uint8_t { Read, Write };
  // False (errno EPERM) when disabled or when the test hook refuses, which
  // disables the object.
  bool permitted() noexcept;
  // The result of a call that failed with errno: NotPermitted for a refusal,
  // which disables the object, else Failed.
  CopyResult failure() noexcept;
  CopyResult transfer(Direction direction, pid_t peer, std::uint64_t remote, void* local,
                      std::size_t bytes) noexcept;
  CopyResult transfer_runs(Direction direction, pid_t peer, std::span<const iovec> local, std::span<const iovec> remote,
                           std::size_t bytes) noexcept;

  std::atomic<bool> enabled_;
  bool forced_failure_;
  std::size_t max_chunk_;
};

// Lets any process of our uid attach to this one with CMA where Yama's
// ptrace_scope is 1 (prctl PR_SET_PTRACER, PR_SET_PTRACER_ANY). Returns true
// when set or when Yama is absent (the prctl then fails with EINVAL, which
// is harmless); false with errno otherwise. It widens nothing beyond the
// classic same-uid ptrace rule and does not make a non-dumpable process
// reachable.
bool allow_peer_access() noexcept;

// True when this process is dumpable, i.e. peers of the same uid may copy
// from it with CMA and reach its memfd segments (for diagnostics).
bool process_is_dumpable() noexcept;

}  // namespace shmpi::btl
