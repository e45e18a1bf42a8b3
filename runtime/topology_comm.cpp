#include "runtime/topology_comm.hpp"

#include <new>
#include <type_traits>

#include "runtime/api.hpp"
#include "runtime/comm_split.hpp"

namespace shmpi::runtime {
namespace {

template <class T>
constexpr const char* kind_name() {
  if constexpr (std::is_same_v<T, CartTopology>) return "Cartesian topology";
  if constexpr (std::is_same_v<T, GraphTopology>) return "graph topology";
  return "distributed graph topology";
}

}  // namespace

int make_topology_comm(Context& context, const char* call, MPI_Comm parent, int members, Topology topology,
                       MPI_Comm* newcomm) {
  try {
    const Communicator copy = *context.communicator(parent);
    std::optional<Communicator> part =
        split(context, copy, copy.rank < members ? 0 : MPI_UNDEFINED, copy.rank, call);
    if (!part) {
      *newcomm = MPI_COMM_NULL;
      return MPI_SUCCESS;
    }
    part->topology = std::move(topology);
    part->hints = copy.hints;
    *newcomm = context.communicators().add(std::move(*part));
  } catch (const std::bad_alloc&) {
    return raise_error(context, context.communicator(parent), call, MPI_ERR_NO_MEM, "out of memory");
  }
  return MPI_SUCCESS;
}

template <class T>
const T* topology_or_raise(Context& context, const char* call, MPI_Comm comm, int& rc, const Communicator** out) {
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) {
    rc = invalid_communicator(context, call, comm);
    return nullptr;
  }
  if (out != nullptr) *out = c;
  const T* t = c->topology ? std::get_if<T>(&*c->topology) : nullptr;
  if (t == nullptr) rc = raise_error(context, c, call, MPI_ERR_TOPOLOGY, c->name + " has no " + kind_name<T>());
  return t;
}

template const CartTopology* topology_or_raise<CartTopology>(Context&, const char*, MPI_Comm, int&,
                                                             const Communicator**);
template const GraphTopology* topology_or_raise<GraphTopology>(Context&, const char*, MPI_Comm, int&,
                                                               const Communicator**);
template const DistGraphTopology* topology_or_raise<DistGraphTopology>(Context&, const char*, MPI_Comm, int&,
                                                                       const Communicator**);

}  // namespace shmpi::runtime
