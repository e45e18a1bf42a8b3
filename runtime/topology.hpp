// Process topologies attached to communicators (MPI-4.1 chapter 8):
// Cartesian grids, graphs and distributed graphs, with the pure
// arithmetic of their queries. shmpi never reorders ranks (all ranks
// share one node, so no placement is better than another): rank i of the
// new communicator is rank i of the old one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "mpi.h"

namespace shmpi::runtime {

struct CartTopology {
  std::vector<int> dims;
  std::vector<bool> periods;

  int size() const noexcept;  // product of dims (1 for 0 dimensions)
  // Coordinates of `rank` (row-major: the last dimension varies fastest).
  std::vector<int> coords(int rank) const;
  // The rank at `coords`, wrapping periodic dimensions; MPI_PROC_NULL
  // when a non-periodic coordinate is outside the grid.
  int rank_of(const int* coords) const noexcept;
  // MPI_Cart_shift: the ranks `disp` steps below and above `rank` along
  // `direction`; MPI_PROC_NULL off a non-periodic edge.
  void shift(int rank, int direction, int disp, int& source, int& dest) const noexcept;
  // MPI_Cart_sub: the sub-grid kept by `remain`, and which sub-grid (color)
  // and position in it (key) `rank` has.
  CartTopology sub(const int* remain) const;
  void sub_position(int rank, const int* remain, int& color, int& key) const;
};

struct GraphTopology {
  std::vector<int> index;  // MPI's cumulative degree array
  std::vector<int> edges;
  int degree(int rank) const noexcept;
  const int* neighbours(int rank) const noexcept;
};

struct DistGraphTopology {
  std::vector<int> sources, source_weights;
  std::vector<int> destinations, destination_weights;
  bool weighted = false;
};

using Topology = std::variant<CartTopology, GraphTopology, DistGraphTopology>;

// MPI_Dims_create: fills the zero entries of dims[0..ndims) so their
// product with the fixed entries is nnodes, as balanced as possible (the
// free entries in non-increasing order). The reason it cannot, or nothing.
std::optional<std::string> dims_create(int nnodes, int ndims, int* dims);

}  // namespace shmpi::runtime
