#include "runtime/topology.hpp"

#include <algorithm>
#include <functional>

namespace shmpi::runtime {

int CartTopology::size() const noexcept {
  int n = 1;
  for (int d : dims) n *= d;
  return n;
}

std::vector<int> CartTopology::coords(int rank) const {
  std::vector<int> c(dims.size());
  for (std::size_t i = dims.size(); i-- > 0;) {
    c[i] = rank % dims[i];
    rank /= dims[i];
  }
  return c;
}

int CartTopology::rank_of(const int* coords) const noexcept {
  int rank = 0;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    int c = coords[i];
    if (periods[i]) {
      c %= dims[i];
      if (c < 0) c += dims[i];
    } else if (c < 0 || c >= dims[i]) {
      return MPI_PROC_NULL;
    }
    rank = rank * dims[i] + c;
  }
  return rank;
}

void CartTopology::shift(int rank, int direction, int disp, int& source, int& dest) const noexcept {
  std::vector<int> c = coords(rank);
  const int here = c[static_cast<std::size_t>(direction)];
  c[static_cast<std::size_t>(direction)] = here + disp;
  dest = rank_of(c.data());
  c[static_cast<std::size_t>(direction)] = here - disp;
  source = rank_of(c.data());
}

CartTopology CartTopology::sub(const int* remain) const {
  CartTopology out;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (!remain[i]) continue;
    out.dims.push_back(dims[i]);
    out.periods.push_back(periods[i]);
  }
  return out;
}

void CartTopology::sub_position(int rank, const int* remain, int& color, int& key) const {
  const std::vector<int> c = coords(rank);
  color = 0;
  key = 0;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (remain[i])
      key = key * dims[i] + c[i];
    else
      color = color * dims[i] + c[i];
  }
}

int GraphTopology::degree(int rank) const noexcept {
  const auto r = static_cast<std::size_t>(rank);
  return index[r] - (r == 0 ? 0 : index[r - 1]);
}

const int* GraphTopology::neighbours(int rank) const noexcept {
  const auto r = static_cast<std::size_t>(rank);
  return edges.data() + (r == 0 ? 0 : index[r - 1]);
}

std::optional<std::string> dims_create(int nnodes, int ndims, int* dims) {
  if (nnodes < 1) return "nnodes " + std::to_string(nnodes) + " (must be positive)";
  if (ndims < 0) return "negative ndims " + std::to_string(ndims);
  if (ndims > 0 && dims == nullptr) return std::string("null dims array");
  int fixed = 1;
  int free = 0;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] < 0) return "dims[" + std::to_string(i) + "] = " + std::to_string(dims[i]) + " is negative";
    if (dims[i] == 0)
      ++free;
    else
      fixed *= dims[i];
  }
  if (nnodes % fixed != 0 || (free == 0 && fixed != nnodes))
    return std::to_string(nnodes) + " processes cannot be split into the given dimensions (product " +
           std::to_string(fixed) + ")";
  if (free == 0) return std::nullopt;
  // Prime factors, largest first, each given to the currently smallest
  // free dimension: balanced, and the result is sorted non-increasing.
  std::vector<int> factors;
  int rest = nnodes / fixed;
  for (int p = 2; p * p <= rest; ++p)
    while (rest % p == 0) {
      factors.push_back(p);
      rest /= p;
    }
  if (rest > 1) factors.push_back(rest);
  std::vector<int> part(static_cast<std::size_t>(free), 1);
  for (auto f = factors.rbegin(); f != factors.rend(); ++f) *std::min_element(part.begin(), part.end()) *= *f;
  std::sort(part.begin(), part.end(), std::greater<>());
  std::size_t next = 0;
  for (int i = 0; i < ndims; ++i)
    if (dims[i] == 0) dims[i] = part[next++];
  return std::nullopt;
}

}  // namespace shmpi::runtime
