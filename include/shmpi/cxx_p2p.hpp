// shmpi C++ API: point-to-point operations, shared by Comm and UniqueComm.
//
// PointToPoint<Self> is a CRTP mix-in: no data, no virtual calls; every
// operation reads the communicator from Self::native(). Buffers are as
// cxx_datatype.hpp describes (std::span<T>, contiguous containers, single
// values). Every failure throws shmpi::Error (cxx_error.hpp), including a
// receive into a buffer too short for the message (MPI_ERR_TRUNCATE).
//
// Nonblocking calls return a Request that must outlive nothing but itself:
// the caller keeps the buffer alive and untouched until the Request has
// completed (wait(), test(), wait_all() or its destructor, which waits).
#ifndef SHMPI_CXX_P2P_HPP
#define SHMPI_CXX_P2P_HPP

#include <shmpi/cxx_request.hpp>

#include <concepts>
#include <optional>
#include <utility>

namespace shmpi::detail {

template <class Self>
class PointToPoint {
 public:
  // Blocking standard-mode send; returns once `data` may be reused.
  template <SendBuffer B>
  void send(const B& data, int dest, int tag = 0) const {
    const auto b = send_buffer(data, "MPI_Send");
    check(MPI_Send(b.data, b.count, b.type, dest, tag, comm()), "MPI_Send");
  }

  // Synchronous send: returns once the receiver has matched the message.
  template <SendBuffer B>
  void ssend(const B& data, int dest, int tag = 0) const {
    const auto b = send_buffer(data, "MPI_Ssend");
    check(MPI_Ssend(b.data, b.count, b.type, dest, tag, comm()), "MPI_Ssend");
  }

  // Receives into `data` (a span, a container lvalue or a single value);
  // the message may be shorter than the buffer: Status::count<T>() says
  // how much arrived.
  template <class B>
    requires RecvBuffer<B&&>
  Status recv(B&& data, int source = any_source, int tag = any_tag) const {
    const auto b = recv_buffer(data, "MPI_Recv");
    Status status;
    check(MPI_Recv(b.data, b.count, b.type, source, tag, comm(), &status.native()), "MPI_Recv");
    return status;
  }

  // Receives one T and returns it: `auto x = comm.recv<double>(0, 7);`
  template <Transferable T>
    requires std::default_initializable<T>
  [[nodiscard]] T recv(int source = any_source, int tag = any_tag) const {
    T value;
    (void)recv(value, source, tag);
    return value;
  }

  // Sends `out` to `dest` and receives into `in` from `source` as one
  // call, so that a ring or a pairwise exchange cannot deadlock.
  template <SendBuffer S, class R>
    requires RecvBuffer<R&&>
  Status sendrecv(const S& out, int dest, int sendtag, R&& in, int source = any_source,
                  int recvtag = any_tag) const {
    const auto s = send_buffer(out, "MPI_Sendrecv");
    const auto r = recv_buffer(in, "MPI_Sendrecv");
    Status status;
    check(MPI_Sendrecv(s.data, s.count, s.type, dest, sendtag, r.data, r.count, r.type, source,
                       recvtag, comm(), &status.native()),
          "MPI_Sendrecv");
    return status;
  }

  // Blocks until a matching message can be received, without receiving
  // it; size the buffer with Status::count<T>().
  Status probe(int source = any_source, int tag = any_tag) const {
    Status status;
    check(MPI_Probe(source, tag, comm(), &status.native()), "MPI_Probe");
    return status;
  }

  // As probe(), but returns std::nullopt at once when nothing matches.
  [[nodiscard]] std::optional<Status> iprobe(int source = any_source, int tag = any_tag) const {
    Status status;
    int found = 0;
    check(MPI_Iprobe(source, tag, comm(), &found, &status.native()), "MPI_Iprobe");
    if (found == 0) return std::nullopt;
    return status;
  }

  // Nonblocking send. `data` must be an lvalue or a view (a temporary
  // would be gone before the send reads it).
  template <class B>
    requires PersistentSendBuffer<B&&>
  [[nodiscard]] Request isend(B&& data, int dest, int tag = 0) const {
    const auto b = send_buffer(data, "MPI_Isend");
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Isend(b.data, b.count, b.type, dest, tag, comm(), &request), "MPI_Isend");
    return Request(request);
  }

  // Nonblocking synchronous send: completes once the receiver matched it.
  template <class B>
    requires PersistentSendBuffer<B&&>
  [[nodiscard]] Request issend(B&& data, int dest, int tag = 0) const {
    const auto b = send_buffer(data, "MPI_Issend");
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Issend(b.data, b.count, b.type, dest, tag, comm(), &request), "MPI_Issend");
    return Request(request);
  }

  // Nonblocking receive; the Status comes from Request::wait()/test().
  template <class B>
    requires RecvBuffer<B&&>
  [[nodiscard]] Request irecv(B&& data, int source = any_source, int tag = any_tag) const {
    const auto b = recv_buffer(data, "MPI_Irecv");
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Irecv(b.data, b.count, b.type, source, tag, comm(), &request), "MPI_Irecv");
    return Request(request);
  }

 private:
  MPI_Comm comm() const noexcept { return static_cast<const Self&>(*this).native(); }
};

}  // namespace shmpi::detail

#endif  // SHMPI_CXX_P2P_HPP
