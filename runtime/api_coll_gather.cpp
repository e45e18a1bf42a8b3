// MPI entry points: gather, scatter and allgather, blocking and nonblocking
// (schedules in runtime/coll_gather.cpp; blocking gather and allgather(v)
// through the collective slots where they serve the call,
// runtime/shm_collectives.hpp).
#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "runtime/coll_call.hpp"
#include "runtime/coll_packing.hpp"
#include "runtime/collectives.hpp"
#include "runtime/intercomm_calls.hpp"
#include "runtime/packing.hpp"
#include "runtime/shm_collectives.hpp"

using namespace shmpi::runtime;

namespace {

// The root's blocks of a (v) call: `counts` == nullptr means `count` each.
Check root_blocks(Context& context, const void* buffer, int count, const int* counts, const int* displs,
                  MPI_Datatype type, std::int32_t n, Blocks& out, Use use) {
  if (counts != nullptr) return check_typed_blocks(context.datatypes(), buffer, counts, displs, type, n, out, use);
  Typed t;
  if (Check c = check_typed(context.datatypes(), buffer, count, type, t, use)) return c;
  out = uniform_blocks(buffer, t, n);
  return std::nullopt;
}

// The bytes of `t`'s elements at `buffer`: the buffer itself, or packed
// into `space`. Throws std::bad_alloc.
const void* packed_copy(const void* buffer, const Typed& t, std::vector<std::byte>& space) {
  if (t.direct()) return buffer;
  space.resize(t.bytes);
  if (t.count != 0) pack_elements(*t.layout, t.count, buffer, space.data());
  return space.data();
}

int gather(const char* call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
           int recvcount, const int* recvcounts, const int* displs, MPI_Datatype recvtype, int root,
           MPI_Comm comm, MPI_Request* request, bool nonblocking) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, call, comm);
  if (c->inter)
    return inter_gather(context, *c, comm, call, DataArgs{sendbuf, sendcount, nullptr, nullptr, sendtype, nullptr},
                        DataArgs{recvbuf, recvcount, recvcounts, displs, recvtype, nullptr}, root, request,
                        nonblocking);
  if (int rc = raise_if(context, c, call,
                        first_error({check_request_pointer(request, nonblocking), check_root(root, *c)})))
    return rc;
  const bool at_root = c->rank == root;
  const bool in_place = at_root && sendbuf == MPI_IN_PLACE;
  Typed send;
  Blocks recv;
  if (int rc = raise_if(context, c, call,
                        first_error({in_place ? std::nullopt : check_not_in_place(sendbuf, "sendbuf"),
                                     in_place ? std::nullopt
                                              : check_typed(context.datatypes(), sendbuf, sendcount, sendtype, send),
                                     at_root ? root_blocks(context, recvbuf, recvcount, recvcounts, displs, recvtype,
                                                           c->size, recv, Use::Receive)
                                             : std::nullopt})))
    return rc;
  if (!nonblocking && c->size == 2 && (at_root ? recv.size_of(1 - root) : send.bytes) <= kPairExchangeMax) {
    try {
      std::vector<std::byte> space;
      if (!at_root) {
        send_to_root(context, *c, packed_copy(sendbuf, send, space), send.bytes, call);
        return MPI_SUCCESS;
      }
      if (!in_place && recv.size_of(root) != 0) {
        unpack_block(recv, static_cast<std::size_t>(root),
                     static_cast<const std::byte*>(packed_copy(sendbuf, send, space)));
      }
      receive_from_peer(context, *c, recv, call);
    } catch (const std::bad_alloc&) {
      return out_of_memory(context, *c, call);
    }
    return MPI_SUCCESS;
  }
  ShmCollectives& shm = context.shm_collectives();
  if (!nonblocking && recvcounts == nullptr && shm.serves(*c, at_root ? recv.size_of(root) : send.bytes)) {
    try {
      std::vector<std::byte> space;
      shm.gather(context, *c, in_place ? nullptr : packed_copy(sendbuf, send, space), send.bytes, recv, root);
    } catch (const std::bad_alloc&) {
      return out_of_memory(context, *c, call);
    }
    return MPI_SUCCESS;
  }
  return run_collective(context, *c, comm, request, call, [&](Schedule& s) {
    packed_output(s, recv, in_place ? root : -1);
    const void* from = in_place ? recv.at(root) : packed_input(s, sendbuf, send);
    build_gather(s, from, in_place ? recv.size_of(root) : send.bytes, recv, root);
  });
}

int scatter(const char* call, const void* sendbuf, int sendcount, const int* sendcounts, const int* displs,
            MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
            MPI_Request* request, bool nonblocking) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, call, comm);
  if (c->inter)
    return inter_scatter(context, *c, comm, call, DataArgs{sendbuf, sendcount, sendcounts, displs, sendtype, nullptr},
                         DataArgs{recvbuf, recvcount, nullptr, nullptr, recvtype, nullptr}, root, request,
                         nonblocking);
  if (int rc = raise_if(context, c, call,
                        first_error({check_request_pointer(request, nonblocking), check_root(root, *c)})))
    return rc;
  const bool at_root = c->rank == root;
  const bool in_place = at_root && recvbuf == MPI_IN_PLACE;
  Typed recv;
  Blocks send;
  if (int rc = raise_if(context, c, call,
                        first_error({in_place ? std::nullopt : check_not_in_place(recvbuf, "recvbuf"),
                                     in_place ? std::nullopt
                                              : check_typed(context.datatypes(), recvbuf, recvcount, recvtype, recv,
                                                            Use::Receive),
                                     at_root ? root_blocks(context, sendbuf, sendcount, sendcounts, displs, sendtype,
                                                           c->size, send, Use::Send)
                                             : std::nullopt})))
    return rc;
  if (!nonblocking && c->size == 2 && (at_root ? send.size_of(1 - root) : recv.bytes) <= kPairExchangeMax) {
    try {
      if (at_root) {
        send_to_peer(context, *c, send, call);
        if (!in_place && recv.bytes != 0) {
          const auto me = static_cast<std::size_t>(root);
          std::vector<std::byte> own(send.contiguous(me) ? 0 : send.size_of(root));
          if (!own.empty()) pack_block(send, me, own.data());
          const void* from = own.empty() ? static_cast<const void*>(send.at(root)) : own.data();
          const std::size_t bytes = std::min(recv.bytes, send.size_of(root));
          if (recv.direct()) {
            std::memcpy(recvbuf, from, bytes);
          } else {
            unpack_elements(*recv.layout, recv.count, from, bytes, recvbuf);
          }
        }
        return MPI_SUCCESS;
      }
      std::vector<std::byte> incoming(recv.direct() ? 0 : recv.bytes);
      receive_from_root(context, *c, recv.direct() ? recvbuf : incoming.data(), recv.bytes, call);
      if (!recv.direct()) unpack_elements(*recv.layout, recv.count, incoming.data(), recv.bytes, recvbuf);
    } catch (const std::bad_alloc&) {
      return out_of_memory(context, *c, call);
    }
    return MPI_SUCCESS;
  }
  return run_collective(context, *c, comm, request, call, [&](Schedule& s) {
    packed_input(s, send);
    // In place, the root's block stays where it is (copied onto itself).
    void* to = in_place ? send.at(root) : packed_output(s, recvbuf, recv);
    build_scatter(s, send, to, in_place ? send.size_of(root) : recv.bytes, root);
  });
}

int allgather(const char* call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
              int recvcount, const int* recvcounts, const int* displs, MPI_Datatype recvtype, MPI_Comm comm,
              MPI_Request* request, bool nonblocking) {
  const Entry entry = enter(call);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, call, comm);
  if (c->inter)
    return inter_allgather(context, *c, comm, call, DataArgs{sendbuf, sendcount, nullptr, nullptr, sendtype, nullptr},
                           DataArgs{recvbuf, recvcount, recvcounts, displs, recvtype, nullptr}, request,
                           nonblocking);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (!nonblocking && c->size == 2 && !in_place && recvcounts == nullptr)
    if (std::optional<int> rc = contiguous_pair_exchange(
            context, *c, DataArgs{sendbuf, sendcount, nullptr, nullptr, sendtype, nullptr},
            DataArgs{recvbuf, recvcount, nullptr, nullptr, recvtype, nullptr}, SendBlocks::One, call))
      return *rc;
  Typed send;
  Blocks recv;
  if (int rc = raise_if(
          context, c, call,
          first_error({check_request_pointer(request, nonblocking), check_not_in_place(recvbuf, "recvbuf"),
                       in_place ? std::nullopt : check_typed(context.datatypes(), sendbuf, sendcount, sendtype, send),
                       root_blocks(context, recvbuf, recvcount, recvcounts, displs, recvtype, c->size, recv,
                                   Use::Receive)})))
    return rc;
  const std::size_t largest = *std::max_element(recv.bytes.begin(), recv.bytes.end());
  if (!nonblocking && c->size == 2 && largest <= kPairExchangeMax) {
    try {
      std::vector<std::byte> space;
      const auto me = static_cast<std::size_t>(c->rank);
      const void* mine = in_place ? nullptr : packed_copy(sendbuf, send, space);
      if (in_place && !recv.direct()) {
        space.resize(recv.size_of(c->rank));
        pack_block(recv, me, space.data());
      }
      const void* out = mine != nullptr ? mine : in_place && recv.direct() ? recv.at(c->rank) : space.data();
      exchange_with_peer(context, *c, out, recv.size_of(c->rank), recv, call);
      if (!in_place) unpack_block(recv, me, static_cast<const std::byte*>(mine));
    } catch (const std::bad_alloc&) {
      return out_of_memory(context, *c, call);
    }
    return MPI_SUCCESS;
  }
  ShmCollectives& shm = context.shm_collectives();
  if (!nonblocking && shm.serves(*c, largest)) {
    try {
      std::vector<std::byte> space;
      const void* mine = in_place ? nullptr : packed_copy(sendbuf, send, space);
      shm.allgather(context, *c, mine, in_place ? recv.size_of(c->rank) : send.bytes, recv);
    } catch (const std::bad_alloc&) {
      return out_of_memory(context, *c, call);
    }
    return MPI_SUCCESS;
  }
  return run_collective(context, *c, comm, request, call, [&](Schedule& s) {
    packed_output(s, recv, in_place ? c->rank : -1);
    build_allgather(s, in_place ? recv.at(c->rank) : packed_input(s, sendbuf, send), recv);
  });
}

}  // namespace

extern "C" int PMPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return gather("MPI_Gather", sendbuf, sendcount, sendtype, recvbuf, recvcount, nullptr, nullptr, recvtype, root,
                comm, nullptr, false);
}

extern "C" int PMPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return gather("MPI_Igather", sendbuf, sendcount, sendtype, recvbuf, recvcount, nullptr, nullptr, recvtype, root,
                comm, request, true);
}

extern "C" int PMPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                            MPI_Comm comm) {
  return gather("MPI_Gatherv", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, root, comm,
                nullptr, false);
}

extern "C" int PMPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                             MPI_Comm comm, MPI_Request* request) {
  return gather("MPI_Igatherv", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, root, comm,
                request, true);
}

extern "C" int PMPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return scatter("MPI_Scatter", sendbuf, sendcount, nullptr, nullptr, sendtype, recvbuf, recvcount, recvtype, root,
                 comm, nullptr, false);
}

extern "C" int PMPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return scatter("MPI_Iscatter", sendbuf, sendcount, nullptr, nullptr, sendtype, recvbuf, recvcount, recvtype, root,
                 comm, request, true);
}

extern "C" int PMPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return scatter("MPI_Scatterv", sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                 nullptr, false);
}

extern "C" int PMPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                              MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                              MPI_Comm comm, MPI_Request* request) {
  return scatter("MPI_Iscatterv", sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                 request, true);
}

extern "C" int PMPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return allgather("MPI_Allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, nullptr, nullptr, recvtype,
                   comm, nullptr, false);
}

extern "C" int PMPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return allgather("MPI_Iallgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, nullptr, nullptr, recvtype,
                   comm, request, true);
}

extern "C" int PMPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  return allgather("MPI_Allgatherv", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, comm,
                   nullptr, false);
}

extern "C" int PMPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request* request) {
  return allgather("MPI_Iallgatherv", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, comm,
                   request, true);
}

SHMPI_PMPI_ALIAS(Gather)
SHMPI_PMPI_ALIAS(Igather)
SHMPI_PMPI_ALIAS(Gatherv)
SHMPI_PMPI_ALIAS(Igatherv)
SHMPI_PMPI_ALIAS(Scatter)
SHMPI_PMPI_ALIAS(Iscatter)
SHMPI_PMPI_ALIAS(Scatterv)
SHMPI_PMPI_ALIAS(Iscatterv)
SHMPI_PMPI_ALIAS(Allgather)
SHMPI_PMPI_ALIAS(Iallgather)
SHMPI_PMPI_ALIAS(Allgatherv)
SHMPI_PMPI_ALIAS(Iallgatherv)
