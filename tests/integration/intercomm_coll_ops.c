/* intercomm_coll_ops: every collective MPI defines on an intercommunicator
 * (MPI-4.1 section 6.2.2), blocking and nonblocking, over two
 * intercommunicators of MPI_COMM_WORLD: even vs odd world ranks, and the
 * last world rank vs the rest (groups of unequal size). Each result is
 * compared int for int with the expected buffer, guard ints included:
 * roots in either group with MPI_ROOT and MPI_PROC_NULL, v-variants with
 * uneven counts and displacements, Alltoallw with a datatype per rank, a
 * non-contiguous datatype on one side, a non-commutative user op; then the
 * errors (MPI_IN_PLACE, an invalid root, scans). Needs 2 or more ranks.
 * Prints "intercomm_coll_ops: rank R OK". */
#include <string.h>

#include "check.h"

#define MAXR 8    /* ranks in a group, at most */
#define GUARD -7  /* what no call may write */
#define T 10      /* elements reduce_scatter scatters in each group */

typedef struct {
  MPI_Comm comm;
  int g;    /* our group: 0 or 1 */
  int r;    /* our rank in it */
  int n;    /* its size */
  int m;    /* the remote group's size */
  const char *label;
} Inter;

static int rank, size;
static MPI_Datatype col2, col3, pair, mat; /* vector(2,1,2), vector(3,1,2), contiguous(2), contiguous(4) */
static MPI_Op matmul_op;

static int val(int g, int r, int i) { return g * 100000 + r * 1000 + i; }
static int a2a(int g, int from, int to, int i) { return g * 100000 + from * 1000 + to * 10 + i; }
static int cnt3(int i) { return i % 3 + 1; }

static void fill(int *b, int n, int v) {
  for (int i = 0; i < n; ++i) b[i] = v;
}

static void same(const Inter *x, const int *got, const int *want, int n, const char *what, int nb) {
  int bad = 0, first = -1;
  for (int i = 0; i < n; ++i) {
    if (got[i] == want[i]) continue;
    if (first < 0) first = i;
    ++bad;
  }
  CHECK(bad == 0, "%s %s%s (group %d rank %d): %d ints wrong, first [%d] = %d want %d", x->label, nb ? "I" : "", what,
        x->g, x->r, bad, first, first >= 0 ? got[first] : 0, first >= 0 ? want[first] : 0);
}

/* Runs MPI_<Name>(args) or MPI_I<name>(args, &request) and MPI_Wait. */
#define COLL(nb, Name, name, ...)                                              \
  do {                                                                         \
    int rc_;                                                                   \
    if (nb) {                                                                  \
      MPI_Request rq_;                                                         \
      rc_ = MPI_I##name(__VA_ARGS__, &rq_);                                    \
      if (rc_ == MPI_SUCCESS) rc_ = MPI_Wait(&rq_, MPI_STATUS_IGNORE);         \
    } else {                                                                   \
      rc_ = MPI_##Name(__VA_ARGS__);                                           \
    }                                                                          \
    CHECK(rc_ == MPI_SUCCESS, "%s %s returned %d", x->label, #Name, rc_);       \
  } while (0)

/* The root is the last rank of group `rg`. */
static int root_rank(const Inter *x, int rg) { return (x->g == rg ? x->n : x->m) - 1; }
static int root_arg(const Inter *x, int rg) {
  const int rr = root_rank(x, rg);
  return x->g == rg ? (x->r == rr ? MPI_ROOT : MPI_PROC_NULL) : rr;
}

/* 2x2 unsigned matrices, row-major: inout = in * inout (in: lower ranks). */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *type) {
  const unsigned *a = in;
  unsigned *b = inout;
  (void)type;
  for (int k = 0; k < *len; ++k, a += 4, b += 4) {
    const unsigned c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                           a[2] * b[1] + a[3] * b[3]};
    memcpy(b, c, sizeof c);
  }
}
static void mat_of(int g, int r, int k, unsigned *out) {
  out[0] = (unsigned)(r + 2 + k), out[1] = (unsigned)(g + 1);
  out[2] = (unsigned)(k + 1), out[3] = (unsigned)(r * 3 + 1);
}
/* The product of group g's matrices for element k, in rank order. */
static void mat_product(int g, int members, int k, unsigned *out) {
  mat_of(g, members - 1, k, out);
  for (int j = members - 2; j >= 0; --j) {
    unsigned a[4];
    int one = 1;
    mat_of(g, j, k, a);
    matmul(a, out, &one, NULL);
  }
}

static void t_bcast(const Inter *x, int nb, int rg) {
  const int root = root_arg(x, rg), typed = rg == 1;
  int b[5], want[5];
  const int sender = root == MPI_ROOT;
  for (int i = 0; i < 5; ++i) b[i] = sender ? 30 + i : GUARD;
  memcpy(want, b, sizeof b);
  /* Typed: the root sends a column (ints 0, 2, 4), the others receive 3 ints. */
  if (root >= 0)
    for (int i = 0; i < 3; ++i) want[i] = typed ? 30 + 2 * i : 30 + i;
  if (typed && sender)
    COLL(nb, Bcast, bcast, b, 1, col3, root, x->comm);
  else
    COLL(nb, Bcast, bcast, b, 3, MPI_INT, root, x->comm);
  same(x, b, want, 5, "bcast", nb);
}

/* Gather: the root takes 2 ints from each remote rank, into a column
 * (vector(2,1,2), every third int left alone) when typed. Gatherv: j%3+1
 * ints from remote rank j, blocks in reverse order with a gap between. */
static void t_gather(const Inter *x, int nb, int rg) {
  const int root = root_arg(x, rg), typed = rg == 1, o = 1 - x->g;
  int send[3], recv[40], want[40], counts[MAXR], displs[MAXR];
  for (int i = 0; i < 3; ++i) send[i] = val(x->g, x->r, i);
  fill(recv, 40, GUARD);
  fill(want, 40, GUARD);
  if (root == MPI_ROOT)
    for (int j = 0; j < x->m; ++j)
      for (int i = 0; i < 2; ++i) want[typed ? 3 * j + 2 * i : 2 * j + i] = val(o, j, i);
  if (typed && root == MPI_ROOT)
    COLL(nb, Gather, gather, send, 2, MPI_INT, recv, 1, col2, root, x->comm);
  else
    COLL(nb, Gather, gather, send, 2, MPI_INT, recv, 2, MPI_INT, root, x->comm);
  same(x, recv, want, 40, "gather", nb);

  fill(recv, 40, GUARD);
  fill(want, 40, GUARD);
  for (int j = x->m - 1, at = 1; j >= 0; --j) counts[j] = cnt3(j), displs[j] = at, at += cnt3(j) + 1;
  if (root == MPI_ROOT)
    for (int j = 0; j < x->m; ++j)
      for (int i = 0; i < cnt3(j); ++i) want[displs[j] + i] = val(o, j, i);
  COLL(nb, Gatherv, gatherv, send, cnt3(x->r), MPI_INT, recv, counts, displs, MPI_INT, root, x->comm);
  same(x, recv, want, 40, "gatherv", nb);
}

/* Scatter: 2 ints to each remote rank (received into a column when typed);
 * Scatterv: j%3+1 ints to remote rank j from reversed, gapped blocks. */
static void t_scatter(const Inter *x, int nb, int rg) {
  const int root = root_arg(x, rg), typed = rg == 1, o = 1 - x->g;
  int send[40], recv[5], want[5], counts[MAXR], displs[MAXR];
  for (int j = 0; j < MAXR; ++j)
    for (int i = 0; i < 2; ++i) send[2 * j + i] = val(x->g, j, i) + 7;
  fill(recv, 5, GUARD);
  fill(want, 5, GUARD);
  if (root >= 0)
    for (int i = 0; i < 2; ++i) want[typed ? 2 * i : i] = val(o, x->r, i) + 7;
  if (typed && root >= 0)
    COLL(nb, Scatter, scatter, send, 2, MPI_INT, recv, 1, col2, root, x->comm);
  else
    COLL(nb, Scatter, scatter, send, 2, MPI_INT, recv, 2, MPI_INT, root, x->comm);
  same(x, recv, want, 5, "scatter", nb);

  fill(send, 40, GUARD);
  for (int j = x->m - 1, at = 1; j >= 0; --j) {
    counts[j] = cnt3(j), displs[j] = at;
    for (int i = 0; i < cnt3(j); ++i) send[at + i] = val(x->g, j, i) + 9;
    at += cnt3(j) + 1;
  }
  fill(recv, 5, GUARD);
  fill(want, 5, GUARD);
  if (root >= 0)
    for (int i = 0; i < cnt3(x->r); ++i) want[i] = val(o, x->r, i) + 9;
  COLL(nb, Scatterv, scatterv, send, counts, displs, MPI_INT, recv, cnt3(x->r), MPI_INT, root, x->comm);
  same(x, recv, want, 5, "scatterv", nb);
}

/* Allgather: 2 ints from each remote rank; typed, group 0 sends a column
 * and group 1 receives into columns. Allgatherv: r%3+1 ints from each,
 * reversed gapped blocks. */
static void t_allgather(const Inter *x, int nb, int typed) {
  const int o = 1 - x->g;
  int send[3] = {val(x->g, x->r, 0), GUARD, val(x->g, x->r, 1)};
  int recv[40], want[40], counts[MAXR], displs[MAXR];
  if (!typed || x->g == 1) send[1] = val(x->g, x->r, 1);
  fill(recv, 40, GUARD);
  fill(want, 40, GUARD);
  for (int j = 0; j < x->m; ++j)
    for (int i = 0; i < 2; ++i) want[typed && x->g == 1 ? 3 * j + 2 * i : 2 * j + i] = val(o, j, i);
  if (!typed)
    COLL(nb, Allgather, allgather, send, 2, MPI_INT, recv, 2, MPI_INT, x->comm);
  else if (x->g == 0)
    COLL(nb, Allgather, allgather, send, 1, col2, recv, 2, MPI_INT, x->comm);
  else
    COLL(nb, Allgather, allgather, send, 2, MPI_INT, recv, 1, col2, x->comm);
  same(x, recv, want, 40, "allgather", nb);

  int sendv[3];
  for (int i = 0; i < 3; ++i) sendv[i] = val(x->g, x->r, i);
  fill(recv, 40, GUARD);
  fill(want, 40, GUARD);
  for (int j = x->m - 1, at = 1; j >= 0; --j) {
    counts[j] = cnt3(j), displs[j] = at;
    for (int i = 0; i < cnt3(j); ++i) want[at + i] = val(o, j, i);
    at += cnt3(j) + 1;
  }
  COLL(nb, Allgatherv, allgatherv, sendv, cnt3(x->r), MPI_INT, recv, counts, displs, MPI_INT, x->comm);
  same(x, recv, want, 40, "allgatherv", nb);
}

/* Alltoall: 2 ints to and from each remote rank (typed: group 0 sends from
 * columns, group 1 receives into them). */
static void t_alltoall(const Inter *x, int nb, int typed) {
  const int o = 1 - x->g, cols = typed && x->g == 0, colr = typed && x->g == 1;
  int send[40], recv[40], want[40];
  fill(send, 40, GUARD);
  for (int j = 0; j < x->m; ++j)
    for (int i = 0; i < 2; ++i) send[cols ? 3 * j + 2 * i : 2 * j + i] = a2a(x->g, x->r, j, i);
  fill(recv, 40, GUARD);
  fill(want, 40, GUARD);
  for (int j = 0; j < x->m; ++j)
    for (int i = 0; i < 2; ++i) want[colr ? 3 * j + 2 * i : 2 * j + i] = a2a(o, j, x->r, i);
  COLL(nb, Alltoall, alltoall, send, cols ? 1 : 2, cols ? col2 : MPI_INT, recv, colr ? 1 : 2, colr ? col2 : MPI_INT,
       x->comm);
  same(x, recv, want, 40, "alltoall", nb);
}

/* Alltoallv: (sender + receiver)%3+1 ints, send blocks reversed and gapped,
 * receive blocks in order two ints apart. */
static void t_alltoallv(const Inter *x, int nb) {
  const int o = 1 - x->g;
  int send[48], recv[48], want[48], sc[MAXR], sd[MAXR], rc[MAXR], rd[MAXR];
  fill(send, 48, GUARD);
  for (int j = x->m - 1, at = 1; j >= 0; --j) {
    sc[j] = cnt3(x->r + j), sd[j] = at;
    for (int i = 0; i < sc[j]; ++i) send[at + i] = a2a(x->g, x->r, j, i);
    at += sc[j] + 1;
  }
  fill(recv, 48, GUARD);
  fill(want, 48, GUARD);
  for (int j = 0, at = 0; j < x->m; ++j) {
    rc[j] = cnt3(j + x->r), rd[j] = at;
    for (int i = 0; i < rc[j]; ++i) want[at + i] = a2a(o, j, x->r, i);
    at += rc[j] + 2;
  }
  COLL(nb, Alltoallv, alltoallv, send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, x->comm);
  same(x, recv, want, 48, "alltoallv", nb);
}

/* Alltoallw: to an odd remote rank a column, to an even one 2 ints; from an
 * even remote rank into a column, from an odd one 2 ints; byte displacements. */
static void t_alltoallw(const Inter *x, int nb) {
  const int o = 1 - x->g;
  int send[40], recv[40], want[40], sc[MAXR], sd[MAXR], rc[MAXR], rd[MAXR];
  MPI_Datatype st[MAXR], rt[MAXR];
  fill(send, 40, GUARD);
  fill(recv, 40, GUARD);
  fill(want, 40, GUARD);
  for (int j = 0; j < x->m; ++j) {
    const int odd = j % 2;
    st[j] = odd ? col2 : MPI_INT, sc[j] = odd ? 1 : 2, sd[j] = (int)(4 * j * sizeof(int));
    for (int i = 0; i < 2; ++i) send[4 * j + (odd ? 2 * i : i)] = a2a(x->g, x->r, j, i);
    rt[j] = odd ? MPI_INT : col2, rc[j] = odd ? 2 : 1, rd[j] = (int)((4 * j + 1) * sizeof(int));
    for (int i = 0; i < 2; ++i) want[4 * j + 1 + (odd ? i : 2 * i)] = a2a(o, j, x->r, i);
  }
  COLL(nb, Alltoallw, alltoallw, send, sc, sd, st, recv, rc, rd, rt, x->comm);
  same(x, recv, want, 40, "alltoallw", nb);
}

/* Reduce: a sum of 3 ints (typed: a column of them) and a product of 2
 * matrices (non-commutative user op) at the root, over the remote group. */
static void t_reduce(const Inter *x, int nb, int rg) {
  const int root = root_arg(x, rg), typed = rg == 1, o = 1 - x->g;
  int send[5], recv[5], want[5];
  for (int i = 0; i < 5; ++i) send[i] = val(x->g, x->r, i);
  fill(recv, 5, GUARD);
  fill(want, 5, GUARD);
  if (root == MPI_ROOT)
    for (int i = 0; i < 3; ++i) {
      const int at = typed ? 2 * i : i;
      want[at] = 0;
      for (int j = 0; j < x->m; ++j) want[at] += val(o, j, at);
    }
  if (typed)
    COLL(nb, Reduce, reduce, send, recv, 1, col3, MPI_SUM, root, x->comm);
  else
    COLL(nb, Reduce, reduce, send, recv, 3, MPI_INT, MPI_SUM, root, x->comm);
  same(x, recv, want, 5, "reduce(sum)", nb);

  unsigned ms[8], mr[9], mw[9];
  for (int k = 0; k < 2; ++k) mat_of(x->g, x->r, k, ms + 4 * k);
  memset(mr, 0xee, sizeof mr);
  memset(mw, 0xee, sizeof mw);
  if (root == MPI_ROOT)
    for (int k = 0; k < 2; ++k) mat_product(o, x->m, k, mw + 4 * k);
  COLL(nb, Reduce, reduce, ms, mr, 2, mat, matmul_op, root, x->comm);
  same(x, (const int *)mr, (const int *)mw, 9, "reduce(matmul)", nb);
}

/* Allreduce: each group gets the other's sum (typed: in columns) and the
 * other's matrix product. */
static void t_allreduce(const Inter *x, int nb, int typed) {
  const int o = 1 - x->g;
  int send[5], recv[5], want[5];
  for (int i = 0; i < 5; ++i) send[i] = val(x->g, x->r, i);
  fill(recv, 5, GUARD);
  fill(want, 5, GUARD);
  for (int i = 0; i < 3; ++i) {
    const int at = typed ? 2 * i : i;
    want[at] = 0;
    for (int j = 0; j < x->m; ++j) want[at] += val(o, j, at);
  }
  if (typed)
    COLL(nb, Allreduce, allreduce, send, recv, 1, col3, MPI_SUM, x->comm);
  else
    COLL(nb, Allreduce, allreduce, send, recv, 3, MPI_INT, MPI_SUM, x->comm);
  same(x, recv, want, 5, "allreduce(sum)", nb);

  unsigned ms[8], mr[9], mw[9];
  for (int k = 0; k < 2; ++k) mat_of(x->g, x->r, k, ms + 4 * k);
  memset(mr, 0xee, sizeof mr);
  memset(mw, 0xee, sizeof mw);
  for (int k = 0; k < 2; ++k) mat_product(o, x->m, k, mw + 4 * k);
  COLL(nb, Allreduce, allreduce, ms, mr, 2, mat, matmul_op, x->comm);
  same(x, (const int *)mr, (const int *)mw, 9, "allreduce(matmul)", nb);
}

/* Reduce_scatter: T matrices per group, split unevenly over its ranks; each
 * rank gets its block of the other group's product. */
static void t_reduce_scatter(const Inter *x, int nb) {
  const int o = 1 - x->g;
  int counts[MAXR], first = 0;
  for (int i = 0; i < x->n; ++i) {
    counts[i] = T / x->n + (i < T % x->n);
    if (i < x->r) first += counts[i];
  }
  const int mine = counts[x->r];
  unsigned ms[4 * T], mr[4 * T + 1], mw[4 * T + 1];
  for (int k = 0; k < T; ++k) mat_of(x->g, x->r, k, ms + 4 * k);
  memset(mr, 0xee, sizeof mr);
  memset(mw, 0xee, sizeof mw);
  for (int k = 0; k < mine; ++k) mat_product(o, x->m, first + k, mw + 4 * k);
  COLL(nb, Reduce_scatter, reduce_scatter, ms, mr, counts, mat, matmul_op, x->comm);
  same(x, (const int *)mr, (const int *)mw, 4 * T + 1, "reduce_scatter(matmul)", nb);
}

/* Reduce_scatter_block: each group's n*m pairs of ints, m per rank; group 0
 * lays its pairs out as columns (every third int left alone). */
static void t_reduce_scatter_block(const Inter *x, int nb) {
  const int o = 1 - x->g, cols = x->g == 0, per = x->m, total = x->n * x->m;
  const int stride = cols ? 3 : 2; /* ints per pair in our buffers */
  int send[3 * MAXR * MAXR], recv[3 * MAXR + 1], want[3 * MAXR + 1];
  fill(send, 3 * MAXR * MAXR, GUARD);
  for (int k = 0; k < total; ++k)
    for (int i = 0; i < 2; ++i) send[stride * k + (cols ? 2 * i : i)] = val(x->g, x->r, 2 * k + i);
  fill(recv, 3 * MAXR + 1, GUARD);
  fill(want, 3 * MAXR + 1, GUARD);
  for (int k = 0; k < per; ++k)
    for (int i = 0; i < 2; ++i) {
      int sum = 0;
      for (int j = 0; j < x->m; ++j) sum += val(o, j, 2 * (x->r * per + k) + i);
      want[stride * k + (cols ? 2 * i : i)] = sum;
    }
  COLL(nb, Reduce_scatter_block, reduce_scatter_block, send, recv, per, cols ? col2 : pair, MPI_SUM, x->comm);
  same(x, recv, want, 3 * MAXR + 1, "reduce_scatter_block", nb);
}

/* Several nonblocking calls in flight at once, and a blocking one beside
 * them (the leaders' path, fixed tags). */
static void t_overlap(const Inter *x) {
  const int o = 1 - x->g;
  int b = x->g == 0 && x->r == 0 ? 99 : GUARD, mine = val(x->g, x->r, 0), all[MAXR], sum = -1, want = 0;
  const int root = x->g == 0 ? (x->r == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
  MPI_Request rq[3];
  fill(all, MAXR, GUARD);
  MPI_Ibarrier(x->comm, &rq[0]);
  MPI_Ibcast(&b, 1, MPI_INT, root, x->comm, &rq[1]);
  MPI_Iallgather(&mine, 1, MPI_INT, all, 1, MPI_INT, x->comm, &rq[2]);
  MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, x->comm);
  MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
  for (int j = 0; j < x->m; ++j) want += val(o, j, 0);
  CHECK(sum == want, "%s overlapped allreduce %d, want %d", x->label, sum, want);
  CHECK(x->g == 0 ? b == (x->r == 0 ? 99 : GUARD) : b == 99, "%s overlapped ibcast gave %d", x->label, b);
  int bad = 0;
  for (int j = 0; j < MAXR; ++j) bad += all[j] != (j < x->m ? val(o, j, 0) : GUARD);
  CHECK(bad == 0, "%s overlapped iallgather: %d ints wrong", x->label, bad);
}

/* Errors, raised on every rank alike (so no rank waits for another). */
static void t_errors(const Inter *x) {
  int a[MAXR * 4] = {0}, b[MAXR * 4] = {0}, rc;
  MPI_Request rq = MPI_REQUEST_NULL;
  MPI_Comm_set_errhandler(x->comm, MPI_ERRORS_RETURN);
  rc = MPI_Allgather(MPI_IN_PLACE, 1, MPI_INT, b, 1, MPI_INT, x->comm);
  CHECK(rc == MPI_ERR_BUFFER, "%s allgather in place gave %d", x->label, rc);
  rc = MPI_Ialltoall(MPI_IN_PLACE, 1, MPI_INT, b, 1, MPI_INT, x->comm, &rq);
  CHECK(rc == MPI_ERR_BUFFER, "%s ialltoall in place gave %d", x->label, rc);
  rc = MPI_Iallreduce(MPI_IN_PLACE, b, 1, MPI_INT, MPI_SUM, x->comm, &rq);
  CHECK(rc == MPI_ERR_BUFFER, "%s iallreduce in place gave %d", x->label, rc);
  rc = MPI_Reduce_scatter_block(MPI_IN_PLACE, b, 1, MPI_INT, MPI_SUM, x->comm);
  CHECK(rc == MPI_ERR_BUFFER, "%s reduce_scatter_block in place gave %d", x->label, rc);
  rc = MPI_Gather(a, 1, MPI_INT, b, 1, MPI_INT, 100, x->comm);
  CHECK(rc == MPI_ERR_ROOT, "%s gather with root 100 gave %d", x->label, rc);
  rc = MPI_Iscatter(a, 1, MPI_INT, b, 1, MPI_INT, -5, x->comm, &rq);
  CHECK(rc == MPI_ERR_ROOT, "%s iscatter with root -5 gave %d", x->label, rc);
  rc = MPI_Scan(a, b, 1, MPI_INT, MPI_SUM, x->comm);
  CHECK(rc == MPI_ERR_COMM, "%s scan gave %d", x->label, rc);
  rc = MPI_Iexscan(a, b, 1, MPI_INT, MPI_SUM, x->comm, &rq);
  CHECK(rc == MPI_ERR_COMM, "%s iexscan gave %d", x->label, rc);
  CHECK(rq == MPI_REQUEST_NULL, "%s a refused call made a request", x->label);
  /* Still usable afterwards. */
  COLL(0, Barrier, barrier, x->comm);
}

/* An intercommunicator between world ranks of `color` 0 and 1 (leaders:
 * each group's lowest world rank). */
static Inter make_inter(int color, int leader0, int leader1, const char *label) {
  Inter x = {MPI_COMM_NULL, color, 0, 0, 0, label};
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color == 0 ? leader1 : leader0, 5, &x.comm);
  MPI_Comm_free(&half);
  MPI_Comm_rank(x.comm, &x.r);
  MPI_Comm_size(x.comm, &x.n);
  MPI_Comm_remote_size(x.comm, &x.m);
  return x;
}

static void run_all(const Inter *x) {
  for (int nb = 0; nb < 2; ++nb) {
    COLL(nb, Barrier, barrier, x->comm);
    for (int rg = 0; rg < 2; ++rg) {
      t_bcast(x, nb, rg);
      t_gather(x, nb, rg);
      t_scatter(x, nb, rg);
      t_reduce(x, nb, rg);
    }
    for (int typed = 0; typed < 2; ++typed) {
      t_allgather(x, nb, typed);
      t_alltoall(x, nb, typed);
      t_allreduce(x, nb, typed);
    }
    t_alltoallv(x, nb);
    t_alltoallw(x, nb);
    t_reduce_scatter(x, nb);
    t_reduce_scatter_block(x, nb);
  }
  t_overlap(x);
  t_errors(x);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_rank = rank;
  MPI_Type_vector(2, 1, 2, MPI_INT, &col2);
  MPI_Type_vector(3, 1, 2, MPI_INT, &col3);
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_contiguous(4, MPI_UNSIGNED, &mat);
  MPI_Type_commit(&col2);
  MPI_Type_commit(&col3);
  MPI_Type_commit(&pair);
  MPI_Type_commit(&mat);
  MPI_Op_create(matmul, 0, &matmul_op);

  Inter parity = make_inter(rank % 2, 0, 1, "even/odd");
  run_all(&parity);
  MPI_Comm_free(&parity.comm);
  /* Group 1 is the last world rank alone. */
  Inter last = make_inter(rank == size - 1, 0, size - 1, "rest/last");
  run_all(&last);
  MPI_Comm_free(&last.comm);

  MPI_Op_free(&matmul_op);
  MPI_Type_free(&col2);
  MPI_Type_free(&col3);
  MPI_Type_free(&pair);
  MPI_Type_free(&mat);
  const int rc = check_report("intercomm_coll_ops");
  MPI_Finalize();
  return rc;
}
