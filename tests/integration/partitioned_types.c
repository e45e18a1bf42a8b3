/* partitioned_types: MPI-4.1 partitioned communication with datatypes that
 * are not contiguous, around a ring (each rank sends to its right
 * neighbour and receives from its left one). Partition i of `count`
 * elements per partition is elements [i * count, (i + 1) * count) of the
 * type; what travels is their packed stream, which the receiver lays out
 * with its own type and partitioning (MPI-4.1 4.2). Cases: a resized
 * strided vector of doubles (MPICH's part/parrived_strided) with equal and
 * different partition counts, eager and rendezvous sizes, runs short and
 * long enough to be copied run to run; a strided sender
 * and a contiguous receiver and the other way round; a struct with a hole
 * received as pairs of three, so send partitions start inside receive
 * elements; an indexed type; a sender rounds ahead of its receiver; a
 * receive whose partitions' elements overlap, refused.
 * Partitions are marked ready one by one, in ranges and in lists, in a
 * shuffled order. Every receive partition MPI_Parrived reports must hold
 * its data already, and the holes between a type's runs stay untouched.
 *
 * argv[1] = seed for the shuffles (printed). */
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { SENTINEL = 0xa5, ROUNDS = 4 };
enum how { ONE_BY_ONE, RANGES, LIST };

static int rank, size, right, left;
static unsigned seed = 1;

static void mark_all(MPI_Request send, int parts, enum how how) {
  int *order = malloc(sizeof(int) * (parts + 1));
  shuffled_order(order, parts, &seed);
  if (how == ONE_BY_ONE) {
    for (int i = 0; i < parts; ++i) MPI_Pready(order[i], send);
  } else if (how == RANGES) {
    for (int lo = parts - 1; lo >= 0; lo -= 3) MPI_Pready_range(lo >= 2 ? lo - 2 : 0, lo, send);
  } else {
    for (int i = 0; i < parts; ++i) order[i] = (i + parts / 2) % parts; /* two runs of consecutive ones */
    MPI_Pready_list(parts, order, send);
  }
  free(order);
}

/* One side of a transfer: `parts` partitions of `count` elements of `type`
 * in a buffer of `span` bytes (the elements' extent, lower bound 0). */
struct side {
  MPI_Datatype type;
  int parts, count;
  size_t span;
};

static struct side side_of(MPI_Datatype type, int parts, int count) {
  MPI_Aint lb = 0, extent = 0;
  MPI_Type_get_extent(type, &lb, &extent);
  return (struct side){type, parts, count, (size_t)extent * (size_t)parts * (size_t)count};
}

/* The sender's buffer in round `round` of rank `from`: its bytes vary with
 * their place, the round and the rank (holes too: they must not travel). */
static void fill_send(unsigned char *buf, const struct side *s, int from, int round) {
  fill_pattern(buf, s->span, from * 100 + round + 1);
}

/* What the receiver must hold after round `round` from rank `from`:
 * untouched holes around the sender's packed stream laid out by its type
 * (MPI_Pack / MPI_Unpack, which run no partitioned code). */
static void expected(unsigned char *want, const struct side *send, const struct side *recv, int from, int round) {
  unsigned char *out = malloc(send->span + 1);
  fill_send(out, send, from, round);
  int packed = 0, at = 0;
  MPI_Pack_size(send->parts * send->count, send->type, MPI_COMM_SELF, &packed);
  unsigned char *stream = malloc((size_t)packed + 1);
  MPI_Pack(out, send->parts * send->count, send->type, stream, packed, &at, MPI_COMM_SELF);
  memset(want, SENTINEL, recv->span);
  int pos = 0;
  MPI_Unpack(stream, at, &pos, want, recv->parts * recv->count, recv->type, MPI_COMM_SELF);
  free(stream);
  free(out);
}

/* ROUNDS rounds of `send` to the right, received as `recv` from the left. */
static void typed_transfer(const char *what, struct side send, struct side recv, enum how how) {
  unsigned char *out = malloc(send.span + 1), *in = malloc(recv.span + 1), *want = malloc(recv.span + 1);
  char *seen = malloc((size_t)recv.parts);
  const size_t part_span = recv.span / (size_t)recv.parts;
  int packed = 0;
  MPI_Pack_size(recv.parts * recv.count, recv.type, MPI_COMM_SELF, &packed);
  MPI_Request sreq, rreq;
  MPI_Psend_init(out, send.parts, send.count, send.type, right, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &sreq);
  MPI_Precv_init(in, recv.parts, recv.count, recv.type, left, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &rreq);
  for (int round = 0; round < ROUNDS; ++round) {
    fill_send(out, &send, rank, round);
    memset(in, SENTINEL, recv.span);
    expected(want, &send, &recv, left, round);
    MPI_Request both[2] = {rreq, sreq};
    MPI_Startall(2, both);
    mark_all(sreq, send.parts, how);
    /* A partition reported arrived holds its data, holes untouched. */
    memset(seen, 0, (size_t)recv.parts);
    for (int arrived = 0; arrived < recv.parts;) {
      for (int p = 0; p < recv.parts; ++p) {
        int flag = 0;
        if (seen[p]) continue;
        MPI_Parrived(rreq, p, &flag);
        if (!flag) continue;
        seen[p] = 1;
        ++arrived;
        CHECK(memcmp(in + p * part_span, want + p * part_span, part_span) == 0,
              "%s round %d mode %d: receive partition %d arrived without its data in place", what, round, (int)how, p);
      }
    }
    MPI_Status st[2];
    MPI_Waitall(2, both, st);
    int bytes = -1;
    MPI_Get_count(&st[0], MPI_BYTE, &bytes);
    CHECK(bytes == packed && st[0].MPI_SOURCE == left && st[0].MPI_TAG == 5, "%s status: %d bytes (want %d)", what,
          bytes, packed);
    size_t bad = 0;
    while (bad < recv.span && in[bad] == want[bad]) ++bad;
    CHECK(bad == recv.span, "%s round %d mode %d: first wrong byte %zu of %zu (got 0x%02x, want 0x%02x)", what, round,
          (int)how, bad, recv.span, bad < recv.span ? in[bad] : 0, bad < recv.span ? want[bad] : 0);
  }
  MPI_Request_free(&sreq);
  MPI_Request_free(&rreq);
  free(out);
  free(in);
  free(want);
  free(seen);
}

/* MPICH's parrived_strided layout: one element per partition, a vector of
 * blocks of `block` doubles every stride-th double, resized to cover the
 * partition's whole span. */
static MPI_Datatype blocked(int doubles, int block, int stride) {
  MPI_Datatype vector, resized;
  MPI_Type_vector(doubles / stride, block, stride, MPI_DOUBLE, &vector);
  MPI_Type_create_resized(vector, 0, (MPI_Aint)doubles * (MPI_Aint)sizeof(double), &resized);
  MPI_Type_commit(&resized);
  MPI_Type_free(&vector);
  return resized;
}

static MPI_Datatype strided(int doubles, int stride) { return blocked(doubles, 1, stride); }

static void strided_cases(int total, int stride, int send_parts, int recv_parts, enum how how) {
  char what[96];
  snprintf(what, sizeof what, "strided %d/%d %dx%d", total, stride, send_parts, recv_parts);
  MPI_Datatype s = strided(total / send_parts, stride), r = strided(total / recv_parts, stride);
  typed_transfer(what, side_of(s, send_parts, 1), side_of(r, recv_parts, 1), how);
  MPI_Type_free(&s);
  MPI_Type_free(&r);
}

/* Runs long enough (8 KiB) for the receiver to copy them run to run from
 * the sender's, rendezvous partitions. */
static void long_run_cases(int send_parts, int recv_parts, enum how how) {
  enum { TOTAL = 262144, BLOCK = 1024, STRIDE = 2048 };
  char what[96];
  snprintf(what, sizeof what, "long runs %dx%d", send_parts, recv_parts);
  MPI_Datatype s = blocked(TOTAL / send_parts, BLOCK, STRIDE), r = blocked(TOTAL / recv_parts, BLOCK, STRIDE);
  typed_transfer(what, side_of(s, send_parts, 1), side_of(r, recv_parts, 1), how);
  MPI_Type_free(&s);
  MPI_Type_free(&r);
}

/* Type signatures match, layouts do not: strided to dense and back. */
static void strided_dense_cases(int total, int stride, int parts, enum how how) {
  MPI_Datatype s = strided(total / parts, stride);
  const int packed = total / stride;
  typed_transfer("strided to dense", side_of(s, parts, 1), side_of(MPI_DOUBLE, parts * 2, packed / (parts * 2)), how);
  typed_transfer("dense to strided", side_of(MPI_DOUBLE, 3, packed / 3), side_of(s, parts, 1), how);
  MPI_Type_free(&s);
}

/* {int, 4-byte hole, double} sent 5 to a partition, received as elements
 * of three of them: send partitions start inside receive elements. */
static void struct_cases(enum how how) {
  int lengths[2] = {1, 1};
  MPI_Aint displs[2] = {0, 8};
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, pair, triple;
  MPI_Type_create_struct(2, lengths, displs, types, &pair);
  MPI_Type_commit(&pair);
  MPI_Type_contiguous(3, pair, &triple);
  MPI_Type_commit(&triple);
  typed_transfer("struct 6x5 as 5x2 triples", side_of(pair, 6, 5), side_of(triple, 5, 2), how);
  typed_transfer("struct 5x2 triples as 10x3", side_of(triple, 5, 2), side_of(pair, 10, 3), how);
  /* Rendezvous sizes: 3 partitions of 20000 pairs, as 4 of 5000 triples. */
  typed_transfer("struct rendezvous", side_of(pair, 3, 20000), side_of(triple, 4, 5000), how);
  MPI_Type_free(&pair);
  MPI_Type_free(&triple);
}

/* Blocks of 3, 1 and 2 ints at 0, 5 and 8 (extent 10 ints): 6 ints each. */
static void indexed_cases(enum how how) {
  int lengths[3] = {3, 1, 2}, displs[3] = {0, 5, 8};
  MPI_Datatype indexed;
  MPI_Type_indexed(3, lengths, displs, MPI_INT, &indexed);
  MPI_Type_commit(&indexed);
  typed_transfer("indexed 4x3 as 6x2", side_of(indexed, 4, 3), side_of(indexed, 6, 2), how);
  typed_transfer("indexed 4x3 as 8 ints x9", side_of(indexed, 4, 3), side_of(MPI_INT, 8, 9), how);
  MPI_Type_free(&indexed);
}

/* The sender runs rounds ahead: later rounds' messages, some spanning
 * several partitions, wait unexpected for their round's receive, which
 * must still lay them out by its type. */
static void sender_ahead(int total, int stride, int send_parts, int recv_parts) {
  enum { AHEAD = 4 };
  MPI_Datatype s = strided(total / send_parts, stride), r = strided(total / recv_parts, stride);
  struct side send = side_of(s, send_parts, 1), recv = side_of(r, recv_parts, 1);
  unsigned char *out = malloc(send.span), *in = malloc(recv.span), *want = malloc(recv.span);
  MPI_Request sreq, rreq;
  MPI_Psend_init(out, send.parts, 1, s, right, 6, MPI_COMM_WORLD, MPI_INFO_NULL, &sreq);
  MPI_Precv_init(in, recv.parts, 1, r, left, 6, MPI_COMM_WORLD, MPI_INFO_NULL, &rreq);
  MPI_Request both[2] = {rreq, sreq};
  MPI_Startall(2, both); /* a first round pairs them */
  MPI_Pready_range(0, send.parts - 1, sreq);
  MPI_Waitall(2, both, MPI_STATUSES_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int round = 0; round < AHEAD; ++round) {
    fill_send(out, &send, rank, round);
    MPI_Start(&sreq);
    if (round % 2 == 0) {
      MPI_Pready_range(0, send.parts - 1, sreq);
    } else {
      for (int p = send.parts - 1; p >= 0; --p) MPI_Pready(p, sreq);
    }
    MPI_Wait(&sreq, MPI_STATUS_IGNORE); /* eager: gone before any receive takes them */
  }
  for (int round = 0; round < AHEAD; ++round) {
    memset(in, SENTINEL, recv.span);
    expected(want, &send, &recv, left, round);
    MPI_Start(&rreq);
    MPI_Wait(&rreq, MPI_STATUS_IGNORE);
    CHECK(memcmp(in, want, recv.span) == 0, "ahead round %d (%dx%d): data or holes wrong", round, send_parts,
          recv_parts);
  }
  MPI_Request_free(&sreq);
  MPI_Request_free(&rreq);
  MPI_Type_free(&s);
  MPI_Type_free(&r);
  free(out);
  free(in);
  free(want);
}

/* A receive whose partitions' elements overlap one another is refused
 * (MPI-4.1 3.2.2), though each partition's one element alone is fine. */
static void overlapping_receive(void) {
  MPI_Datatype vector, shifted;
  MPI_Type_vector(2, 1, 2, MPI_INT, &vector);                    /* ints 0 and 2 */
  MPI_Type_create_resized(vector, 0, 2 * sizeof(int), &shifted); /* the next element starts at int 2 */
  MPI_Type_commit(&shifted);
  int buf[8];
  MPI_Request recv = MPI_REQUEST_NULL;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rc = MPI_Precv_init(buf, 2, 1, shifted, left, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &recv);
  int cls = -1;
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_TYPE && recv == MPI_REQUEST_NULL, "overlapping partitions: class %d", cls);
  rc = MPI_Precv_init(buf, 1, 1, shifted, left, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &recv);
  CHECK(rc == MPI_SUCCESS, "one partition of one element: rc %d", rc);
  if (rc == MPI_SUCCESS) MPI_Request_free(&recv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Type_free(&shifted);
  MPI_Type_free(&vector);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_rank = rank;
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  seed = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
  if (rank == 0) printf("partitioned_types: seed %u\n", seed);
  seed += (unsigned)rank;
  for (int how = ONE_BY_ONE; how <= LIST; ++how) {
    strided_cases(64, 2, 8, 8, how); /* MPICH's parrived_strided configurations */
    strided_cases(64, 4, 8, 8, how);
    strided_cases(64, 8, 8, 8, how);
    strided_cases(1122, 2, 17, 33, how);
    strided_cases(1122, 2, 33, 17, how);
    strided_cases(131072, 2, 4, 8, how); /* 1 MiB of doubles: rendezvous partitions */
    strided_cases(131072, 4, 8, 2, how);
    long_run_cases(4, 8, how);
    long_run_cases(8, 2, how);
    strided_dense_cases(1200, 2, 4, how);
    struct_cases(how);
    indexed_cases(how);
  }
  sender_ahead(1122, 2, 17, 33);
  sender_ahead(1122, 2, 33, 17);
  overlapping_receive();
  int rc = check_report("partitioned_types");
  MPI_Finalize();
  return rc;
}
