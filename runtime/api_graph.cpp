// MPI entry points: graph topologies (MPI_Graph_*); distributed graphs
// are in api_dist_graph.cpp.
#include <algorithm>
#include <new>
#include <vector>

#include "runtime/api.hpp"
#include "runtime/topology_comm.hpp"

using namespace shmpi::runtime;

namespace {

Check check_graph(int nnodes, const int* index, const int* edges, const Communicator& comm, GraphTopology& graph) {
  if (nnodes < 0) return ArgError{MPI_ERR_ARG, "negative nnodes " + std::to_string(nnodes)};
  if (nnodes > comm.size)
    return ArgError{MPI_ERR_ARG, "nnodes " + std::to_string(nnodes) + " > " + std::to_string(comm.size) +
                                     " ranks of " + comm.name};
  if (nnodes > 0 && index == nullptr) return ArgError{MPI_ERR_ARG, "null index array"};
  graph.index.assign(index, index + nnodes);
  for (int i = 0; i < nnodes; ++i)
    if (index[i] < (i == 0 ? 0 : index[i - 1]))
      return ArgError{MPI_ERR_ARG, "index[" + std::to_string(i) + "] = " + std::to_string(index[i]) +
                                       " decreases (index holds cumulative degrees)"};
  const int nedges = nnodes == 0 ? 0 : index[nnodes - 1];
  if (nedges > 0 && edges == nullptr) return ArgError{MPI_ERR_ARG, "null edges array"};
  graph.edges.assign(edges, edges + nedges);
  for (int e = 0; e < nedges; ++e)
    if (edges[e] < 0 || edges[e] >= nnodes)
      return ArgError{MPI_ERR_RANK, "edges[" + std::to_string(e) + "] = " + std::to_string(edges[e]) +
                                        " is not a node (0.." + std::to_string(nnodes - 1) + ")"};
  return std::nullopt;
}

Check check_node(int rank, const GraphTopology& graph) {
  if (rank >= 0 && static_cast<std::size_t>(rank) < graph.index.size()) return std::nullopt;
  return ArgError{MPI_ERR_RANK, "invalid rank " + std::to_string(rank) + " (the graph has " +
                                    std::to_string(graph.index.size()) + " nodes)"};
}

int checked_comm(Context& context, const char* call, MPI_Comm comm, const Communicator*& c) {
  c = context.communicator(comm);
  if (c == nullptr) return invalid_communicator(context, call, comm);
  if (c->inter) return unsupported_on_intercomm(context, *c, call);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int,
                                 MPI_Comm* comm_graph) {
  constexpr const char* kCall = "MPI_Graph_create";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = nullptr;
  if (int rc = checked_comm(context, kCall, comm_old, c)) return rc;
  if (comm_graph == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null comm_graph pointer");
  GraphTopology graph;
  if (int rc = raise_if(context, c, kCall, check_graph(nnodes, index, edges, *c, graph))) return rc;
  return make_topology_comm(context, kCall, comm_old, nnodes, std::move(graph), comm_graph);
}

extern "C" int PMPI_Graphdims_get(MPI_Comm comm, int* nnodes, int* nedges) {
  constexpr const char* kCall = "MPI_Graphdims_get";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const GraphTopology* graph = topology_or_raise<GraphTopology>(context, kCall, comm, rc);
  if (graph == nullptr) return rc;
  if (nnodes == nullptr || nedges == nullptr)
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "null nnodes or nedges pointer");
  *nnodes = static_cast<int>(graph->index.size());
  *nedges = static_cast<int>(graph->edges.size());
  return MPI_SUCCESS;
}

extern "C" int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]) {
  constexpr const char* kCall = "MPI_Graph_get";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const GraphTopology* graph = topology_or_raise<GraphTopology>(context, kCall, comm, rc);
  if (graph == nullptr) return rc;
  if (maxindex < 0 || maxedges < 0 || (maxindex > 0 && index == nullptr) || (maxedges > 0 && edges == nullptr))
    return raise_error(context, nullptr, kCall, MPI_ERR_ARG, "invalid maxindex/maxedges or null arrays");
  std::copy_n(graph->index.begin(), std::min<std::size_t>(graph->index.size(), maxindex), index);
  std::copy_n(graph->edges.begin(), std::min<std::size_t>(graph->edges.size(), maxedges), edges);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int* nneighbors) {
  constexpr const char* kCall = "MPI_Graph_neighbors_count";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const Communicator* c = nullptr;
  const GraphTopology* graph = topology_or_raise<GraphTopology>(context, kCall, comm, rc, &c);
  if (graph == nullptr) return rc;
  if (int e = raise_if(context, c, kCall, check_node(rank, *graph))) return e;
  if (nneighbors == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null nneighbors pointer");
  *nneighbors = graph->degree(rank);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]) {
  constexpr const char* kCall = "MPI_Graph_neighbors";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  int rc = MPI_SUCCESS;
  const Communicator* c = nullptr;
  const GraphTopology* graph = topology_or_raise<GraphTopology>(context, kCall, comm, rc, &c);
  if (graph == nullptr) return rc;
  if (int e = raise_if(context, c, kCall, check_node(rank, *graph))) return e;
  if (maxneighbors < 0 || (maxneighbors > 0 && neighbors == nullptr))
    return raise_error(context, c, kCall, MPI_ERR_ARG, "invalid maxneighbors or null neighbors");
  const int n = std::min(graph->degree(rank), maxneighbors);
  std::copy_n(graph->neighbours(rank), n, neighbors);
  return MPI_SUCCESS;
}

extern "C" int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int* newrank) {
  constexpr const char* kCall = "MPI_Graph_map";
  const Entry entry = enter(kCall);
  Context& context = entry.context();
  const Communicator* c = nullptr;
  if (int rc = checked_comm(context, kCall, comm, c)) return rc;
  if (newrank == nullptr) return raise_error(context, c, kCall, MPI_ERR_ARG, "null newrank pointer");
  GraphTopology graph;
  if (int rc = raise_if(context, c, kCall, check_graph(nnodes, index, edges, *c, graph))) return rc;
  *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

SHMPI_PMPI_ALIAS(Graph_create)
SHMPI_PMPI_ALIAS(Graphdims_get)
SHMPI_PMPI_ALIAS(Graph_get)
SHMPI_PMPI_ALIAS(Graph_neighbors_count)
SHMPI_PMPI_ALIAS(Graph_neighbors)
SHMPI_PMPI_ALIAS(Graph_map)
