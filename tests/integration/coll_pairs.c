/* coll_pairs: MPI_MAXLOC / MPI_MINLOC on derived datatypes built of the
 * padded pair types (MPI_DOUBLE_INT is 12 bytes of data in a 16-byte C
 * struct, so packed it has no padding). Each layout below goes through
 * Allreduce, Iallreduce, Reduce at every root, Scan, Reduce_local and an
 * intercommunicator Allreduce; every pair of every result is checked, and
 * every byte the datatype does not cover (gaps, struct padding) must keep
 * its fill. Prints "coll_pairs: rank R OK" or FAIL lines. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures, checks;

#define CHECK(cond, ...)                        \
  do {                                          \
    ++checks;                                   \
    if (!(cond) && failures++ < 10) {           \
      printf("coll_pairs: FAIL rank %d: ", rank); \
      printf(__VA_ARGS__);                      \
      printf("\n");                             \
    }                                           \
  } while (0)

enum { kFill = 0xA5, kMaxSlots = 8 };
typedef enum { V_DOUBLE, V_SHORT, V_LONG, V_LDOUBLE } ValueKind;

/* A layout: `slots` pairs of `type` x `count`, pair k at byte k * stride. */
typedef struct {
  const char *name;
  MPI_Datatype type;
  int count, slots;
  size_t stride, value_size, bytes;
  ValueKind kind;
} Layout;

static int value_of(int r, int k) { return (r * 5 + k * 3) % 7; }
static int index_of(int r, int k) { return r * 10 + k; }

/* Where a pair's index sits: after the value, aligned as in the C struct,
 * or right after it when the layout is packed (stride = value + int). */
static size_t index_at(const Layout *l) {
  if (l->stride == l->value_size + sizeof(int)) return l->value_size;
  return (l->value_size + sizeof(int) - 1) / sizeof(int) * sizeof(int);
}

static void put(const Layout *l, unsigned char *buf, int k, int value, int index) {
  unsigned char *at = buf + (size_t)k * l->stride;
  double d = value;
  short s = (short)value;
  long g = value;
  long double x = value;
  switch (l->kind) {
    case V_DOUBLE: memcpy(at, &d, sizeof d); break;
    case V_SHORT: memcpy(at, &s, sizeof s); break;
    case V_LONG: memcpy(at, &g, sizeof g); break;
    case V_LDOUBLE: memcpy(at, &x, sizeof x); break;
  }
  memcpy(at + index_at(l), &index, sizeof index);
}

static void get(const Layout *l, const unsigned char *buf, int k, int *value, int *index) {
  const unsigned char *at = buf + (size_t)k * l->stride;
  double d;
  short s;
  long g;
  long double x;
  switch (l->kind) {
    case V_DOUBLE: memcpy(&d, at, sizeof d); *value = (int)d; break;
    case V_SHORT: memcpy(&s, at, sizeof s); *value = s; break;
    case V_LONG: memcpy(&g, at, sizeof g); *value = (int)g; break;
    case V_LDOUBLE: memcpy(&x, at, sizeof x); *value = (int)x; break;
  }
  memcpy(index, at + index_at(l), sizeof *index);
}

/* Whether byte `b` of the buffer belongs to a pair's data. */
static int covered(const Layout *l, size_t b) {
  size_t k = b / l->stride, within = b % l->stride;
  if (k >= (size_t)l->slots) return 0;
  return within < l->value_size || (within >= index_at(l) && within < index_at(l) + sizeof(int));
}

static void fill(const Layout *l, unsigned char *buf, int r) {
  memset(buf, kFill, l->bytes);
  for (int k = 0; k < l->slots; ++k) put(l, buf, k, value_of(r, k), index_of(r, k));
}

/* The MAXLOC (max != 0) or MINLOC of ranks [from, to) at pair k. */
static void expect(int max, int from, int to, int k, int *value, int *index) {
  *value = value_of(from, k);
  *index = index_of(from, k);
  for (int r = from + 1; r < to; ++r) {
    int v = value_of(r, k);
    if (max ? v > *value : v < *value) {
      *value = v;
      *index = index_of(r, k);
    }  /* on a tie the lower rank's (lower) index stays */
  }
}

static void verify(const Layout *l, const unsigned char *buf, int max, int from, int to, const char *what) {
  for (int k = 0; k < l->slots; ++k) {
    int v = -1, i = -1, want_v, want_i;
    get(l, buf, k, &v, &i);
    expect(max, from, to, k, &want_v, &want_i);
    CHECK(v == want_v && i == want_i, "%s %s pair %d: (%d,%d), expected (%d,%d)", l->name, what, k, v, i, want_v,
          want_i);
  }
  size_t b = 0;
  while (b < l->bytes && (covered(l, b) || buf[b] == kFill)) ++b;
  CHECK(b == l->bytes, "%s %s: byte %zu outside the datatype was written", l->name, what, b);
}

static void run(const Layout *l, MPI_Comm inter, int other_from, int other_to) {
  unsigned char *send = malloc(l->bytes), *recv = malloc(l->bytes);
  fill(l, send, rank);

  memset(recv, kFill, l->bytes);
  MPI_Allreduce(send, recv, l->count, l->type, MPI_MAXLOC, MPI_COMM_WORLD);
  verify(l, recv, 1, 0, size, "Allreduce MAXLOC");

  MPI_Request req;
  memset(recv, kFill, l->bytes);
  MPI_Iallreduce(send, recv, l->count, l->type, MPI_MINLOC, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  verify(l, recv, 0, 0, size, "Iallreduce MINLOC");

  for (int root = 0; root < size; ++root) {
    memset(recv, kFill, l->bytes);
    MPI_Reduce(send, recv, l->count, l->type, MPI_MINLOC, root, MPI_COMM_WORLD);
    if (rank == root) verify(l, recv, 0, 0, size, "Reduce MINLOC");
  }

  memset(recv, kFill, l->bytes);
  MPI_Scan(send, recv, l->count, l->type, MPI_MAXLOC, MPI_COMM_WORLD);
  verify(l, recv, 1, 0, rank + 1, "Scan MAXLOC");

  /* Reduce_local: this rank's pairs into the next rank's. */
  fill(l, recv, rank + 1);
  MPI_Reduce_local(send, recv, l->count, l->type, MPI_MAXLOC);
  verify(l, recv, 1, rank, rank + 2, "Reduce_local MAXLOC");

  if (inter != MPI_COMM_NULL) {
    memset(recv, kFill, l->bytes);
    MPI_Allreduce(send, recv, l->count, l->type, MPI_MINLOC, inter);
    verify(l, recv, 0, other_from, other_to, "intercommunicator Allreduce MINLOC");
  }
  free(send);
  free(recv);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  struct { double v; int i; } di;
  struct { short v; int i; } si;
  struct { long double v; int i; } ldi;
  Layout layouts[4];
  int n = 0;
  MPI_Datatype t;
  /* Every other MPI_DOUBLE_INT of six: gaps of whole structs. */
  MPI_Type_vector(3, 1, 2, MPI_DOUBLE_INT, &t);
  layouts[n++] = (Layout){"vector(3,1,2,MPI_DOUBLE_INT)", t, 1, 3, 2 * sizeof di, sizeof(double), 6 * sizeof di,
                          V_DOUBLE};
  /* Pairs of MPI_SHORT_INT, two of them: struct padding only. */
  MPI_Type_contiguous(2, MPI_SHORT_INT, &t);
  layouts[n++] = (Layout){"contiguous(2,MPI_SHORT_INT)", t, 2, 4, sizeof si, sizeof(short), 4 * sizeof si, V_SHORT};
  MPI_Type_dup(MPI_LONG_DOUBLE_INT, &t);
  layouts[n++] = (Layout){"dup(MPI_LONG_DOUBLE_INT)", t, 3, 3, sizeof ldi, sizeof(long double), 3 * sizeof ldi,
                          V_LDOUBLE};
  /* MPI_LONG_INT resized to its data: a contiguous array of packed pairs. */
  MPI_Type_create_resized(MPI_LONG_INT, 0, (MPI_Aint)(sizeof(long) + sizeof(int)), &t);
  layouts[n++] = (Layout){"resized(MPI_LONG_INT,12)", t, 4, 4, sizeof(long) + sizeof(int), sizeof(long),
                          4 * (sizeof(long) + sizeof(int)), V_LONG};
  for (int k = 0; k < n; ++k) MPI_Type_commit(&layouts[k].type);

  /* An intercommunicator between the lower and the upper half. */
  MPI_Comm inter = MPI_COMM_NULL, local;
  int half = size / 2, lower = rank < half;
  if (size >= 2) {
    MPI_Comm_split(MPI_COMM_WORLD, lower, rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, lower ? half : 0, 7, &inter);
    MPI_Comm_free(&local);
  }
  for (int k = 0; k < n; ++k)
    run(&layouts[k], inter, lower ? half : 0, lower ? size : half);
  if (inter != MPI_COMM_NULL) MPI_Comm_free(&inter);
  for (int k = 0; k < n; ++k) MPI_Type_free(&layouts[k].type);

  if (failures == 0) printf("coll_pairs: rank %d OK (%d checks)\n", rank, checks);
  MPI_Finalize();
  return failures != 0;
}
