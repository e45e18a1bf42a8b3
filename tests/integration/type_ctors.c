/* type_ctors: non-contiguous datatypes in point-to-point and collectives.
 * Every constructor (vector column, indexed, struct with gaps, subarray,
 * darray, resized, hvector of indexed_block, unaligned hindexed, dup of
 * hindexed_block; contiguous of several) is sent at packed sizes across the
 * protocol boundaries (fast box, eager, pipelined, rendezvous, split) with
 * each send mode, received through the same type and as plain bytes, and
 * checked byte for byte against MPI_Pack/MPI_Unpack of the same pattern
 * (bytes outside the type must stay untouched). Also truncation,
 * Get_count/Get_elements, Sendrecv_replace, Mprobe/Mrecv, Bcast and
 * Allreduce (refused for now), and the errors with MPI_ERRORS_RETURN.
 * Run with 2+ ranks; prints "type_ctors: rank R OK". */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { kKinds = 9 };
static const char *kNames[kKinds] = {"vector",  "indexed", "struct",    "subarray", "darray",
                                     "resized", "nested",  "hindexed", "dup"};

/* A type of kind `k` scaled by `n` (about n doubles of data) and the bytes
 * of user buffer one element spans (from offset 0). */
static MPI_Datatype make_type(int k, int n, MPI_Aint *span) {
  MPI_Datatype t, inner;
  switch (k) {
    case 0: /* column of an n x 3 matrix of doubles */
      MPI_Type_vector(n, 1, 3, MPI_DOUBLE, &t);
      break;
    case 1: { /* n blocks of 1..3 ints with gaps */
      int *len = malloc(sizeof(int) * n), *disp = malloc(sizeof(int) * n);
      for (int i = 0; i < n; ++i) len[i] = 1 + i % 3, disp[i] = 5 * i;
      MPI_Type_indexed(n, len, disp, MPI_INT, &t);
      free(len), free(disp);
      break;
    }
    case 2: { /* struct { char c; double d[2]; short s; } x n */
      int len[3] = {1, 2, 1};
      MPI_Aint disp[3] = {0, 8, 24};
      MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_SHORT};
      MPI_Type_create_struct(3, len, disp, types, &inner);
      MPI_Type_contiguous(n, inner, &t);
      MPI_Type_free(&inner);
      break;
    }
    case 3: { /* middle of an (n+2) x 4 array of doubles */
      int sizes[2] = {n + 2, 4}, sub[2] = {n, 2}, starts[2] = {1, 1};
      MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_DOUBLE, &t);
      break;
    }
    case 4: { /* process 1 of a 2 x 2 grid, (BLOCK, CYCLIC(2)) of a 2n x 8 array of floats */
      int g[2] = {2 * n, 8}, d[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
          a[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, p[2] = {2, 2};
      MPI_Type_create_darray(4, 1, 2, g, d, a, p, MPI_ORDER_C, MPI_FLOAT, &t);
      break;
    }
    case 5: { /* n 2 x 4 matrices of doubles, columns 0..2 of each: a
               * column (vector) resized to one double so 3 of them
               * interleave, resized again to the whole matrix so the
               * matrices follow each other without overlapping */
      MPI_Datatype col, three, block;
      MPI_Type_vector(2, 1, 4, MPI_DOUBLE, &inner);
      MPI_Type_create_resized(inner, 0, sizeof(double), &col);
      MPI_Type_contiguous(3, col, &three);
      MPI_Type_create_resized(three, 0, 8 * sizeof(double), &block);
      MPI_Type_contiguous(n, block, &t);
      MPI_Type_free(&inner), MPI_Type_free(&col), MPI_Type_free(&three), MPI_Type_free(&block);
      break;
    }
    case 6: { /* hvector of indexed_block of vectors */
      MPI_Datatype v, ib;
      int disp[2] = {0, 3};
      MPI_Type_vector(2, 1, 2, MPI_INT, &v);
      MPI_Type_create_indexed_block(2, 1, disp, v, &ib);
      MPI_Type_create_hvector(n, 1, 64, ib, &t);
      MPI_Type_free(&v), MPI_Type_free(&ib);
      break;
    }
    case 7: { /* n blocks of 1..4 shorts at odd byte displacements */
      int *len = malloc(sizeof(int) * n);
      MPI_Aint *disp = malloc(sizeof(MPI_Aint) * n);
      for (int i = 0; i < n; ++i) len[i] = 1 + i % 4, disp[i] = 11 * (MPI_Aint)i + 1;
      MPI_Type_create_hindexed(n, len, disp, MPI_SHORT, &t);
      free(len), free(disp);
      break;
    }
    default: { /* a dup of n blocks of 3 floats in reverse memory order: the
               * wire follows the type map, not the addresses */
      MPI_Aint *disp = malloc(sizeof(MPI_Aint) * n);
      for (int i = 0; i < n; ++i) disp[i] = 16 * (MPI_Aint)(n - 1 - i);
      MPI_Type_create_hindexed_block(n, 3, disp, MPI_FLOAT, &inner);
      MPI_Type_dup(inner, &t);
      MPI_Type_free(&inner);
      free(disp);
      break;
    }
  }
  MPI_Type_commit(&t);
  MPI_Aint lb, extent, tlb, textent;
  MPI_Type_get_extent(t, &lb, &extent);
  MPI_Type_get_true_extent(t, &tlb, &textent);
  *span = tlb + textent > lb + extent ? tlb + textent : lb + extent;
  return t;
}

/* What the receiver must hold: `pattern` packed and unpacked over 0xEE. */
static void expected_of(MPI_Datatype t, int count, const unsigned char *pattern, unsigned char *out, size_t bytes) {
  int packed = 0, pos = 0;
  MPI_Pack_size(count, t, MPI_COMM_WORLD, &packed);
  unsigned char *tmp = malloc(packed + 1);
  MPI_Pack(pattern, count, t, tmp, packed, &pos, MPI_COMM_WORLD);
  memset(out, 0xEE, bytes);
  pos = 0;
  MPI_Unpack(tmp, packed, &pos, out, count, t, MPI_COMM_WORLD);
  free(tmp);
}

static void exchange_case(int rank, int k, int n, int mode) {
  MPI_Aint span;
  MPI_Datatype t = make_type(k, n, &span);
  const int count = 2, size_bytes = (int)(span * count + 64);
  int packed = 0;
  MPI_Pack_size(count, t, MPI_COMM_WORLD, &packed);
  unsigned char *pattern = malloc(size_bytes), *buf = malloc(size_bytes), *want = malloc(size_bytes);
  fill_pattern(pattern, size_bytes, k * 100 + n + mode);
  if (rank == 0) {
    memcpy(buf, pattern, size_bytes);
    MPI_Request req;
    if (mode == 0) MPI_Send(buf, count, t, 1, k, MPI_COMM_WORLD);
    if (mode == 1) MPI_Ssend(buf, count, t, 1, k, MPI_COMM_WORLD);
    if (mode == 2) MPI_Isend(buf, count, t, 1, k, MPI_COMM_WORLD, &req), MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (mode == 3) MPI_Send(buf, count, t, 1, k, MPI_COMM_WORLD); /* received as bytes */
  } else if (rank == 1) {
    MPI_Status st;
    memset(buf, 0xEE, size_bytes);
    if (mode == 3) {
      unsigned char *packed_bytes = malloc(packed + 1);
      int pos = 0;
      MPI_Recv(buf, packed, MPI_BYTE, 0, k, MPI_COMM_WORLD, &st);
      MPI_Pack(pattern, count, t, packed_bytes, packed, &pos, MPI_COMM_WORLD);
      CHECK(memcmp(buf, packed_bytes, packed) == 0, "%s n=%d: wire bytes differ from MPI_Pack", kNames[k], n);
      free(packed_bytes);
    } else {
      MPI_Request req;
      if (mode == 2) MPI_Irecv(buf, count, t, 0, k, MPI_COMM_WORLD, &req), MPI_Wait(&req, &st);
      else MPI_Recv(buf, count, t, 0, k, MPI_COMM_WORLD, &st);
      expected_of(t, count, pattern, want, size_bytes);
      CHECK(memcmp(buf, want, size_bytes) == 0, "%s n=%d mode %d: received bytes differ", kNames[k], n, mode);
      int got = -1, elements = -1, size = 0;
      MPI_Get_count(&st, t, &got);
      MPI_Get_elements(&st, t, &elements);
      MPI_Type_size(t, &size);
      CHECK(got == count, "%s n=%d: MPI_Get_count %d", kNames[k], n, got);
      CHECK(elements > 0 && elements != MPI_UNDEFINED, "%s n=%d: MPI_Get_elements %d", kNames[k], n, elements);
    }
  }
  free(pattern), free(buf), free(want);
  MPI_Type_free(&t);
}

/* A message one element short of the type: truncation, nothing beyond. */
static void truncation(int rank) {
  MPI_Datatype col;
  MPI_Type_vector(100, 1, 3, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  double a[600];
  for (int i = 0; i < 600; ++i) a[i] = i;
  if (rank == 0) MPI_Send(a, 2, col, 1, 50, MPI_COMM_WORLD);
  if (rank == 1) {
    double b[600];
    for (int i = 0; i < 600; ++i) b[i] = -1;
    MPI_Status st;
    int err = MPI_Recv(b, 1, col, 0, 50, MPI_COMM_WORLD, &st);
    CHECK(err == MPI_ERR_TRUNCATE, "truncated receive returned %d", err);
    CHECK(b[0] == 0 && b[3] == 3 && b[297] == 297 && b[1] == -1 && b[300] == -1, "truncated receive filled wrongly");
  }
  MPI_Type_free(&col);
}

/* Sendrecv_replace of a column (every other int) between rank pairs, then
 * Mprobe/Mrecv of 30 plain ints from rank 0 into the column (a partial
 * element): every byte of both buffers is checked. */
static void replace_and_mrecv(int rank, int size, MPI_Datatype col) {
  int a[100], peer = rank ^ 1;
  for (int i = 0; i < 100; ++i) a[i] = rank * 1000 + i;
  if (peer < size) {
    MPI_Sendrecv_replace(a, 1, col, peer, 7, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int bad = 0;
    for (int i = 0; i < 100; ++i) bad += a[i] != (i % 2 == 0 ? peer : rank) * 1000 + i;
    CHECK(bad == 0, "Sendrecv_replace: %d ints wrong", bad);
  }
  if (rank == 0) MPI_Send(a, 30, MPI_INT, 1, 8, MPI_COMM_WORLD);
  if (rank == 1) {
    MPI_Message m;
    MPI_Status st;
    int b[100], elements = -1, count = -1, bad = 0;
    memset(b, 0, sizeof b);
    MPI_Mprobe(0, 8, MPI_COMM_WORLD, &m, &st);
    MPI_Mrecv(b, 1, col, &m, &st);
    MPI_Get_elements(&st, col, &elements);
    MPI_Get_count(&st, col, &count);
    CHECK(elements == 30 && count == MPI_UNDEFINED, "Mrecv elements %d count %d", elements, count);
    /* Rank 0's int j after its Sendrecv_replace with rank 1. */
    for (int j = 0; j < 30; ++j) bad += b[2 * j] != (j % 2 == 0 ? 1000 + j : j) || b[2 * j + 1] != 0;
    for (int i = 60; i < 100; ++i) bad += b[i] != 0;
    CHECK(bad == 0, "Mrecv into a column: %d ints wrong", bad);
  }
}

/* Bcast and Allreduce over a column: exact in the column, the ints
 * between its elements untouched. */
static void collectives(int rank, int size, MPI_Datatype col) {
  int a[100], s[100], r[100], bad = 0;
  for (int i = 0; i < 100; ++i) a[i] = rank == 0 ? i : -1;
  int err = MPI_Bcast(a, 1, col, 0, MPI_COMM_WORLD);
  for (int i = 0; i < 100; ++i) bad += a[i] != (rank == 0 || i % 2 == 0 ? i : -1);
  CHECK(err == MPI_SUCCESS && bad == 0, "Bcast over a column: error %d, %d ints wrong", err, bad);
  for (int i = 0; i < 100; ++i) s[i] = i, r[i] = -7;
  err = MPI_Allreduce(s, r, 1, col, MPI_SUM, MPI_COMM_WORLD);
  bad = 0;
  for (int i = 0; i < 100; ++i) bad += r[i] != (i % 2 == 0 ? i * size : -7);
  CHECK(err == MPI_SUCCESS && bad == 0, "Allreduce over a column: error %d, %d ints wrong", err, bad);
}

/* The root gathers each rank's 4 doubles into a column of a 4 x size
 * matrix (a vector resized to one double, so rank i's column starts i
 * doubles in) while every rank sends 4 contiguous MPI_DOUBLEs: the type
 * signatures match, the type maps do not. Then back with Scatter. */
static void gather_columns(int rank, int size) {
  MPI_Datatype vec, col;
  MPI_Type_vector(4, 1, size, MPI_DOUBLE, &vec);
  MPI_Type_create_resized(vec, 0, sizeof(double), &col);
  MPI_Type_commit(&col);
  double mine[4], m[4 * 64], back[4];
  for (int j = 0; j < 4; ++j) mine[j] = 100.0 * rank + j;
  for (int i = 0; i < 4 * size; ++i) m[i] = -1;
  int err = MPI_Gather(mine, 4, MPI_DOUBLE, m, 1, col, 0, MPI_COMM_WORLD);
  int bad = 0;
  if (rank == 0)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < size; ++i) bad += m[j * size + i] != 100.0 * i + j;
  CHECK(err == MPI_SUCCESS && bad == 0, "Gather into columns: error %d, %d doubles wrong", err, bad);
  for (int j = 0; j < 4; ++j) back[j] = -1;
  err = MPI_Scatter(m, 1, col, back, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  bad = 0;
  for (int j = 0; j < 4; ++j) bad += back[j] != 100.0 * rank + j;
  CHECK(err == MPI_SUCCESS && bad == 0, "Scatter of columns: error %d, %d doubles wrong", err, bad);
  MPI_Type_free(&vec);
  MPI_Type_free(&col);
}

static void more_calls(int rank, int size) {
  MPI_Datatype col;
  MPI_Type_vector(50, 1, 2, MPI_INT, &col);
  MPI_Type_commit(&col);
  replace_and_mrecv(rank, size, col);
  collectives(rank, size, col);
  MPI_Type_free(&col);
  if (size <= 64) gather_columns(rank, size);
}

/* A struct of absolute addresses (MPI_Get_address) travels from and to
 * MPI_BOTTOM, which is a null pointer: sends, receives and MPI_Pack take
 * it with a derived type. MPI_DATATYPE_NULL with count 0 is an empty
 * message. */
static void absolute_addresses(int rank) {
  int i = rank == 0 ? 42 : -1;
  double d = rank == 0 ? 2.5 : -1.0;
  MPI_Aint at[2];
  MPI_Get_address(&i, &at[0]);
  MPI_Get_address(&d, &at[1]);
  int lengths[2] = {1, 1};
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, t;
  MPI_Type_create_struct(2, lengths, at, types, &t);
  MPI_Type_commit(&t);
  char packed[64];
  int position = 0;
  int err = MPI_Pack(MPI_BOTTOM, 1, t, packed, sizeof packed, &position, MPI_COMM_WORLD);
  CHECK(err == MPI_SUCCESS && position == (int)(sizeof(int) + sizeof(double)), "Pack from MPI_BOTTOM: error %d", err);
  if (rank == 0) {
    err = MPI_Send(MPI_BOTTOM, 1, t, 1, 31, MPI_COMM_WORLD);
    CHECK(err == MPI_SUCCESS, "Send from MPI_BOTTOM returned %d", err);
    err = MPI_Send(NULL, 0, MPI_DATATYPE_NULL, 1, 32, MPI_COMM_WORLD);
    CHECK(err == MPI_SUCCESS, "Send of 0 MPI_DATATYPE_NULL returned %d", err);
  } else if (rank == 1) {
    MPI_Status status;
    err = MPI_Recv(MPI_BOTTOM, 1, t, 0, 31, MPI_COMM_WORLD, &status);
    CHECK(err == MPI_SUCCESS && i == 42 && d == 2.5, "Recv into MPI_BOTTOM: error %d, got %d %g", err, i, d);
    err = MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, 0, 32, MPI_COMM_WORLD, &status);
    int count = -1;
    MPI_Get_count(&status, MPI_BYTE, &count);
    CHECK(err == MPI_SUCCESS && count == 0, "Recv of 0 MPI_DATATYPE_NULL: error %d, count %d", err, count);
  }
  err = MPI_Send(NULL, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  CHECK(err == MPI_ERR_BUFFER, "null buffer with a predefined type returned %d", err);
  MPI_Type_free(&t);
}

/* Collectives keep refusing what point-to-point refuses: uncommitted and
 * freed types, and receive types that place two elements on the same
 * bytes. Every rank makes the same calls, so none is left waiting. */
static void collective_errors(void) {
  MPI_Datatype t, freed;
  int x[16] = {0}, y[16] = {0}, err;
  MPI_Type_vector(2, 1, 2, MPI_INT, &t);
  err = MPI_Bcast(x, 1, t, 0, MPI_COMM_WORLD);
  CHECK(err == MPI_ERR_TYPE, "Bcast with an uncommitted type returned %d", err);
  err = MPI_Allreduce(x, y, 1, t, MPI_SUM, MPI_COMM_WORLD);
  CHECK(err == MPI_ERR_TYPE, "Allreduce with an uncommitted type returned %d", err);
  MPI_Type_commit(&t);
  freed = t;
  MPI_Type_free(&t);
  err = MPI_Allgather(x, 1, freed, y, 1, MPI_INT, MPI_COMM_WORLD);
  CHECK(err == MPI_ERR_TYPE, "Allgather with a freed type returned %d", err);
  MPI_Type_create_hvector(2, 1, 0, MPI_INT, &t); /* the same int twice */
  MPI_Type_commit(&t);
  err = MPI_Allreduce(x, y, 1, t, MPI_SUM, MPI_COMM_WORLD);
  CHECK(err == MPI_ERR_TYPE, "Allreduce into an overlapping type returned %d", err);
  MPI_Request r = MPI_REQUEST_NULL;
  err = MPI_Ialltoall(x, 2, MPI_INT, y, 1, t, MPI_COMM_WORLD, &r);
  CHECK(err == MPI_ERR_TYPE && r == MPI_REQUEST_NULL, "Ialltoall into an overlapping type returned %d", err);
  /* Sending from one is fine: the int goes twice. */
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  err = MPI_Allgather(x, 1, t, y, 2, MPI_INT, MPI_COMM_SELF);
  CHECK(err == MPI_SUCCESS, "Allgather from an overlapping type returned %d", err);
  MPI_Type_free(&t);
}

static void errors(int rank) {
  MPI_Datatype t, freed;
  int x[16] = {0}, err;
  MPI_Type_vector(2, 1, 2, MPI_INT, &t);
  err = MPI_Send(x, 1, t, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  CHECK(err == MPI_ERR_TYPE, "uncommitted send returned %d", err);
  MPI_Type_commit(&t);
  freed = t;
  MPI_Type_free(&t);
  err = MPI_Send(x, 1, freed, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  CHECK(err == MPI_ERR_TYPE, "send with a freed type returned %d", err);
  /* 2^53 bytes is a valid type; 2^30 of them overflow any byte count
   * (a type of 2^63 bytes would already fail in its constructor). */
  MPI_Datatype huge, vast;
  MPI_Type_contiguous(1 << 30, MPI_DOUBLE, &huge);
  MPI_Type_contiguous(1 << 20, huge, &vast);
  MPI_Type_commit(&vast);
  err = MPI_Send(x, 1 << 30, vast, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  CHECK(err == MPI_ERR_COUNT, "overflowing count returned %d", err);
  MPI_Type_free(&huge), MPI_Type_free(&vast);
  MPI_Type_create_hvector(2, 1, 0, MPI_INT, &t); /* the same int twice */
  MPI_Type_commit(&t);
  err = MPI_Recv(x, 1, t, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(err == MPI_ERR_TYPE, "receive into an overlapping type returned %d", err);
  MPI_Type_free(&t);
  (void)rank;
}

int main(int argc, char **argv) {
  int size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  /* Packed sizes from a few bytes (fast box) through eager, pipelined and
   * rendezvous to above the split threshold. */
  static const int kScales[] = {1, 2, 40, 300, 700, 3000, 12000};
  if (size >= 2) {
    for (int k = 0; k < kKinds; ++k)
      for (unsigned s = 0; s < sizeof kScales / sizeof kScales[0]; ++s)
        for (int mode = 0; mode < 4; ++mode) exchange_case(check_rank, k, kScales[s], mode);
    truncation(check_rank);
  }
  absolute_addresses(check_rank);
  more_calls(check_rank, size);
  errors(check_rank);
  collective_errors();
  int rc = check_report("type_ctors");
  MPI_Finalize();
  return rc;
}
