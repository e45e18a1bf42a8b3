/* coll_reference: every collective, blocking and nonblocking, against a
 * straightforward reference. Each case draws its collective, communicator
 * (world, a dup, an odd/even split, self), datatype (a kind, often in a
 * layout with gaps: vector, indexed, resized, nested, subarray; sometimes
 * with the other side sending plain kind elements), op, root, counts
 * (0 included), MPI_IN_PLACE and completion call from one random stream
 * that every rank shares; contributions come from a hash of (seed, case,
 * rank, index), so each rank computes the expected result with plain loops
 * (coll_ref_data.h). A receive buffer is compared whole, byte for byte,
 * gaps between elements included. Nonblocking cases start in batches of up to three,
 * with blocking ones in between, and complete through Wait, Waitall,
 * Testall or Waitany.
 *
 * Usage: coll_reference [cases] [seed]. Prints "coll_reference: rank R OK",
 * or FAIL lines naming the case and the seed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_ref_data.h"

enum { C_BARRIER, C_BCAST, C_REDUCE, C_ALLREDUCE, C_GATHER, C_GATHERV, C_SCATTER, C_SCATTERV, C_ALLGATHER,
       C_ALLGATHERV, C_ALLTOALL, C_ALLTOALLV, C_ALLTOALLW, C_REDUCE_SCATTER, C_REDUCE_SCATTER_BLOCK, C_SCAN,
       C_EXSCAN, C_REDUCE_LOCAL, C_COUNT };
static const char *coll_name[C_COUNT] = {
    "barrier", "bcast", "reduce", "allreduce", "gather", "gatherv", "scatter", "scatterv", "allgather",
    "allgatherv", "alltoall", "alltoallv", "alltoallw", "reduce_scatter", "reduce_scatter_block", "scan",
    "exscan", "reduce_local"};

static int world_rank, failures;
static uint64_t seed, stream;

/* The shared stream: every rank draws the same numbers in the same order. */
static unsigned draw(unsigned n) {
  stream = mix(stream + 0x9e3779b97f4a7c15ULL);
  return (unsigned)(stream % n);
}
/* A per-case quantity for rank or pair `i` (not drawn: communicators of
 * different sizes must keep the stream in step). */
static unsigned hashed(int id, int i, unsigned n) { return (unsigned)(mix(seed ^ mix((uint64_t)id * 131 + (uint64_t)i)) % n); }

static int pick_count(void) {
  unsigned r = draw(100);
  if (r < 10) return 0;
  if (r < 70) return (int)draw(40);
  if (r < 92) return (int)draw(3000);
  return 8000 + (int)draw(40000);
}

typedef struct {
  int coll, id, nb, in_place, root, kind, op, count;
  int lay, mix;          /* the datatype's layout of the kind; a side sends plain kind elements */
  int send_n, recv_n;    /* elements the send and receive buffers hold */
  MPI_Comm comm;
  int rank, size;
  void *send, *recv, *expect;
  size_t check_from, check_bytes; /* the part of recv compared with expect */
  int *scounts, *sdispls, *rcounts, *rdispls;
  MPI_Datatype *stypes, *rtypes;
  MPI_Request request;
} Case;

static void *xalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) { printf("coll_reference: FAIL rank %d: out of memory\n", world_rank); exit(1); }
  return p;
}

static void fail(const Case *c, const char *what) {
  if (failures++ < 10)
    printf("coll_reference: FAIL rank %d: case %d %s%s (%s%s%s, op %s, count %d, root %d, comm size %d%s): %s; "
           "seed %llu\n",
           world_rank, c->id, c->nb ? "i" : "", coll_name[c->coll], kind_name[c->kind], lay_name[c->lay],
           c->mix ? ", one side plain" : "", op_label(c->op), c->count, c->root, c->size,
           c->in_place ? ", MPI_IN_PLACE" : "", what, (unsigned long long)seed);
}

#include "coll_ref_cases.h"

static void finish(Case *c) {
  if (c->check_bytes && memcmp((char *)c->recv + c->check_from, (char *)c->expect + c->check_from, c->check_bytes)) {
    size_t at = 0;
    while (((char *)c->recv)[c->check_from + at] == ((char *)c->expect)[c->check_from + at]) ++at;
    char what[96];
    snprintf(what, sizeof what, "result differs from the reference at byte %zu of %zu", at, c->check_bytes);
    fail(c, what);
  }
  free(c->send); free(c->recv); free(c->expect);
  free(c->scounts); free(c->sdispls); free(c->rcounts); free(c->rdispls);
  free(c->stypes); free(c->rtypes);
}

static void complete_batch(Case *batch, int n) {
  MPI_Request reqs[3];
  int method = (int)draw(4);
  for (int i = 0; i < n; ++i) reqs[i] = batch[i].request;
  if (method == 0) {
    for (int i = n - 1; i >= 0; --i) MPI_Wait(&reqs[i], MPI_STATUS_IGNORE);
  } else if (method == 1) {
    MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
  } else if (method == 2) {
    int flag = 0;
    while (!flag) MPI_Testall(n, reqs, &flag, MPI_STATUSES_IGNORE);
  } else {
    for (int k = 0; k < n; ++k) {
      int index = -1;
      MPI_Waitany(n, reqs, &index, MPI_STATUS_IGNORE);
      if (index < 0 || index >= n) { fail(&batch[0], "MPI_Waitany returned a bad index"); break; }
    }
  }
  for (int i = 0; i < n; ++i)
    if (reqs[i] != MPI_REQUEST_NULL) fail(&batch[i], "request not MPI_REQUEST_NULL after completion");
}

/* MPI_Cancel refuses a nonblocking collective; MPI_Request_free lets one
 * finish on its own. */
static void request_rules(void) {
  MPI_Request r;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Ibarrier(MPI_COMM_WORLD, &r);
  int rc = MPI_Cancel(&r), cls = -1;
  MPI_Error_class(rc, &cls);
  if (cls != MPI_ERR_REQUEST) {
    printf("coll_reference: FAIL rank %d: MPI_Cancel of an ibarrier gave class %d\n", world_rank, cls);
    ++failures;
  }
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  int v = world_rank + 1, sum = 0;
  MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
  MPI_Request_free(&r);
  MPI_Barrier(MPI_COMM_WORLD);  /* every rank has started it: it can finish */
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int expect = size * (size + 1) / 2, flag = 0;
  while (!flag) { /* it completes while we are in the library */
    MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE);
    MPI_Request r2;
    MPI_Ibarrier(MPI_COMM_SELF, &r2);
    MPI_Wait(&r2, MPI_STATUS_IGNORE);
    flag = sum == expect;
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  int cases = argc > 1 ? atoi(argv[1]) : 300;
  seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 20261205;
  stream = seed;
  setup_kinds();
  MPI_Comm comms[4];
  comms[0] = MPI_COMM_WORLD;
  MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]);
  MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, -world_rank, &comms[2]);
  comms[3] = MPI_COMM_SELF;
  Case batch[3];
  int pending = 0;
  for (int id = 0; id < cases; ++id) {
    Case c;
    memset(&c, 0, sizeof c);
    c.id = id;
    c.coll = (int)draw(C_COUNT);
    c.comm = comms[draw(10) < 7 ? 0 : 1 + draw(3)];
    c.nb = c.coll != C_REDUCE_LOCAL && draw(2);
    MPI_Comm_rank(c.comm, &c.rank);
    MPI_Comm_size(c.comm, &c.size);
    prepare(&c);
    start(&c);
    if (!c.nb) {
      finish(&c);
    } else {
      batch[pending++] = c;
    }
    if (pending == 3 || (pending > 0 && draw(3) == 0) || (pending > 0 && id == cases - 1)) {
      complete_batch(batch, pending);
      for (int i = 0; i < pending; ++i) finish(&batch[i]);
      pending = 0;
    }
  }
  request_rules();
  MPI_Comm_free(&comms[1]);
  MPI_Comm_free(&comms[2]);
  free_kinds();
  if (failures == 0) printf("coll_reference: rank %d OK (%d cases, seed %llu)\n", world_rank, cases,
                            (unsigned long long)seed);
  MPI_Finalize();
  return failures != 0;
}
