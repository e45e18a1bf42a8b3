#include "btl/single_copy.hpp"

#include <sys/prctl.h>
#include <sys/uio.h>

#include <algorithm>
#include <array>
#include <cerrno>

namespace shmpi::btl {
namespace {

// True for the errors that mean "CMA is not allowed here" rather than "this
// particular copy went wrong". The kernel reports a ptrace refusal as EPERM
// (it turns EACCES into EPERM itself); seccomp filters in containers answer
// EPERM or ENOSYS.
bool is_refusal(int error) noexcept { return error == EPERM || error == EACCES || error == ENOSYS; }

// Moves the front of `iov[0, count)` past `bytes` bytes that were copied,
// in the caller's copy of the array; returns the new start.
iovec* skip_copied(iovec* iov, std::size_t& count, std::size_t bytes) noexcept {
  while (count > 0 && bytes >= iov->iov_len) {
    bytes -= iov->iov_len;
    ++iov;
    --count;
  }
  if (count > 0 && bytes > 0) {
    iov->iov_base = static_cast<std::byte*>(iov->iov_base) + bytes;
    iov->iov_len -= bytes;
  }
  return iov;
}

}  // namespace

SingleCopy::SingleCopy(bool enabled, bool forced_failure, std::size_t max_chunk) noexcept
    : enabled_(enabled), forced_failure_(forced_failure), max_chunk_(std::max<std::size_t>(max_chunk, 1)) {}

bool SingleCopy::permitted() noexcept {
  if (!enabled()) {
    errno = EPERM;
    return false;
  }
  if (forced_failure_) {
    enabled_.store(false, std::memory_order_relaxed);
    errno = EPERM;
    return false;
  }
  return true;
}

CopyResult SingleCopy::failure() noexcept {
  if (!is_refusal(errno)) return CopyResult::Failed;
  enabled_.store(false, std::memory_order_relaxed);
  return CopyResult::NotPermitted;
}

CopyResult SingleCopy::read(pid_t peer, std::uint64_t remote, void* local, std::size_t bytes) noexcept {
  return transfer(Direction::Read, peer, remote, local, bytes);
}

CopyResult SingleCopy::write(pid_t peer, std::uint64_t remote, const void* local, std::size_t bytes) noexcept {
  // process_vm_writev takes a non-const iovec but only reads the local side.
  return transfer(Direction::Write, peer, remote, const_cast<void*>(local), bytes);
}

CopyResult SingleCopy::transfer(Direction direction, pid_t peer, std::uint64_t remote, void* local,
                                std::size_t bytes) noexcept {
  if (!permitted()) return CopyResult::NotPermitted;
  auto* out = static_cast<std::byte*>(local);
  std::size_t done = 0;
  while (done < bytes) {
    const std::size_t chunk = std::min(bytes - done, max_chunk_);
    iovec mine{out + done, chunk};
    iovec theirs{reinterpret_cast<void*>(static_cast<std::uintptr_t>(remote + done)), chunk};
    const ssize_t n = direction == Direction::Read ? ::process_vm_readv(peer, &mine, 1, &theirs, 1, 0)
                                                   : ::process_vm_writev(peer, &mine, 1, &theirs, 1, 0);
    if (n > 0) {
      // A short count means the copy stopped at a bad page (or a signal):
      // the next call either continues or reports the error itself.
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) errno = EFAULT;  // nothing moved and no error: do not spin
    return failure();
  }
  return CopyResult::Done;
}

CopyResult SingleCopy::read_pieces(pid_t peer, std::span<const ReadPiece> pieces) noexcept {
  if (!permitted()) return CopyResult::NotPermitted;
  if (pieces.size() > kMaxPieces) {
    errno = EINVAL;
    return CopyResult::Failed;
  }
  std::array<iovec, kMaxPieces> mine;
  std::array<iovec, kMaxPieces> theirs;
  std::size_t total = 0;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    mine[i] = iovec{pieces[i].local, pieces[i].bytes};
    theirs[i] = iovec{reinterpret_cast<void*>(static_cast<std::uintptr_t>(pieces[i].remote)), pieces[i].bytes};
    total += pieces[i].bytes;
  }
  if (total > max_chunk_) {
    errno = E2BIG;
    return CopyResult::Failed;
  }
  const auto count = static_cast<unsigned long>(pieces.size());
  const ssize_t n = ::process_vm_readv(peer, mine.data(), count, theirs.data(), count, 0);
  if (n >= 0 && static_cast<std::size_t>(n) == total) return CopyResult::Done;
  if (n >= 0) errno = EFAULT;  // short: a bad page (or a signal) somewhere
  return failure();
}

CopyResult SingleCopy::read_runs(pid_t peer, std::span<const iovec> local, std::span<const iovec> remote,
                                 std::size_t bytes) noexcept {
  return transfer_runs(Direction::Read, peer, local, remote, bytes);
}

CopyResult SingleCopy::write_runs(pid_t peer, std::span<const iovec> local, std::span<const iovec> remote,
                                  std::size_t bytes) noexcept {
  return transfer_runs(Direction::Write, peer, local, remote, bytes);
}

CopyResult SingleCopy::transfer_runs(Direction direction, pid_t peer, std::span<const iovec> local,
                                     std::span<const iovec> remote, std::size_t bytes) noexcept {
  if (!permitted()) return CopyResult::NotPermitted;
  constexpr std::size_t kMaxIovecs = 1024;  // UIO_MAXIOV
  if (local.size() > kMaxIovecs || remote.size() > kMaxIovecs) {
    errno = EINVAL;
    return CopyResult::Failed;
  }
  // The first call is made on the caller's arrays; only a short count
  // (a signal, or a bad page the next call reports) pays for a copy.
  auto* mine = const_cast<iovec*>(local.data());  // process_vm_readv/writev only read the arrays
  auto* theirs = const_cast<iovec*>(remote.data());
  std::size_t mine_count = local.size(), theirs_count = remote.size();
  std::array<iovec, kMaxIovecs> mine_left, theirs_left;
  bool own_arrays = false;
  std::size_t done = 0;
  while (done < bytes) {
    const ssize_t n = direction == Direction::Read
                          ? ::process_vm_readv(peer, mine, mine_count, theirs, theirs_count, 0)
                          : ::process_vm_writev(peer, mine, mine_count, theirs, theirs_count, 0);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      if (done == bytes) break;
      if (!own_arrays) {
        own_arrays = true;
        std::copy_n(mine, mine_count, mine_left.data());
        std::copy_n(theirs, theirs_count, theirs_left.data());
        mine = mine_left.data();
        theirs = theirs_left.data();
      }
      mine = skip_copied(mine, mine_count, static_cast<std::size_t>(n));
      theirs = skip_copied(theirs, theirs_count, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) errno = EFAULT;
    return failure();
  }
  return CopyResult::Done;
}

bool SingleCopy::probe(pid_t peer, std::uint64_t remote, std::size_t bytes) noexcept {
  if (bytes == 0) {
    errno = EINVAL;
    return false;
  }
  std::array<std::byte, 4096> scratch;
  for (std::size_t done = 0; done < bytes; done += scratch.size()) {
    const std::size_t chunk = std::min(bytes - done, scratch.size());
    if (read(peer, remote + done, scratch.data(), chunk) != CopyResult::Done) return false;
  }
  return true;
}

bool allow_peer_access() noexcept {
  if (::prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0) == 0) return true;
  return errno == EINVAL;  // no Yama in this kernel: nothing to allow
}

bool process_is_dumpable() noexcept { return ::prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 1; }

}  // namespace shmpi::btl
