/* thread_comm_create: every way of making a communicator, from 4 threads of
 * each rank at once under MPI_THREAD_MULTIPLE, each thread on its own dup
 * of MPI_COMM_WORLD (MPI allows concurrent creation on different parents).
 * Per round, thread t makes with MPI_Comm_split, Comm_split_type,
 * Comm_create, Comm_create_group, Comm_idup, Intercomm_create, Comm_dup and
 * Comm_split of the intercommunicator, Intercomm_merge, Cart_create,
 * Cart_sub, Graph_create and Dist_graph_create_adjacent; checks each one's
 * size, rank and member order (an allgather of world ranks) and sends a
 * payload keyed by (sender, thread, round) around a ring on it, then frees
 * it. Communicators of two threads that got the same context id would
 * swap messages: the keys show it.
 * Usage: thread_comm_create [ROUNDS]  (an even number of ranks >= 4) */
#include <string.h>

#include "thread_check.h"

#define THREADS 4
#define MAX_RANKS 16
static int rounds = 3;
static int nprocs;
static MPI_Comm base[THREADS];

static unsigned key_of(int world, long t, int round) { return (unsigned)(world * 1000 + t * 100 + round); }

/* `comm` (an intracommunicator) holds world ranks members[0..n) in order. */
static void check_intra(MPI_Comm comm, const int *members, int n, long t, int round, const char *what) {
  int size = -1, rank = -1, all[MAX_RANKS];
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  TCHECK(size == n, "thread %ld round %d %s: size %d, expected %d", t, round, what, size, n);
  if (size != n) return;
  MPI_Allgather(&tc_rank, 1, MPI_INT, all, 1, MPI_INT, comm);
  for (int i = 0; i < n; ++i)
    TCHECK(all[i] == members[i], "thread %ld round %d %s: member %d is world %d, expected %d", t, round, what, i,
           all[i], members[i]);
  TCHECK(members[rank] == tc_rank, "thread %ld round %d %s: rank %d", t, round, what, rank);
  unsigned char out[300], in[300];
  const int next = (rank + 1) % n, prev = (rank + n - 1) % n;
  tc_fill(out, sizeof out, key_of(tc_rank, t, round));
  MPI_Sendrecv(out, sizeof out, MPI_BYTE, next, 5, in, sizeof in, MPI_BYTE, prev, 5, comm, MPI_STATUS_IGNORE);
  TCHECK(tc_first_bad(in, sizeof in, key_of(members[prev], t, round)) < 0,
         "thread %ld round %d %s: ring payload from rank %d wrong", t, round, what, prev);
}

/* Intercommunicator `inter`: the remote group has `remote_n` ranks, and
 * remote rank i is world remote[i]; we swap payloads with our counterpart. */
static void check_inter(MPI_Comm inter, const int *remote, int remote_n, long t, int round, const char *what) {
  int flag = 0, size = -1, rank = -1;
  MPI_Comm_test_inter(inter, &flag);
  MPI_Comm_remote_size(inter, &size);
  MPI_Comm_rank(inter, &rank);
  TCHECK(flag && size == remote_n, "thread %ld round %d %s: inter %d remote size %d, expected %d", t, round, what,
         flag, size, remote_n);
  if (size != remote_n || rank >= remote_n) return;
  unsigned char out[300], in[300];
  tc_fill(out, sizeof out, key_of(tc_rank, t, round));
  MPI_Sendrecv(out, sizeof out, MPI_BYTE, rank, 6, in, sizeof in, MPI_BYTE, rank, 6, inter, MPI_STATUS_IGNORE);
  TCHECK(tc_first_bad(in, sizeof in, key_of(remote[rank], t, round)) < 0,
         "thread %ld round %d %s: payload from remote %d wrong", t, round, what, rank);
}

static void free_comm(MPI_Comm *c) {
  if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
}

/* Split (same parity, reversed), split_type (reversed), create (even
 * ranks), create_group (all but one, which changes with thread and round),
 * idup. */
static void intra_round(MPI_Comm parent, long t, int round) {
  int members[MAX_RANKS], n = 0;
  MPI_Comm c;
  MPI_Comm_split(parent, tc_rank % 2, -tc_rank, &c);
  for (int r = nprocs - 1; r >= 0; --r)
    if (r % 2 == tc_rank % 2) members[n++] = r;
  check_intra(c, members, n, t, round, "split");
  free_comm(&c);

  MPI_Comm_split_type(parent, MPI_COMM_TYPE_SHARED, -tc_rank, MPI_INFO_NULL, &c);
  for (n = 0; n < nprocs; ++n) members[n] = nprocs - 1 - n;
  check_intra(c, members, n, t, round, "split_type");
  free_comm(&c);

  MPI_Group all, evens, others;
  MPI_Comm_group(parent, &all);
  int range[1][3] = {{0, nprocs - 1, 2}};
  MPI_Group_range_incl(all, 1, range, &evens);
  MPI_Comm_create(parent, evens, &c);
  for (n = 0; n < nprocs / 2; ++n) members[n] = 2 * n;
  if (tc_rank % 2 == 0) check_intra(c, members, n, t, round, "create");
  TCHECK((c == MPI_COMM_NULL) == (tc_rank % 2 == 1), "thread %ld round %d create: null %d", t, round,
         c == MPI_COMM_NULL);
  free_comm(&c);

  const int left_out = (int)((t + round) % nprocs);
  MPI_Group_excl(all, 1, &left_out, &others);
  if (tc_rank != left_out) {
    MPI_Comm_create_group(parent, others, 40 + (int)t, &c);
    n = 0;
    for (int r = 0; r < nprocs; ++r)
      if (r != left_out) members[n++] = r;
    check_intra(c, members, n, t, round, "create_group");
    free_comm(&c);
  }
  MPI_Group_free(&others);
  MPI_Group_free(&evens);
  MPI_Group_free(&all);

  MPI_Request request;
  MPI_Comm_idup(parent, &c, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  for (n = 0; n < nprocs; ++n) members[n] = n;
  check_intra(c, members, n, t, round, "idup");
  free_comm(&c);
}

/* The lower and upper halves joined; the join's dup and split; merged with
 * the upper half first. */
static void inter_round(MPI_Comm parent, long t, int round) {
  const int half = nprocs / 2, upper = tc_rank >= half;
  int remote[MAX_RANKS], members[MAX_RANKS];
  for (int i = 0; i < half; ++i) remote[i] = upper ? i : half + i;
  MPI_Comm local, inter, copy, part, merged;
  MPI_Comm_split(parent, upper, tc_rank, &local);
  MPI_Intercomm_create(local, 0, parent, upper ? 0 : half, 60 + (int)t, &inter);
  check_inter(inter, remote, half, t, round, "intercomm_create");
  MPI_Comm_dup(inter, &copy);
  check_inter(copy, remote, half, t, round, "intercomm dup");
  /* One color; key reverses both groups, so counterparts stay counterparts. */
  MPI_Comm_split(inter, 0, -tc_rank, &part);
  int reversed[MAX_RANKS];
  for (int i = 0; i < half; ++i) reversed[i] = remote[half - 1 - i];
  check_inter(part, reversed, half, t, round, "intercomm split");
  MPI_Intercomm_merge(inter, upper ? 0 : 1, &merged);
  for (int i = 0; i < nprocs; ++i) members[i] = (i + half) % nprocs;
  check_intra(merged, members, nprocs, t, round, "merge");
  free_comm(&merged);
  free_comm(&part);
  free_comm(&copy);
  free_comm(&inter);
  free_comm(&local);
}

/* A 2-d torus (no reordering), its rows, a ring graph, a ring dist graph. */
static void topology_round(MPI_Comm parent, long t, int round) {
  int dims[2] = {0, 0}, periods[2] = {1, 0}, members[MAX_RANKS], n;
  MPI_Dims_create(nprocs, 2, dims);
  MPI_Comm cart, row, graph, dist;
  MPI_Cart_create(parent, 2, dims, periods, 0, &cart);
  for (n = 0; n < nprocs; ++n) members[n] = n;
  check_intra(cart, members, nprocs, t, round, "cart");
  const int remain[2] = {0, 1};
  MPI_Cart_sub(cart, remain, &row);
  for (n = 0; n < dims[1]; ++n) members[n] = tc_rank / dims[1] * dims[1] + n;
  check_intra(row, members, dims[1], t, round, "cart_sub");

  int index[MAX_RANKS], edges[2 * MAX_RANKS];
  for (int r = 0; r < nprocs; ++r) {
    index[r] = 2 * (r + 1);
    edges[2 * r] = (r + 1) % nprocs;
    edges[2 * r + 1] = (r + nprocs - 1) % nprocs;
  }
  MPI_Graph_create(parent, nprocs, index, edges, 0, &graph);
  for (n = 0; n < nprocs; ++n) members[n] = n;
  check_intra(graph, members, nprocs, t, round, "graph");
  const int sources[1] = {(tc_rank + nprocs - 1) % nprocs}, destinations[1] = {(tc_rank + 1) % nprocs};
  MPI_Dist_graph_create_adjacent(parent, 1, sources, MPI_UNWEIGHTED, 1, destinations, MPI_UNWEIGHTED,
                                 MPI_INFO_NULL, 0, &dist);
  check_intra(dist, members, nprocs, t, round, "dist_graph");
  free_comm(&dist);
  free_comm(&graph);
  free_comm(&row);
  free_comm(&cart);
}

static void *thread_main(void *arg) {
  const long t = (long)arg;
  for (int round = 0; round < rounds; ++round) {
    intra_round(base[t], t, round);
    inter_round(base[t], t, round);
    topology_round(base[t], t, round);
  }
  return NULL;
}

int main(int argc, char **argv) {
  tc_init(&argc, &argv);
  if (argc > 1) rounds = atoi(argv[1]);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (nprocs < 4 || nprocs % 2 != 0 || nprocs > MAX_RANKS) {
    printf("FAIL rank %d: needs an even number of ranks from 4 to %d, got %d\n", tc_rank, MAX_RANKS, nprocs);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (int t = 0; t < THREADS; ++t) MPI_Comm_dup(MPI_COMM_WORLD, &base[t]);
  tc_run_threads(THREADS, thread_main);
  for (int t = 0; t < THREADS; ++t) MPI_Comm_free(&base[t]);
  MPI_Finalize();
  return tc_report("thread_comm_create");
}
