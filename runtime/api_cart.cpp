// MPI entry points: Cartesian topologies (arithmetic in runtime/topology.cpp)
// and MPI_Topo_test.
#include <new>
#include <vector>

#include "runtime/api.hpp"
#include "runtime/comm_split.hpp"
#include "runtime/topology_comm.hpp"

using namespace shmpi::runtime;

namespace {

// dims[0..ndims) and periods[0..ndims) as a grid; a reason if invalid.
Check make_grid(int ndims, const int* dims, const int* periods, CartTopology& grid) {
  if (ndims < 0) return ArgError{MPI_ERR_DIMS, "negative ndims " + std::to_string(ndims)};
  if (ndims > 0 && (dims == nullptr || periods == nullptr)) return ArgError{MPI_ERR_ARG, "null dims or periods"};
  long long product = 1;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] <= 0)
      return ArgError{MPI_ERR_DIMS, "dims[" + std::to_string(i) + "] = " + std::to_string(dims[i]) +
                                        " (must be positive)"};
    product *= dims[i];
    if (product > (1LL << 31)) return ArgError{MPI_ERR_DIMS, "the grid has more than 2^31 points"};
    grid.dims.push_back(dims[i]);
    grid.periods.push_back(periods[i] != 0);
  }
  return std::nullopt;
}

Check grid_fits(const CartTopology& grid, const Communicator& comm) {
  if (grid.size() <= comm.size) return std::nullopt;
  return ArgError{MPI_ERR_TOPOLOGY, "the grid has " + std::to_string(grid.size()) + " points, " + comm.name +
                                        " only " + std::to_string(comm.size) + " ranks"};
}

Check check_rank_in(int rank, int size) {
  if (rank >= 0 && rank < size) return std::nullopt;
  return ArgError{MPI_ERR_RANK, "invalid rank " + std::to_string(rank) + " (the grid has " + std::to_string(size) +
                                    " points)"};
}

}  // namespace

extern "C" int PMPI_Dims_create(int nnodes, int ndims, int dims[]) {
  constexpr const char* kCall = "MPI_Dims_create";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  if (auto why = dims_create(nnodes, ndims, dims)) return raise_error(context, nullptr, kCall, MPI_ERR_DIMS, *why);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int,
                                MPI_Comm* comm_cart) {
  constexpr const char* kCall = "MPI_Cart_create";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm_old);
  if (c == nullptr) return invalid_communicator(context, kCall, comm_old);
  if (c->inter) return unsupported_on_intercomm(context, *c, kCall);
  if (comm_cart == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null comm_cart pointer");
  CartTopology grid;
  if (int rc = raise_if(context, c, kCall, make_grid(ndims, dims, periods, grid))) return rc;
  if (int rc = raise_if(context, c, kCall, grid_fits(grid, *c))) return rc;
  const int members = grid.size();
  return make_topology_comm(context, kCall, comm_old, members, std::move(grid), comm_cart);
}

extern "C" int PMPI_Cartdim_get(MPI_Comm comm, int* ndims) {
  constexpr const char* kCall = "MPI_Cartdim_get";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const CartTopology* grid = topology_or_raise<CartTopology>(context, kCall, comm, rc);
  if (grid == nullptr) return rc;
  if (ndims == nullptr) return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null ndims pointer");
  *ndims = static_cast<int>(grid->dims.size());
  return MPI_SUCCESS;
}

extern "C" int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
  constexpr const char* kCall = "MPI_Cart_get";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const Communicator* c = nullptr;
  const CartTopology* grid = topology_or_raise<CartTopology>(context, kCall, comm, rc, &c);
  if (grid == nullptr) return rc;
  const auto n = static_cast<int>(grid->dims.size());
  if (maxdims < n)
    return raise_error(context, c, kCall, MPI_ERR_ARG,
                       "maxdims " + std::to_string(maxdims) + " < " + std::to_string(n) + " dimensions");
  if (n > 0 && (dims == nullptr || periods == nullptr || coords == nullptr))
    return raise_error(context, c, kCall, MPI_ERR_ARG, "null dims, periods or coords");
  const std::vector<int> mine = grid->coords(c->rank);
  for (int i = 0; i < n; ++i) {
    dims[i] = grid->dims[static_cast<std::size_t>(i)];
    periods[i] = grid->periods[static_cast<std::size_t>(i)];
    coords[i] = mine[static_cast<std::size_t>(i)];
  }
  return MPI_SUCCESS;
}

extern "C" int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int* rank) {
  constexpr const char* kCall = "MPI_Cart_rank";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const Communicator* c = nullptr;
  const CartTopology* grid = topology_or_raise<CartTopology>(context, kCall, comm, rc, &c);
  if (grid == nullptr) return rc;
  if (rank == nullptr || (coords == nullptr && !grid->dims.empty()))
    return raise_error(context, c, kCall, MPI_ERR_ARG, "null coords or rank pointer");
  const int r = grid->rank_of(coords);
  if (r == MPI_PROC_NULL) {
    for (std::size_t i = 0; i < grid->dims.size(); ++i)
      if (!grid->periods[i] && (coords[i] < 0 || coords[i] >= grid->dims[i]))
        return raise_error(context, c, kCall, MPI_ERR_ARG,
                           "coords[" + std::to_string(i) + "] = " + std::to_string(coords[i]) +
                               " is outside the non-periodic dimension of " + std::to_string(grid->dims[i]));
  }
  *rank = r;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]) {
  constexpr const char* kCall = "MPI_Cart_coords";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const Communicator* c = nullptr;
  const CartTopology* grid = topology_or_raise<CartTopology>(context, kCall, comm, rc, &c);
  if (grid == nullptr) return rc;
  if (int e = raise_if(context, c, kCall, check_rank_in(rank, grid->size()))) return e;
  const auto n = static_cast<int>(grid->dims.size());
  if (maxdims < n)
    return raise_error(context, c, kCall, MPI_ERR_ARG,
                       "maxdims " + std::to_string(maxdims) + " < " + std::to_string(n) + " dimensions");
  if (n > 0 && coords == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null coords");
  const std::vector<int> out = grid->coords(rank);
  for (int i = 0; i < n; ++i) coords[i] = out[static_cast<std::size_t>(i)];
  return MPI_SUCCESS;
}

extern "C" int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int* rank_source, int* rank_dest) {
  constexpr const char* kCall = "MPI_Cart_shift";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const Communicator* c = nullptr;
  const CartTopology* grid = topology_or_raise<CartTopology>(context, kCall, comm, rc, &c);
  if (grid == nullptr) return rc;
  if (direction < 0 || static_cast<std::size_t>(direction) >= grid->dims.size())
    return raise_error(context, c, kCall, MPI_ERR_ARG,
                       "invalid direction " + std::to_string(direction) + " (the grid has " +
                           std::to_string(grid->dims.size()) + " dimensions)");
  if (rank_source == nullptr || rank_dest == nullptr)
    return raise_error(context, c, kCall, MPI_ERR_ARG, "null rank_source or rank_dest pointer");
  grid->shift(c->rank, direction, disp, *rank_source, *rank_dest);
  return MPI_SUCCESS;
}

// Splits the grid into the sub-grids that keep the dimensions in
// remain_dims; each is a Cartesian communicator of its own.
extern "C" int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
  constexpr const char* kCall = "MPI_Cart_sub";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const Communicator* c = nullptr;
  const CartTopology* grid = topology_or_raise<CartTopology>(context, kCall, comm, rc, &c);
  if (grid == nullptr) return rc;
  if (newcomm == nullptr || (remain_dims == nullptr && !grid->dims.empty()))
    return raise_error(context, c, kCall, MPI_ERR_ARG, "null remain_dims or newcomm pointer");
  try {
    const Communicator parent = *c;
    const CartTopology whole = *grid;
    int color = 0, key = 0;
    whole.sub_position(parent.rank, remain_dims, color, key);
    std::optional<Communicator> part = split(context, parent, color, key, kCall);
    part->topology = whole.sub(remain_dims);
    *newcomm = context.communicators().add(std::move(*part));
  } catch (const std::bad_alloc&) {
    return raise_error(context, context.communicator(comm), kCall, MPI_ERR_NO_MEM, "out of memory");
  }
  return MPI_SUCCESS;
}

// Without reordering, rank r keeps r if the grid has a point for it.
extern "C" int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int* newrank) {
  constexpr const char* kCall = "MPI_Cart_map";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (newrank == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null newrank pointer");
  CartTopology grid;
  if (int rc = raise_if(context, c, kCall, make_grid(ndims, dims, periods, grid))) return rc;
  if (int rc = raise_if(context, c, kCall, grid_fits(grid, *c))) return rc;
  *newrank = c->rank < grid.size() ? c->rank : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Topo_test(MPI_Comm comm, int* status) {
  constexpr const char* kCall = "MPI_Topo_test";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, kCall, comm);
  if (status == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null status pointer");
  constexpr int kKinds[] = {MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH};  // in Topology's order
  *status = c->topology ? kKinds[c->topology->index()] : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Dims_create)
SHMPI_PMPI_ALIAS(Cart_create)
SHMPI_PMPI_ALIAS(Cartdim_get)
SHMPI_PMPI_ALIAS(Cart_get)
SHMPI_PMPI_ALIAS(Cart_rank)
SHMPI_PMPI_ALIAS(Cart_coords)
SHMPI_PMPI_ALIAS(Cart_shift)
SHMPI_PMPI_ALIAS(Cart_sub)
SHMPI_PMPI_ALIAS(Cart_map)
SHMPI_PMPI_ALIAS(Topo_test)
