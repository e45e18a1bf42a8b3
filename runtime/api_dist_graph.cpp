// MPI entry points: distributed graph topologies.
//
// MPI_Dist_graph_create: every rank may name any edge, so the edges are
// gathered everywhere (padded to the largest contribution: one allreduce
// and one allgather) and each rank keeps those that start or end at it, in
// the order of (contributing rank, position).
#include <algorithm>
#include <new>
#include <vector>

#include "runtime/api.hpp"
#include "runtime/collectives.hpp"
#include "runtime/topology_comm.hpp"

using namespace shmpi::runtime;

namespace {

// `n` ranks of comm with their weights (unless weights is MPI_UNWEIGHTED).
Check check_ranks(const int* ranks, const int* weights, int n, const Communicator& comm, const char* what) {
  if (n < 0) return ArgError{MPI_ERR_ARG, std::string("negative ") + what + " count " + std::to_string(n)};
  if (n > 0 && ranks == nullptr) return ArgError{MPI_ERR_ARG, std::string("null ") + what + " array"};
  if (n > 0 && (weights == nullptr || weights == MPI_WEIGHTS_EMPTY))
    return ArgError{MPI_ERR_ARG, std::string("no ") + what + " weights (use MPI_UNWEIGHTED)"};
  for (int i = 0; i < n; ++i)
    if (ranks[i] < 0 || ranks[i] >= comm.size)
      return ArgError{MPI_ERR_RANK, std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(ranks[i]) +
                                        " (" + comm.name + " has " + std::to_string(comm.size) + " ranks)"};
  return std::nullopt;
}

std::vector<int> weights_of(const int* weights, int n) {
  if (weights == MPI_UNWEIGHTED || n == 0) return std::vector<int>(static_cast<std::size_t>(n), 1);
  return std::vector<int>(weights, weights + n);
}

int checked_comm(Context& context, const char* call, MPI_Comm comm, const Communicator*& c) {
  c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, call, comm);
  if (c->inter) return unsupported_on_intercomm(context, *c, call);
  return MPI_SUCCESS;
}

struct Edge {
  std::int32_t from, to, weight;
};

// The edges every rank named, in (rank, position) order. Throws std::bad_alloc.
std::vector<Edge> gather_edges(Context& context, const Communicator& comm, const std::vector<Edge>& mine,
                               const char* call) {
  std::uint32_t most = static_cast<std::uint32_t>(mine.size());
  allreduce(context, comm, &most, Reduction{MPI_MAX, MPI_UINT32_T, 1, sizeof most}, call);
  // Each contribution: its edge count, then `most` edges (padding unused).
  const std::size_t slot = sizeof(Edge) * (1 + most);
  std::vector<Edge> out(1 + most, Edge{0, 0, 0});
  out[0].from = static_cast<std::int32_t>(mine.size());
  std::copy(mine.begin(), mine.end(), out.begin() + 1);
  std::vector<Edge> all((1 + most) * static_cast<std::size_t>(comm.size));
  allgather(context, comm, out.data(), all.data(), slot, call);
  std::vector<Edge> edges;
  for (std::int32_t r = 0; r < comm.size; ++r) {
    const Edge* block = all.data() + static_cast<std::size_t>(r) * (1 + most);
    edges.insert(edges.end(), block + 1, block + 1 + block[0].from);
  }
  return edges;
}

}  // namespace

extern "C" int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                               const int sourceweights[], int outdegree, const int destinations[],
                                               const int destweights[], MPI_Info, int, MPI_Comm* comm_dist_graph) {
  constexpr const char* kCall = "MPI_Dist_graph_create_adjacent";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = nullptr;
  if (int rc = checked_comm(context, kCall, comm_old, c)) return rc;
  if (comm_dist_graph == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null comm_dist_graph pointer");
  if (int rc = raise_if(context, c, kCall,
                        first_error({check_ranks(sources, sourceweights, indegree, *c, "sources"),
                                     check_ranks(destinations, destweights, outdegree, *c, "destinations")})))
    return rc;
  try {
    DistGraphTopology graph;
    graph.sources.assign(sources, sources + indegree);
    graph.source_weights = weights_of(sourceweights, indegree);
    graph.destinations.assign(destinations, destinations + outdegree);
    graph.destination_weights = weights_of(destweights, outdegree);
    graph.weighted = sourceweights != MPI_UNWEIGHTED || destweights != MPI_UNWEIGHTED;
    return make_topology_comm(context, kCall, comm_old, c->size, std::move(graph), comm_dist_graph);
  } catch (const std::bad_alloc&) {
    return raise_error(context, c, kCall, MPI_ERR_NO_MEM, "out of memory");
  }
}

extern "C" int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                      const int destinations[], const int weights[], MPI_Info, int,
                                      MPI_Comm* comm_dist_graph) {
  constexpr const char* kCall = "MPI_Dist_graph_create";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = nullptr;
  if (int rc = checked_comm(context, kCall, comm_old, c)) return rc;
  if (comm_dist_graph == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null comm_dist_graph pointer");
  if (int rc = raise_if(context, c, kCall, check_ranks(sources, MPI_UNWEIGHTED, n, *c, "sources"))) return rc;
  if (n > 0 && degrees == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null degrees array");
  long total = 0;
  for (int i = 0; i < n; ++i) {
    if (degrees[i] < 0) return raise_error(context, c, kCall, MPI_ERR_ARG, "negative degree");
    total += degrees[i];
  }
  if (int rc = raise_if(context, c, kCall, check_ranks(destinations, weights, static_cast<int>(total), *c,
                                                       "destinations")))
    return rc;
  try {
    const Communicator parent = *c;
    const std::vector<int> w = weights_of(weights, static_cast<int>(total));
    std::vector<Edge> mine;
    for (int i = 0, e = 0; i < n; ++i)
      for (int d = 0; d < degrees[i]; ++d, ++e)
        mine.push_back(Edge{sources[i], destinations[e], w[static_cast<std::size_t>(e)]});
    DistGraphTopology graph;
    for (const Edge& e : gather_edges(context, parent, mine, kCall)) {
      if (e.to == parent.rank) {
        graph.sources.push_back(e.from);
        graph.source_weights.push_back(e.weight);
      }
      if (e.from == parent.rank) {
        graph.destinations.push_back(e.to);
        graph.destination_weights.push_back(e.weight);
      }
    }
    // Weighted unless every rank said MPI_UNWEIGHTED.
    std::uint32_t weighted = weights != MPI_UNWEIGHTED;
    allreduce(context, parent, &weighted, Reduction{MPI_MAX, MPI_UINT32_T, 1, sizeof weighted}, kCall);
    graph.weighted = weighted != 0;
    return make_topology_comm(context, kCall, comm_old, parent.size, std::move(graph), comm_dist_graph);
  } catch (const std::bad_alloc&) {
    return raise_error(context, context.communicator(comm_old), kCall, MPI_ERR_NO_MEM, "out of memory");
  }
}

extern "C" int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int* indegree, int* outdegree, int* weighted) {
  constexpr const char* kCall = "MPI_Dist_graph_neighbors_count";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const DistGraphTopology* graph = topology_or_raise<DistGraphTopology>(context, kCall, comm, rc);
  if (graph == nullptr) return rc;
  if (indegree == nullptr || outdegree == nullptr || weighted == nullptr)
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null indegree, outdegree or weighted pointer");
  *indegree = static_cast<int>(graph->sources.size());
  *outdegree = static_cast<int>(graph->destinations.size());
  *weighted = graph->weighted;
  return MPI_SUCCESS;
}

extern "C" int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                                         int maxoutdegree, int destinations[], int destweights[]) {
  constexpr const char* kCall = "MPI_Dist_graph_neighbors";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const DistGraphTopology* graph = topology_or_raise<DistGraphTopology>(context, kCall, comm, rc);
  if (graph == nullptr) return rc;
  const auto in = std::min<std::size_t>(graph->sources.size(), std::max(maxindegree, 0));
  const auto out = std::min<std::size_t>(graph->destinations.size(), std::max(maxoutdegree, 0));
  if ((in > 0 && sources == nullptr) || (out > 0 && destinations == nullptr))
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null sources or destinations array");
  std::copy_n(graph->sources.begin(), in, sources);
  std::copy_n(graph->destinations.begin(), out, destinations);
  // Weights are filled only for a weighted graph and a real array.
  const auto real = [](const int* w) { return w != nullptr && w != MPI_UNWEIGHTED && w != MPI_WEIGHTS_EMPTY; };
  if (graph->weighted && real(sourceweights)) std::copy_n(graph->source_weights.begin(), in, sourceweights);
  if (graph->weighted && real(destweights)) std::copy_n(graph->destination_weights.begin(), out, destweights);
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Dist_graph_create_adjacent)
SHMPI_PMPI_ALIAS(Dist_graph_create)
SHMPI_PMPI_ALIAS(Dist_graph_neighbors_count)
SHMPI_PMPI_ALIAS(Dist_graph_neighbors)
