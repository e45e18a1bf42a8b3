// shmpi C++ API: a pending nonblocking operation.
//
// Request owns one MPI_Request. It is move-only; a moved-from or completed
// Request is null (active() == false), and every operation on a null
// Request is allowed: wait() returns the empty Status at once, test()
// returns it, cancel() does nothing.
//
// Destructor: destroying an active Request WAITS for it, as std::jthread
// joins. The buffer of a nonblocking call usually lives in the same scope
// as its Request and is destroyed right after it; if the destructor only
// freed the request (MPI_Request_free), the runtime would go on writing a
// receive into, or reading a send from, memory that no longer exists.
// Waiting makes "the Request is gone" imply "the buffer is no longer
// used", so forgetting a wait() costs time, never memory safety.
// During stack unwinding (std::uncaught_exceptions() > 0) the destructor
// first cancels the request, so that a receive whose peer will never send
// cannot hang the unwinding; a send that is already matched completes as
// usual. Errors in the destructor's wait are swallowed (it is noexcept):
// call wait() to see them. After MPI_Finalize the destructor does nothing.
#ifndef SHMPI_CXX_REQUEST_HPP
#define SHMPI_CXX_REQUEST_HPP

#include <shmpi/cxx_status.hpp>

#include <algorithm>
#include <array>
#include <exception>
#include <optional>
#include <span>
#include <utility>

namespace shmpi {

class Request {
 public:
  Request() noexcept = default;
  // Adopts a request from the C API; it will be waited for on destruction.
  explicit Request(MPI_Request native) noexcept : native_(native) {}

  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;
  Request(Request&& other) noexcept : native_(std::exchange(other.native_, MPI_REQUEST_NULL)) {}
  // Waits for the request this one held (as the destructor does), then
  // takes over `other`'s.
  Request& operator=(Request&& other) noexcept {
    if (this != &other) {
      finish();
      native_ = std::exchange(other.native_, MPI_REQUEST_NULL);
    }
    return *this;
  }
  ~Request() { finish(); }

  [[nodiscard]] bool active() const noexcept { return native_ != MPI_REQUEST_NULL; }
  explicit operator bool() const noexcept { return active(); }

  // Blocks until the operation completes; the Request is null afterwards.
  Status wait() {
    Status status;
    if (!active()) return status;
    detail::check(MPI_Wait(&native_, &status.native()), "MPI_Wait");
    return status;
  }

  // The Status if the operation has completed (the Request is then null),
  // std::nullopt if it is still pending.
  [[nodiscard]] std::optional<Status> test() {
    Status status;
    if (!active()) return status;
    int done = 0;
    detail::check(MPI_Test(&native_, &done, &status.native()), "MPI_Test");
    if (done == 0) return std::nullopt;
    return status;
  }

  // Asks for the operation to be cancelled. It still has to be completed
  // (wait(), test() or the destructor); Status::cancelled() then says
  // whether the cancel took effect or the operation completed normally.
  void cancel() {
    if (active()) detail::check(MPI_Cancel(&native_), "MPI_Cancel");
  }

  [[nodiscard]] MPI_Request native() const noexcept { return native_; }
  // Gives the request back to C code; this Request becomes null.
  [[nodiscard]] MPI_Request release() noexcept { return std::exchange(native_, MPI_REQUEST_NULL); }

 private:
  void finish() noexcept {
    if (!active()) return;
    int finalized = 0;
    if (MPI_Finalized(&finalized) == MPI_SUCCESS && finalized == 0) {
      if (std::uncaught_exceptions() > 0) (void)MPI_Cancel(&native_);
      (void)MPI_Wait(&native_, MPI_STATUS_IGNORE);
    }
    native_ = MPI_REQUEST_NULL;
  }

  MPI_Request native_ = MPI_REQUEST_NULL;
};

namespace detail {

// MPI_Waitall over requests[0, n) through a stack copy of the handles;
// `statuses` is null or holds n entries.
inline void wait_chunk(Request* requests, std::size_t n, Status* statuses) {
  constexpr std::size_t kChunk = 64;
  std::array<MPI_Request, kChunk> handles;
  std::array<MPI_Status, kChunk> natives;
  for (std::size_t i = 0; i < n; ++i) handles[i] = requests[i].release();
  const int rc = MPI_Waitall(static_cast<int>(n), handles.data(),
                             statuses ? natives.data() : MPI_STATUSES_IGNORE);
  // Whatever did not complete goes back to its owner, which waits for it.
  for (std::size_t i = 0; i < n; ++i) requests[i] = Request(handles[i]);
  if (statuses)
    for (std::size_t i = 0; i < n; ++i) statuses[i] = Status(natives[i]);
  check(rc, "MPI_Waitall");
}

inline void wait_all(std::span<Request> requests, Status* statuses) {
  constexpr std::size_t kChunk = 64;  // as in wait_chunk: no allocation
  // Waiting for the chunks one after another is waiting for all of them:
  // the runtime progresses every pending operation while it blocks.
  for (std::size_t first = 0; first < requests.size(); first += kChunk) {
    const std::size_t n = std::min(kChunk, requests.size() - first);
    wait_chunk(requests.data() + first, n, statuses ? statuses + first : nullptr);
  }
}

}  // namespace detail

// Waits for every request; all are null afterwards.
inline void wait_all(std::span<Request> requests) { detail::wait_all(requests, nullptr); }

// As above, and statuses[i] receives the status of requests[i]; statuses
// must be at least as long as requests (MPI_ERR_COUNT otherwise).
inline void wait_all(std::span<Request> requests, std::span<Status> statuses) {
  if (statuses.size() < requests.size())
    detail::raise(MPI_ERR_COUNT, "MPI_Waitall", "fewer statuses than requests");
  detail::wait_all(requests, statuses.data());
}

}  // namespace shmpi

#endif  // SHMPI_CXX_REQUEST_HPP
