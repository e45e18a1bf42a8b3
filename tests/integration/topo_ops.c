/* topo_ops: MPI_Dims_create, Cartesian communicators (create with spare
 * ranks, get, rank/coords round trip, shift with and without wrap-around
 * and a halo exchange along it, sub, map), graphs and distributed graphs
 * with their queries, MPI_Topo_test, and the error classes of bad
 * arguments. Prints "topo_ops: rank R OK" or FAIL lines. */
#include <string.h>

#include "check.h"

static int rank, size;

static void test_dims_create(void) {
  int d2[2] = {0, 0};
  MPI_Dims_create(size, 2, d2);
  CHECK(d2[0] * d2[1] == size && d2[0] >= d2[1], "dims_create(%d, 2) = %d x %d", size, d2[0], d2[1]);
  int d3[3] = {0, 0, 0};
  MPI_Dims_create(24, 3, d3);
  CHECK(d3[0] == 4 && d3[1] == 3 && d3[2] == 2, "dims_create(24, 3) = %d %d %d", d3[0], d3[1], d3[2]);
  int fixed[2] = {0, 3};
  MPI_Dims_create(12, 2, fixed);
  CHECK(fixed[0] == 4 && fixed[1] == 3, "dims_create(12, {0,3}) = %d %d", fixed[0], fixed[1]);
  int bad[2] = {5, 0};
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rc = MPI_Dims_create(12, 2, bad);
  CHECK(rc == MPI_ERR_DIMS, "dims_create(12, {5,0}) gave %d", rc);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* A ring of all ranks but the last (when there are 3 or more): the last
 * gets MPI_COMM_NULL. Neighbours by MPI_Cart_shift exchange their ranks. */
static void test_cart_ring(void) {
  const int n = size >= 3 ? size - 1 : size;
  int dims[1] = {n}, periods[1] = {1};
  MPI_Comm ring;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  if (rank >= n) {
    CHECK(ring == MPI_COMM_NULL, "rank outside the grid got a communicator");
    return;
  }
  int status = -1, ndims = -1;
  MPI_Topo_test(ring, &status);
  MPI_Cartdim_get(ring, &ndims);
  CHECK(status == MPI_CART && ndims == 1, "topo_test %d ndims %d", status, ndims);
  int src = -5, dst = -5;
  MPI_Cart_shift(ring, 0, 1, &src, &dst);
  CHECK(src == (rank - 1 + n) % n && dst == (rank + 1) % n, "ring shift %d %d", src, dst);
  int from_left = -1, from_right = -1;
  MPI_Sendrecv(&rank, 1, MPI_INT, dst, 5, &from_left, 1, MPI_INT, src, 5, ring, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&rank, 1, MPI_INT, src, 6, &from_right, 1, MPI_INT, dst, 6, ring, MPI_STATUS_IGNORE);
  CHECK(from_left == src && from_right == dst, "halo got %d %d", from_left, from_right);
  MPI_Comm_free(&ring);
}

static void test_cart_grid(void) {
  int dims[2] = {0, 0}, periods[2] = {0, 1};
  MPI_Dims_create(size, 2, dims);
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &grid);
  int gd[2], gp[2], gc[2];
  MPI_Cart_get(grid, 2, gd, gp, gc);
  CHECK(gd[0] == dims[0] && gd[1] == dims[1] && gp[0] == 0 && gp[1] == 1, "cart_get dims/periods");
  CHECK(gc[0] == rank / dims[1] && gc[1] == rank % dims[1], "coords (%d,%d) of rank %d", gc[0], gc[1], rank);
  for (int r = 0; r < size; ++r) {
    int c[2], back = -1;
    MPI_Cart_coords(grid, r, 2, c);
    MPI_Cart_rank(grid, c, &back);
    CHECK(back == r, "coords/rank round trip of %d gave %d", r, back);
  }
  int wrap[2] = {gc[0], gc[1] + dims[1]}, same = -1; /* periodic dimension wraps */
  MPI_Cart_rank(grid, wrap, &same);
  CHECK(same == rank, "wrapped coords gave %d", same);
  int up = -5, down = -5;
  MPI_Cart_shift(grid, 0, 1, &up, &down);
  CHECK(up == (gc[0] == 0 ? MPI_PROC_NULL : rank - dims[1]), "non-periodic source %d", up);
  CHECK(down == (gc[0] == dims[0] - 1 ? MPI_PROC_NULL : rank + dims[1]), "non-periodic dest %d", down);
  /* rows: keep dimension 1 */
  int remain[2] = {0, 1};
  MPI_Comm row;
  MPI_Cart_sub(grid, remain, &row);
  int rr = -1, rn = -1, rdims = -1;
  MPI_Comm_rank(row, &rr);
  MPI_Comm_size(row, &rn);
  MPI_Cartdim_get(row, &rdims);
  CHECK(rr == gc[1] && rn == dims[1] && rdims == 1, "row rank %d size %d ndims %d", rr, rn, rdims);
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, row);
  const int base = gc[0] * dims[1];
  CHECK(sum == dims[1] * base + dims[1] * (dims[1] - 1) / 2, "row sum %d", sum);
  int newrank = -1;
  MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &newrank);
  CHECK(newrank == rank, "cart_map %d", newrank);
  /* errors */
  MPI_Comm_set_errhandler(grid, MPI_ERRORS_RETURN);
  int rc = MPI_Cart_shift(grid, 2, 1, &up, &down);
  CHECK(rc == MPI_ERR_ARG, "shift along dimension 2 gave %d", rc);
  int c[2];
  rc = MPI_Cart_coords(grid, size, 2, c);
  CHECK(rc == MPI_ERR_RANK, "coords of rank %d gave %d", size, rc);
  int outside[2] = {dims[0], 0};
  rc = MPI_Cart_rank(grid, outside, &same);
  CHECK(rc == MPI_ERR_ARG, "rank of a point outside gave %d", rc);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  rc = MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &up, &down);
  CHECK(rc == MPI_ERR_TOPOLOGY, "shift on MPI_COMM_WORLD gave %d", rc);
  int too_big[1] = {size + 1}, np[1] = {0};
  MPI_Comm none = MPI_COMM_NULL;
  rc = MPI_Cart_create(MPI_COMM_WORLD, 1, too_big, np, 0, &none);
  CHECK(rc == MPI_ERR_TOPOLOGY && none == MPI_COMM_NULL, "grid larger than the job gave %d", rc);
  int zero[1] = {0};
  rc = MPI_Cart_create(MPI_COMM_WORLD, 1, zero, np, 0, &none);
  CHECK(rc == MPI_ERR_DIMS, "zero dimension gave %d", rc);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  /* a duplicate keeps the topology */
  MPI_Comm dup;
  MPI_Comm_dup(grid, &dup);
  int st = -1;
  MPI_Topo_test(dup, &st);
  CHECK(st == MPI_CART, "dup of a cart has topology %d", st);
  MPI_Topo_test(MPI_COMM_WORLD, &st);
  CHECK(st == MPI_UNDEFINED, "world has topology %d", st);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&row);
  MPI_Comm_free(&grid);
}

/* A graph ring: node i's neighbours are i-1 and i+1. */
static void test_graph(void) {
  int index[64], edges[128];
  for (int i = 0; i < size; ++i) {
    index[i] = 2 * (i + 1);
    edges[2 * i] = (i - 1 + size) % size;
    edges[2 * i + 1] = (i + 1) % size;
  }
  MPI_Comm graph;
  MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &graph);
  int st = -1, nn = -1, ne = -1, count = -1, nb[2] = {-1, -1};
  MPI_Topo_test(graph, &st);
  MPI_Graphdims_get(graph, &nn, &ne);
  MPI_Graph_neighbors_count(graph, rank, &count);
  MPI_Graph_neighbors(graph, rank, 2, nb);
  CHECK(st == MPI_GRAPH && nn == size && ne == 2 * size && count == 2, "graph %d %d %d %d", st, nn, ne, count);
  CHECK(nb[0] == (rank - 1 + size) % size && nb[1] == (rank + 1) % size, "neighbours %d %d", nb[0], nb[1]);
  int gi[64], ge[128];
  MPI_Graph_get(graph, size, 2 * size, gi, ge);
  CHECK(memcmp(gi, index, sizeof(int) * (size_t)size) == 0 && memcmp(ge, edges, sizeof(int) * 2 * (size_t)size) == 0,
        "graph_get differs");
  MPI_Comm_set_errhandler(graph, MPI_ERRORS_RETURN);
  int rc = MPI_Graph_neighbors_count(graph, size, &count);
  CHECK(rc == MPI_ERR_RANK, "neighbours of node %d gave %d", size, rc);
  MPI_Comm_free(&graph);
}

/* Each rank names the edge rank -> rank+1 (weight rank); adjacent form too. */
static void test_dist_graph(void) {
  const int next = (rank + 1) % size, prev = (rank - 1 + size) % size;
  int degree = 1, w = rank;
  MPI_Comm dg;
  MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &degree, &next, &w, MPI_INFO_NULL, 0, &dg);
  int in = -1, out = -1, weighted = -1, st = -1;
  MPI_Topo_test(dg, &st);
  MPI_Dist_graph_neighbors_count(dg, &in, &out, &weighted);
  CHECK(st == MPI_DIST_GRAPH && in == 1 && out == 1 && weighted == 1, "dist graph %d %d %d %d", st, in, out, weighted);
  int s = -1, sw = -1, d = -1, dw = -1;
  MPI_Dist_graph_neighbors(dg, 1, &s, &sw, 1, &d, &dw);
  CHECK(s == prev && sw == prev && d == next && dw == rank, "dist neighbours %d(%d) %d(%d)", s, sw, d, dw);
  MPI_Comm_free(&dg);
  int srcs[2] = {prev, next};
  MPI_Comm adj;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, srcs, MPI_UNWEIGHTED, 1, &next, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                 &adj);
  MPI_Dist_graph_neighbors_count(adj, &in, &out, &weighted);
  CHECK(in == 2 && out == 1 && weighted == 0, "adjacent %d %d %d", in, out, weighted);
  int got[2] = {-1, -1};
  MPI_Dist_graph_neighbors(adj, 2, got, MPI_UNWEIGHTED, 1, &d, MPI_UNWEIGHTED);
  CHECK(got[0] == prev && got[1] == next && d == next, "adjacent neighbours %d %d %d", got[0], got[1], d);
  MPI_Comm_free(&adj);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int bad = size;
  int rc = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &bad, MPI_UNWEIGHTED, 0, NULL, MPI_UNWEIGHTED,
                                          MPI_INFO_NULL, 0, &adj);
  CHECK(rc == MPI_ERR_RANK, "source %d gave %d", bad, rc);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_rank = rank;
  test_dims_create();
  test_cart_ring();
  test_cart_grid();
  test_graph();
  test_dist_graph();
  const int rc = check_report("topo_ops");
  MPI_Finalize();
  return rc;
}
