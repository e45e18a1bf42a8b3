// MPI entry points: alltoall, alltoallv, alltoallw, blocking and nonblocking
// (schedule in runtime/coll_alltoall.cpp; a blocking alltoall of equal
// blocks through the collective slots where they serve the call,
// runtime/shm_collectives.hpp).
#include <algorithm>
#include <cstring>
#include <optional>

#include "runtime/coll_call.hpp"
#include "runtime/coll_packing.hpp"
#include "runtime/collectives.hpp"
#include "runtime/intercomm_calls.hpp"
#include "runtime/shm_collectives.hpp"

using namespace shmpi::runtime;

namespace {

// MPI_IN_PLACE: the data to send is in the receive buffer, laid out as
// received; it is copied aside first, since blocks arrive over it (packed
// aside, for datatypes that are not contiguous).
Blocks copied_aside(Schedule& s, const Blocks& recv) {
  if (!recv.direct()) {
    Blocks send = recv;
    packed_input(s, send);
    return send;
  }
  std::size_t extent = 0;
  for (std::size_t i = 0; i < recv.bytes.size(); ++i)
    if (recv.bytes[i] != 0) extent = std::max(extent, recv.offset[i] + recv.bytes[i]);
  Blocks send = recv;
  send.base = s.scratch(extent);
  for (std::size_t i = 0; i < recv.bytes.size(); ++i)
    if (recv.bytes[i] != 0) std::memcpy(send.base + recv.offset[i], recv.base + recv.offset[i], recv.bytes[i]);
  return send;
}

int alltoall(const char* call, const DataArgs& send_side, const DataArgs& recv_side, MPI_Comm comm,
             MPI_Request* request, bool nonblocking) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, call, comm);
  if (c->inter) return inter_alltoall(context, *c, comm, call, send_side, recv_side, request, nonblocking);
  const bool in_place = send_side.buffer == MPI_IN_PLACE;
  if (!nonblocking && c->size == 2 && !in_place && send_side.counts == nullptr && send_side.types == nullptr)
    if (std::optional<int> rc = contiguous_pair_exchange(context, *c, send_side, recv_side, SendBlocks::PerRank, call))
      return *rc;
  Blocks send;
  Blocks recv;
  if (int rc = raise_if(context, c, call,
                        first_error({check_request_pointer(request, nonblocking),
                                     check_not_in_place(recv_side.buffer, "recvbuf"),
                                     in_place ? std::nullopt
                                              : check_data_blocks(context.datatypes(), send_side, c->size, send,
                                                                  Use::Send),
                                     check_data_blocks(context.datatypes(), recv_side, c->size, recv, Use::Receive)})))
    return rc;
  const std::int32_t peer = 1 - c->rank;
  if (!nonblocking && c->size == 2 &&
      std::max((in_place ? recv : send).size_of(peer), recv.size_of(peer)) <= kPairExchangeMax) {
    try {
      const auto me = static_cast<std::size_t>(c->rank);
      // Our block for the peer, straight from the buffer when contiguous;
      // else packed, and in place copied aside first (its block arrives
      // over it).
      const Blocks& from = in_place ? recv : send;
      const auto to_peer = static_cast<std::size_t>(peer);
      const bool straight = !in_place && send.contiguous(to_peer);
      std::vector<std::byte> out(straight ? 0 : from.size_of(peer));
      if (!straight) pack_block(from, to_peer, out.data());
      const void* outgoing = straight ? static_cast<const void*>(send.at(peer)) : out.data();
      exchange_with_peer(context, *c, outgoing, from.size_of(peer), recv, call);
      // Our own block after the exchange, as allgather's: the peer's block
      // leaves first.
      if (!in_place) {
        if (send.contiguous(me) && recv.contiguous(me)) {
          if (recv.size_of(c->rank) != 0) std::memcpy(recv.at(c->rank), send.at(c->rank), recv.size_of(c->rank));
        } else {
          std::vector<std::byte> own(send.size_of(c->rank));
          pack_block(send, me, own.data());
          unpack_block(recv, me, own.data());
        }
      }
    } catch (const std::bad_alloc&) {
      return out_of_memory(context, *c, call);
    }
    return MPI_SUCCESS;
  }
  // Equal blocks (not v or w) of at most a slot in all go through the
  // collective slots: every member sees the same sizes.
  ShmCollectives& shm = context.shm_collectives();
  if (!nonblocking && recv_side.counts == nullptr && recv_side.types == nullptr &&
      shm.serves(*c, recv.size_of(0) * static_cast<std::size_t>(c->size))) {
    shm.alltoall(context, *c, in_place ? recv : send, recv);
    return MPI_SUCCESS;
  }
  return run_collective(context, *c, comm, request, call, [&](Schedule& s) {
    if (in_place) send = copied_aside(s, recv);
    packed_input(s, send);
    packed_output(s, recv);
    build_alltoall(s, send, recv);
  });
}

}  // namespace

extern "C" int PMPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm) {
  return alltoall("MPI_Alltoall", DataArgs{sendbuf, sendcount, nullptr, nullptr, sendtype, nullptr},
                  DataArgs{recvbuf, recvcount, nullptr, nullptr, recvtype, nullptr}, comm, nullptr, false);
}

extern "C" int PMPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return alltoall("MPI_Ialltoall", DataArgs{sendbuf, sendcount, nullptr, nullptr, sendtype, nullptr},
                  DataArgs{recvbuf, recvcount, nullptr, nullptr, recvtype, nullptr}, comm, request, true);
}

extern "C" int PMPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                              void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                              MPI_Comm comm) {
  return alltoall("MPI_Alltoallv", DataArgs{sendbuf, 0, sendcounts, sdispls, sendtype, nullptr},
                  DataArgs{recvbuf, 0, recvcounts, rdispls, recvtype, nullptr}, comm, nullptr, false);
}

extern "C" int PMPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                               MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return alltoall("MPI_Ialltoallv", DataArgs{sendbuf, 0, sendcounts, sdispls, sendtype, nullptr},
                  DataArgs{recvbuf, 0, recvcounts, rdispls, recvtype, nullptr}, comm, request, true);
}

extern "C" int PMPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                              const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                              const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return alltoall("MPI_Alltoallw", DataArgs{sendbuf, 0, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes},
                  DataArgs{recvbuf, 0, recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes}, comm, nullptr, false);
}

extern "C" int PMPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                               const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                               const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                               MPI_Request* request) {
  return alltoall("MPI_Ialltoallw", DataArgs{sendbuf, 0, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes},
                  DataArgs{recvbuf, 0, recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes}, comm, request, true);
}

SHMPI_PMPI_ALIAS(Alltoall)
SHMPI_PMPI_ALIAS(Ialltoall)
SHMPI_PMPI_ALIAS(Alltoallv)
SHMPI_PMPI_ALIAS(Ialltoallv)
SHMPI_PMPI_ALIAS(Alltoallw)
SHMPI_PMPI_ALIAS(Ialltoallw)
