/* coll_ops: MPI_Bcast, MPI_Reduce and MPI_Allreduce with every root,
 * several ops and types, small and large counts (eager and rendezvous
 * paths), MPI_IN_PLACE, on MPI_COMM_WORLD and MPI_COMM_SELF; Alltoall and
 * Allgather with each rank's own layouts. Every result
 * is checked exactly; each rank prints "coll_ops: rank R OK" or FAIL lines. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures, checks;

#define CHECK(cond, ...)                                   \
  do {                                                     \
    ++checks;                                              \
    if (!(cond) && failures++ < 10) {                      \
      printf("coll_ops: FAIL rank %d: ", rank);            \
      printf(__VA_ARGS__);                                 \
      printf("\n");                                        \
    }                                                      \
  } while (0)

/* Contribution of rank r to element i. */
static int ival(int r, int i) { return (r * 7 + i * 3) % 101 - 50; }

static void test_bcast(int count) {
  int *buf = malloc(sizeof(int) * (size_t)count);
  double *dbuf = malloc(sizeof(double) * (size_t)count);
  for (int root = 0; root < size; ++root) {
    for (int i = 0; i < count; ++i) {
      buf[i] = rank == root ? ival(root, i) : -999;
      dbuf[i] = rank == root ? 0.25 * i + root : -1.0;
    }
    MPI_Bcast(buf, count, MPI_INT, root, MPI_COMM_WORLD);
    MPI_Bcast(dbuf, count, MPI_DOUBLE, root, MPI_COMM_WORLD);
    int bad = -1;
    for (int i = 0; i < count && bad < 0; ++i)
      if (buf[i] != ival(root, i) || dbuf[i] != 0.25 * i + root) bad = i;
    CHECK(bad < 0, "bcast count %d root %d element %d", count, root, bad);
  }
  free(buf);
  free(dbuf);
}

static long long expect_int(MPI_Op op, int i) {
  long long acc = ival(0, i);
  for (int r = 1; r < size; ++r) {
    long long v = ival(r, i);
    if (op == MPI_SUM) acc += v;
    if (op == MPI_MAX) acc = v > acc ? v : acc;
    if (op == MPI_MIN) acc = v < acc ? v : acc;
    if (op == MPI_LAND) acc = acc && v;
    if (op == MPI_LOR) acc = acc || v;
  }
  /* With one rank nothing is combined: the contribution comes back as is. */
  if ((op == MPI_LAND || op == MPI_LOR) && size > 1) acc = acc != 0;
  return acc;
}

static unsigned expect_bits(MPI_Op op, int i) {
  unsigned acc = 0x9e3779b9u ^ (unsigned)i;
  for (int r = 1; r < size; ++r) {
    unsigned v = 0x9e3779b9u * (unsigned)(r + 1) ^ (unsigned)i;
    if (op == MPI_BAND) acc &= v;
    if (op == MPI_BOR) acc |= v;
    if (op == MPI_BXOR) acc ^= v;
  }
  return acc;
}

/* One reduction of `count` elements; root < 0 means MPI_Allreduce. */
static void reduce_int(MPI_Op op, const char *name, int count, int root, int in_place) {
  int *send = malloc(sizeof(int) * (size_t)count), *recv = malloc(sizeof(int) * (size_t)count);
  for (int i = 0; i < count; ++i) {
    send[i] = ival(rank, i);
    recv[i] = in_place ? send[i] : -12345;
  }
  const void *s = in_place && (root < 0 || rank == root) ? MPI_IN_PLACE : send;
  if (root < 0)
    MPI_Allreduce(s, recv, count, MPI_INT, op, MPI_COMM_WORLD);
  else
    MPI_Reduce(s, recv, count, MPI_INT, op, root, MPI_COMM_WORLD);
  if (root < 0 || rank == root) {
    int bad = -1;
    for (int i = 0; i < count && bad < 0; ++i)
      if (recv[i] != expect_int(op, i)) bad = i;
    CHECK(bad < 0, "%s MPI_INT %s count %d root %d in_place %d element %d got %d want %lld",
          root < 0 ? "allreduce" : "reduce", name, count, root, in_place, bad, bad < 0 ? 0 : recv[bad],
          bad < 0 ? 0 : expect_int(op, bad));
  } else {
    CHECK(recv[0] == (in_place ? send[0] : -12345), "reduce touched recvbuf at non-root");
  }
  free(send);
  free(recv);
}

static void reduce_unsigned(MPI_Op op, const char *name, int count, int root) {
  unsigned *send = malloc(sizeof(unsigned) * (size_t)count), *recv = malloc(sizeof(unsigned) * (size_t)count);
  for (int i = 0; i < count; ++i) send[i] = 0x9e3779b9u * (unsigned)(rank + 1) ^ (unsigned)i;
  if (root < 0)
    MPI_Allreduce(send, recv, count, MPI_UNSIGNED, op, MPI_COMM_WORLD);
  else
    MPI_Reduce(send, recv, count, MPI_UNSIGNED, op, root, MPI_COMM_WORLD);
  if (root < 0 || rank == root) {
    int bad = -1;
    for (int i = 0; i < count && bad < 0; ++i)
      if (recv[i] != expect_bits(op, i)) bad = i;
    CHECK(bad < 0, "%s MPI_UNSIGNED %s root %d element %d", root < 0 ? "allreduce" : "reduce", name, root, bad);
  }
  free(send);
  free(recv);
}

/* Doubles whose sums and products are exact. */
static void reduce_double(MPI_Op op, const char *name, int count, int root) {
  double *send = malloc(sizeof(double) * (size_t)count), *recv = malloc(sizeof(double) * (size_t)count);
  for (int i = 0; i < count; ++i) send[i] = op == MPI_PROD ? (i % 3 == rank % 3 ? 2.0 : 0.5) : rank + 0.25 * i;
  if (root < 0)
    MPI_Allreduce(send, recv, count, MPI_DOUBLE, op, MPI_COMM_WORLD);
  else
    MPI_Reduce(send, recv, count, MPI_DOUBLE, op, root, MPI_COMM_WORLD);
  if (root < 0 || rank == root) {
    int bad = -1;
    for (int i = 0; i < count && bad < 0; ++i) {
      double want = op == MPI_MIN ? 0.25 * i : op == MPI_MAX ? size - 1 + 0.25 * i : 0;
      if (op == MPI_SUM) want = size * (size - 1) / 2.0 + size * 0.25 * i;
      if (op == MPI_PROD) {
        want = 1.0;
        for (int r = 0; r < size; ++r) want *= i % 3 == r % 3 ? 2.0 : 0.5;
      }
      if (recv[i] != want) bad = i;
    }
    CHECK(bad < 0, "%s MPI_DOUBLE %s root %d element %d", root < 0 ? "allreduce" : "reduce", name, root, bad);
  }
  free(send);
  free(recv);
}

/* MAXLOC / MINLOC on MPI_2INT and MPI_DOUBLE_INT; ties go to the lower index. */
static void reduce_loc(int root) {
  struct { int v, i; } s2[3], r2[3];
  struct { double v; int i; } sd[2], rd[2];
  for (int k = 0; k < 3; ++k) s2[k].i = rank;
  s2[0].v = rank;           /* max at size-1, min at 0 */
  s2[1].v = 7;              /* all equal: lowest index 0 */
  s2[2].v = rank % 2;       /* max at 1 (if size > 1) */
  sd[0].v = -rank * 1.5; sd[0].i = rank;
  sd[1].v = 3.0; sd[1].i = 100 + rank;
  if (root < 0) {
    MPI_Allreduce(s2, r2, 3, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
    MPI_Allreduce(sd, rd, 2, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD);
  } else {
    MPI_Reduce(s2, r2, 3, MPI_2INT, MPI_MAXLOC, root, MPI_COMM_WORLD);
    MPI_Reduce(sd, rd, 2, MPI_DOUBLE_INT, MPI_MINLOC, root, MPI_COMM_WORLD);
  }
  if (root < 0 || rank == root) {
    CHECK(r2[0].v == size - 1 && r2[0].i == size - 1, "maxloc[0] = (%d,%d)", r2[0].v, r2[0].i);
    CHECK(r2[1].v == 7 && r2[1].i == 0, "maxloc tie = (%d,%d)", r2[1].v, r2[1].i);
    CHECK(r2[2].v == (size > 1) && r2[2].i == (size > 1), "maxloc[2] = (%d,%d)", r2[2].v, r2[2].i);
    CHECK(rd[0].v == -(size - 1) * 1.5 && rd[0].i == size - 1, "minloc[0] = (%g,%d)", rd[0].v, rd[0].i);
    CHECK(rd[1].v == 3.0 && rd[1].i == 100, "minloc tie = (%g,%d)", rd[1].v, rd[1].i);
  }
}

static void test_reductions(int count) {
  static const struct { MPI_Op op; const char *name; } int_ops[] = {
      {MPI_SUM, "MPI_SUM"}, {MPI_MAX, "MPI_MAX"}, {MPI_MIN, "MPI_MIN"}, {MPI_LAND, "MPI_LAND"}, {MPI_LOR, "MPI_LOR"}};
  static const struct { MPI_Op op; const char *name; } bit_ops[] = {
      {MPI_BAND, "MPI_BAND"}, {MPI_BOR, "MPI_BOR"}, {MPI_BXOR, "MPI_BXOR"}};
  static const struct { MPI_Op op; const char *name; } fp_ops[] = {
      {MPI_SUM, "MPI_SUM"}, {MPI_PROD, "MPI_PROD"}, {MPI_MAX, "MPI_MAX"}, {MPI_MIN, "MPI_MIN"}};
  for (int root = -1; root < size; ++root) {
    for (size_t k = 0; k < sizeof int_ops / sizeof int_ops[0]; ++k) {
      reduce_int(int_ops[k].op, int_ops[k].name, count, root, 0);
      reduce_int(int_ops[k].op, int_ops[k].name, count, root, 1);
    }
    for (size_t k = 0; k < sizeof bit_ops / sizeof bit_ops[0]; ++k)
      reduce_unsigned(bit_ops[k].op, bit_ops[k].name, count, root);
    for (size_t k = 0; k < sizeof fp_ops / sizeof fp_ops[0]; ++k)
      reduce_double(fp_ops[k].op, fp_ops[k].name, count, root);
    reduce_loc(root);
  }
}

/* Allreduce of every other int (a vector type with gaps): reduced packed,
 * large enough for the halving algorithm; the gaps must stay untouched. */
static void reduce_strided(int count) {
  MPI_Datatype every_other;
  MPI_Type_vector(count, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  int *send = malloc(sizeof(int) * 2 * (size_t)count), *recv = malloc(sizeof(int) * 2 * (size_t)count);
  for (int i = 0; i < 2 * count; ++i) {
    send[i] = ival(rank, i / 2);
    recv[i] = -777;
  }
  for (int in_place = 0; in_place < 2; ++in_place) {
    if (in_place) memcpy(recv, send, sizeof(int) * 2 * (size_t)count);
    MPI_Allreduce(in_place ? MPI_IN_PLACE : send, recv, 1, every_other, MPI_SUM, MPI_COMM_WORLD);
    int bad = -1;
    for (int i = 0; i < 2 * count && bad < 0; ++i) {
      const long long want = i % 2 == 0 ? expect_int(MPI_SUM, i / 2) : in_place ? send[i] : -777;
      if (recv[i] != want) bad = i;
    }
    CHECK(bad < 0, "allreduce of a strided type, %d ints, in_place %d: int %d", count, in_place, bad);
    for (int i = 0; i < 2 * count; ++i) recv[i] = -777;
  }
  MPI_Type_free(&every_other);
  free(send);
  free(recv);
}

/* Alltoall with blocks of `count` ints: up to 1 MiB blocks go in one
 * round, larger ones pairwise (runtime/coll_alltoall.cpp). */
static void test_alltoall(int count) {
  const size_t n = (size_t)count * (size_t)size;
  int *send = malloc(sizeof(int) * n), *recv = malloc(sizeof(int) * n);
  for (int to = 0; to < size; ++to)
    for (int i = 0; i < count; ++i) {
      send[(size_t)to * (size_t)count + (size_t)i] = rank * 1000003 + to * 7919 + i;
      recv[(size_t)to * (size_t)count + (size_t)i] = -1;
    }
  MPI_Alltoall(send, count, MPI_INT, recv, count, MPI_INT, MPI_COMM_WORLD);
  long bad = -1;
  for (int from = 0; from < size && bad < 0; ++from)
    for (int i = 0; i < count && bad < 0; ++i)
      if (recv[(size_t)from * (size_t)count + (size_t)i] != from * 1000003 + rank * 7919 + i)
        bad = (long)from * count + i;
  CHECK(bad < 0, "alltoall of %d ints per block: int %ld", count, bad);
  free(send);
  free(recv);
}

/* One int every 8 bytes: the same type signature as MPI_INT, not contiguous. */
static MPI_Datatype spaced_int(void) {
  MPI_Datatype t;
  MPI_Type_create_resized(MPI_INT, 0, 2 * (MPI_Aint)sizeof(int), &t);
  MPI_Type_commit(&t);
  return t;
}

/* Alltoall and Allgather of `count` ints a block where each side of each
 * rank lays them out its own way (plain, or one int every 8 bytes, whose
 * gaps must keep their fill): ranks that take a contiguous fast path and
 * ranks that take the general one must still meet (runtime/api_coll_*.cpp).
 * Bit 0 of `spaced` spaces the send side, bit 1 the receive side. */
static void test_mixed_layouts(int count, int spaced) {
  const MPI_Datatype t = spaced_int();
  const int send_step = (spaced & 1) ? 2 : 1, recv_step = (spaced & 2) ? 2 : 1;
  const size_t n = (size_t)count * (size_t)size;
  int *send = malloc(sizeof(int) * 2 * n), *recv = malloc(sizeof(int) * 2 * n);
  for (int pass = 0; pass < 2; ++pass) {
    const int gather = pass == 1; /* Allgather sends block 0 to everyone */
    for (size_t k = 0; k < 2 * n; ++k) send[k] = recv[k] = -7;
    for (int to = 0; to < size; ++to)
      for (int i = 0; i < count; ++i)
        send[((size_t)to * (size_t)count + (size_t)i) * (size_t)send_step] =
            rank * 1000003 + (gather ? 0 : to) * 7919 + i;
    const MPI_Datatype st = send_step == 2 ? t : MPI_INT, rt = recv_step == 2 ? t : MPI_INT;
    if (gather)
      MPI_Allgather(send, count, st, recv, count, rt, MPI_COMM_WORLD);
    else
      MPI_Alltoall(send, count, st, recv, count, rt, MPI_COMM_WORLD);
    long bad = -1;
    for (size_t k = 0; k < 2 * n && bad < 0; ++k) {
      const size_t element = k / (size_t)recv_step;
      const int from = (int)(element / (size_t)count), i = (int)(element % (size_t)count);
      const int expected = k % (size_t)recv_step != 0 || k >= n * (size_t)recv_step
                               ? -7
                               : from * 1000003 + (gather ? 0 : rank) * 7919 + i;
      if (recv[k] != expected) bad = (long)k;
    }
    CHECK(bad < 0, "%s of %d ints a block, layouts %d on rank %d: int %ld is %d", gather ? "allgather" : "alltoall",
          count, spaced, rank, bad, bad < 0 ? 0 : recv[bad]);
  }
  MPI_Type_free((MPI_Datatype *)&t);
  free(send);
  free(recv);
}

static void test_self(void) {
  int v = rank + 5, out = 0;
  MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_SELF);
  MPI_Reduce(&v, &out, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_SELF);
  CHECK(out == rank + 5, "reduce on MPI_COMM_SELF gave %d", out);
  out = 0;
  MPI_Allreduce(&v, &out, 1, MPI_INT, MPI_PROD, MPI_COMM_SELF);
  CHECK(out == rank + 5, "allreduce on MPI_COMM_SELF gave %d", out);
  MPI_Barrier(MPI_COMM_SELF);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* 70000 ints: rendezvous; 16383 / 16384 / 16387 ints: either side of the
   * 64 KiB from which allreduce halves and doubles (runtime/coll_reduce.cpp),
   * 16387 in blocks of unequal sizes; 4095 / 4097 ints: either side of the
   * 16 KiB from which two ranks each combine half (kPairHalvesFrom), 4097
   * in unequal halves. */
  const int counts[] = {1, 7, 1000, 4095, 4097, 16383, 16384, 16387, 70000};
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
    test_bcast(counts[c]);
    test_reductions(counts[c]);
  }
  reduce_strided(16387);
  reduce_strided(1000);
  test_alltoall(262144);     /* 1 MiB blocks: one round */
  test_alltoall(262144 + 3); /* just above: pairwise */
  for (int spaced = 0; spaced < 4; ++spaced) {
    /* odd ranks lay out their sides as `spaced` says, even ranks plainly */
    test_mixed_layouts(5, rank % 2 ? spaced : 0);
    test_mixed_layouts(5, rank % 2 ? 0 : spaced);
  }
  test_self();
  MPI_Barrier(MPI_COMM_WORLD);
  if (failures == 0) printf("coll_ops: rank %d OK (%d checks)\n", rank, checks);
  MPI_Finalize();
  return failures != 0;
}
