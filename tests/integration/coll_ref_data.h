/* Data, operations and the reference reduction of coll_reference.c: every
 * rank can compute any rank's contribution from (seed, case, rank, index)
 * alone, so the expected result of a collective is computed locally with
 * plain loops, never with the library under test.
 *
 * Data is made and reduced packed: a kind's elements back to back
 * (kind_size bytes each). A case's datatype is a layout (L_*) of its kind:
 * each element holds lay_m kind elements at fixed places with gaps between
 * them, and spread() puts packed data where that datatype's elements lie in
 * a user's buffer, so expected buffers are made without MPI. */
#ifndef SHMPI_TESTS_COLL_REF_DATA_H
#define SHMPI_TESTS_COLL_REF_DATA_H

#include <mpi.h>
#include <stdint.h>
#include <string.h>

enum { K_INT, K_DOUBLE, K_UCHAR, K_LL, K_SHORT, K_2INT, K_INT3, K_MAT, K_DI, K_COUNT };
static const char *kind_name[K_COUNT] = {"MPI_INT", "MPI_DOUBLE", "MPI_UNSIGNED_CHAR", "MPI_LONG_LONG_INT",
                                         "MPI_SHORT", "MPI_2INT", "contiguous(3, MPI_INT)",
                                         "contiguous(4, MPI_INT) matrix", "struct {double; int}"};
static MPI_Datatype kind_type[K_COUNT];
static size_t kind_size[K_COUNT];   /* packed bytes of one element */
static size_t kind_extent[K_COUNT]; /* its extent (K_DI: 16, padded) */

typedef struct { int v, i; } int2;

/* Layouts: the datatype of a case is its kind's type placed as below (in
 * units of the kind's extent E): lay_m elements at lay_at[], the whole
 * lay_ext apart. */
enum { L_PLAIN, L_VECTOR, L_INDEXED, L_RESIZED, L_NESTED, L_SUBARRAY, L_COUNT };
static const char *lay_name[L_COUNT] = {"", " in vector(2,1,3)", " in indexed({2,1},{1,4})",
                                        " resized to (-E, 3E)", " in vector(2,1,2) of resized(dup, 0, 2E)",
                                        " in subarray 2x2 of 3x4 at (1,1)"};
static const int lay_m[L_COUNT] = {1, 2, 3, 1, 2, 4};
static const int lay_ext[L_COUNT] = {1, 4, 4, 3, 6, 12};
static const int lay_at[L_COUNT][4] = {{0}, {0, 3}, {1, 2, 4}, {0}, {0, 4}, {5, 6, 9, 10}};
static MPI_Datatype lay_type[K_COUNT][L_COUNT]; /* [kind][layout] */

/* Bytes a user buffer of n elements of layout `l` of `kind` spans. */
static size_t lay_bytes(int l, int kind, int n) {
  if (n == 0) return 0;
  const int last = lay_at[l][lay_m[l] - 1];
  return kind_extent[kind] * ((size_t)(n - 1) * (size_t)lay_ext[l] + (size_t)last) + kind_size[kind];
}

/* One packed kind element into its place in a user buffer (K_DI: its
 * double and int, around the padding). */
static void place(char *user, const char *packed, int kind) {
  if (kind == K_DI) {
    memcpy(user, packed, 8);
    memcpy(user + 8, packed + 8, 4);
  } else {
    memcpy(user, packed, kind_size[kind]);
  }
}

/* Puts n elements of layout `l` of `kind`, packed at `packed`, into `user`
 * (whose gaps keep their bytes). */
static void spread(void *user, const void *packed, int l, int kind, int n) {
  const size_t e = kind_extent[kind];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < lay_m[l]; ++j)
      place((char *)user + e * ((size_t)i * (size_t)lay_ext[l] + (size_t)lay_at[l][j]),
            (const char *)packed + kind_size[kind] * ((size_t)i * (size_t)lay_m[l] + (size_t)j), kind);
}

/* User operations: a commutative sum of ints, a non-commutative 2x2
 * matrix product mod 1009 (in x inout: lower ranks on the left) and a
 * non-commutative combination of {double; int} structs. They read their
 * datatype's layout as a user function does: element i at i * extent, its
 * data from there (the test's types with one kind element per element). */
enum { OP_USER_SUM = 1000, OP_MATMUL = 1001, OP_DI = 1002 };
static MPI_Op user_sum_op, matmul_op, di_op;

static MPI_Aint extent_of(MPI_Datatype type) {
  MPI_Aint lb = 0, extent = 0;
  MPI_Type_get_extent(type, &lb, &extent);
  return extent;
}

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *type) {
  int size = 0;
  MPI_Type_size(*type, &size);
  const MPI_Aint extent = extent_of(*type);
  for (long e = 0; e < *len; ++e) {
    const int *a = (const int *)((char *)in + e * extent);
    int *b = (int *)((char *)inout + e * extent);
    for (int i = 0; i < size / (int)sizeof(int); ++i) b[i] = (int)((unsigned)a[i] + (unsigned)b[i]);
  }
}

/* {d, i} is the map x -> d * x + i mod 1009 (d a whole number); combining
 * applies `a` first, then `b`: associative, not commutative. */
typedef struct { double d; int i; } di;
static di di_combine(di a, di b) {
  const long long m = (long long)b.d;
  return (di){(double)((long long)a.d * m % 1009), (int)((m * a.i + b.i) % 1009)};
}

static void di_user(void *in, void *inout, int *len, MPI_Datatype *type) {
  const MPI_Aint extent = extent_of(*type);
  for (long e = 0; e < *len; ++e) {
    di *b = (di *)((char *)inout + e * extent);
    const di r = di_combine(*(const di *)((char *)in + e * extent), *b);
    b->d = r.d;  /* member by member: the padding is not ours to write */
    b->i = r.i;
  }
}

static void matmul4(const int *a, const int *b, int *out) {
  int c[4];
  c[0] = (a[0] * b[0] + a[1] * b[2]) % 1009;
  c[1] = (a[0] * b[1] + a[1] * b[3]) % 1009;
  c[2] = (a[2] * b[0] + a[3] * b[2]) % 1009;
  c[3] = (a[2] * b[1] + a[3] * b[3]) % 1009;
  memcpy(out, c, sizeof c);
}

static void matmul(void *in, void *inout, int *len, MPI_Datatype *type) {
  const MPI_Aint extent = extent_of(*type);
  for (long i = 0; i < *len; ++i)
    matmul4((const int *)((char *)in + i * extent), (int *)((char *)inout + i * extent),
            (int *)((char *)inout + i * extent));
}

/* The layouts of `t` (extent e), made as lay_at[] says. */
static void make_layouts(MPI_Datatype *out, MPI_Datatype t, MPI_Aint e) {
  MPI_Datatype dup, wide;
  const int lens[2] = {2, 1}, at[2] = {1, 4}, sizes[2] = {3, 4}, sub[2] = {2, 2}, starts[2] = {1, 1};
  out[L_PLAIN] = t;
  MPI_Type_vector(2, 1, 3, t, &out[L_VECTOR]);
  MPI_Type_indexed(2, lens, at, t, &out[L_INDEXED]);
  MPI_Type_create_resized(t, -e, 3 * e, &out[L_RESIZED]);
  MPI_Type_dup(t, &dup);
  MPI_Type_create_resized(dup, 0, 2 * e, &wide);
  MPI_Type_vector(2, 1, 2, wide, &out[L_NESTED]);
  MPI_Type_free(&dup);  /* the nested type keeps what it was built of */
  MPI_Type_free(&wide);
  MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, t, &out[L_SUBARRAY]);
  for (int l = 1; l < L_COUNT; ++l) MPI_Type_commit(&out[l]);
}

static void setup_kinds(void) {
  const MPI_Datatype pre[] = {MPI_INT, MPI_DOUBLE, MPI_UNSIGNED_CHAR, MPI_LONG_LONG_INT, MPI_SHORT, MPI_2INT};
  for (int k = 0; k < K_INT3; ++k) kind_type[k] = pre[k];
  MPI_Type_contiguous(3, MPI_INT, &kind_type[K_INT3]);
  MPI_Type_commit(&kind_type[K_INT3]);
  MPI_Type_contiguous(4, MPI_INT, &kind_type[K_MAT]);
  MPI_Type_commit(&kind_type[K_MAT]);
  const int lens[2] = {1, 1};
  const MPI_Aint at[2] = {0, 8};
  const MPI_Datatype members[2] = {MPI_DOUBLE, MPI_INT};
  MPI_Type_create_struct(2, lens, at, members, &kind_type[K_DI]);
  MPI_Type_commit(&kind_type[K_DI]);
  for (int k = 0; k < K_COUNT; ++k) {
    int s = 0;
    MPI_Type_size(kind_type[k], &s);
    kind_size[k] = (size_t)s;
    kind_extent[k] = (size_t)extent_of(kind_type[k]);
    make_layouts(lay_type[k], kind_type[k], extent_of(kind_type[k]));
  }
  MPI_Op_create(user_sum, 1, &user_sum_op);
  MPI_Op_create(matmul, 0, &matmul_op);
  MPI_Op_create(di_user, 0, &di_op);
}

static void free_kinds(void) {
  for (int k = 0; k < K_COUNT; ++k)
    for (int l = 1; l < L_COUNT; ++l) MPI_Type_free(&lay_type[k][l]);
  MPI_Type_free(&kind_type[K_INT3]);
  MPI_Type_free(&kind_type[K_MAT]);
  MPI_Type_free(&kind_type[K_DI]);
  MPI_Op_free(&user_sum_op);
  MPI_Op_free(&matmul_op);
  MPI_Op_free(&di_op);
}

/* The ops each kind is reduced with (MPI_OP_NULL ends a list). */
static const int kind_ops[K_COUNT][12] = {
    {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_BAND, MPI_BOR, MPI_BXOR, MPI_LAND, MPI_LOR, MPI_LXOR, OP_USER_SUM},
    {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN},
    {MPI_SUM, MPI_BXOR, MPI_MAX},
    {MPI_SUM, MPI_MIN, MPI_BOR},
    {MPI_SUM, MPI_MAX},
    {MPI_MAXLOC, MPI_MINLOC},
    {MPI_SUM, MPI_MAX, OP_USER_SUM},
    {OP_MATMUL},
    {OP_DI},
};

static int op_count(int kind) {
  int n = 0;
  while (n < 12 && kind_ops[kind][n] != MPI_OP_NULL) ++n;
  return n;
}

static MPI_Op mpi_op(int op) {
  return op == OP_USER_SUM ? user_sum_op : op == OP_MATMUL ? matmul_op : op == OP_DI ? di_op : op;
}

static const char *op_label(int op) {
  static const char *names[] = {"NULL", "MAX", "MIN", "SUM", "PROD", "LAND", "BAND", "LOR",
                                "BOR",  "LXOR", "BXOR", "MAXLOC", "MINLOC"};
  if (op == OP_USER_SUM) return "user sum";
  if (op == OP_MATMUL) return "user matmul (non-commutative)";
  if (op == OP_DI) return "user {double; int} (non-commutative)";
  return op >= 0 && op <= MPI_MINLOC ? names[op] : "?";
}

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

/* Stores one element through memcpy: alltoallw cases place blocks at byte
 * displacements that need not be aligned for the element type. */
#define STORE(buf, index, type, value)                              \
  do {                                                              \
    const type v_ = (value);                                        \
    memcpy((char *)(buf) + sizeof(type) * (size_t)(index), &v_, sizeof v_); \
  } while (0)

/* Fills `count` elements of `kind` with rank `r`'s data for case `id`. */
static void fill(void *buf, int kind, int count, uint64_t seed, int id, int r) {
  for (int i = 0; i < count; ++i) {
    uint64_t h = mix(seed * 0x9e3779b97f4a7c15ULL + (uint64_t)id * 1000003u + (uint64_t)r * 7919u + (uint64_t)i);
    switch (kind) {
      case K_INT: STORE(buf, i, int, (int)(h % 9) - 4); break;
      case K_DOUBLE: STORE(buf, i, double, (double)(h % 16)); break;
      case K_UCHAR: STORE(buf, i, unsigned char, (unsigned char)h); break;
      case K_LL: STORE(buf, i, long long, (long long)(h % 2001) - 1000); break;
      case K_SHORT: STORE(buf, i, short, (short)((int)(h % 201) - 100)); break;
      case K_2INT: STORE(buf, i, int2, ((int2){(int)(h % 5), (int)((h >> 20) % 100)})); break;
      case K_INT3:
        for (int j = 0; j < 3; ++j) STORE(buf, 3 * i + j, int, (int)((h >> (8 * j)) % 9) - 4);
        break;
      case K_MAT:
        for (int j = 0; j < 4; ++j) STORE(buf, 4 * i + j, int, (int)((h >> (12 * j)) % 1009));
        break;
      case K_DI: { /* packed: 12 bytes */
        const double d = (double)(h % 16);
        const int k = (int)((h >> 20) % 1009);
        memcpy((char *)buf + 12 * (size_t)i, &d, 8);
        memcpy((char *)buf + 12 * (size_t)i + 8, &k, 4);
        break;
      }
    }
  }
}

#define INT_CASES(y, u, v)           \
  case MPI_SUM: y = u + v; break;    \
  case MPI_PROD: y = u * v; break;   \
  case MPI_MAX: y = u > v ? u : v; break; \
  case MPI_MIN: y = u < v ? u : v; break; \
  case MPI_BAND: y = u & v; break;   \
  case MPI_BOR: y = u | v; break;    \
  case MPI_BXOR: y = u ^ v; break;   \
  case MPI_LAND: y = u && v; break;  \
  case MPI_LOR: y = u || v; break;   \
  case MPI_LXOR: y = !u != !v; break; \
  case OP_USER_SUM: y = u + v; break;

/* b[i] = a[i] op b[i] for `count` elements: `a` holds the lower ranks. */
static void combine(int kind, int op, const void *a, void *b, int count) {
  for (int i = 0; i < count; ++i) {
    switch (kind) {
      case K_INT: { int u = ((const int *)a)[i], v = ((int *)b)[i]; switch (op) { INT_CASES(((int *)b)[i], u, v) } break; }
      case K_UCHAR: {
        unsigned char u = ((const unsigned char *)a)[i], v = ((unsigned char *)b)[i];
        switch (op) { INT_CASES(((unsigned char *)b)[i], u, v) }
        break;
      }
      case K_LL: {
        long long u = ((const long long *)a)[i], v = ((long long *)b)[i];
        switch (op) { INT_CASES(((long long *)b)[i], u, v) }
        break;
      }
      case K_SHORT: { short u = ((const short *)a)[i], v = ((short *)b)[i]; switch (op) { INT_CASES(((short *)b)[i], u, v) } break; }
      case K_DOUBLE: {
        double u = ((const double *)a)[i], v = ((double *)b)[i], *y = &((double *)b)[i];
        *y = op == MPI_SUM ? u + v : op == MPI_PROD ? u * v : op == MPI_MAX ? (u > v ? u : v) : (u < v ? u : v);
        break;
      }
      case K_2INT: {
        int2 u = ((const int2 *)a)[i], v = ((int2 *)b)[i], *y = &((int2 *)b)[i];
        int better = op == MPI_MAXLOC ? u.v > v.v : u.v < v.v, worse = op == MPI_MAXLOC ? u.v < v.v : u.v > v.v;
        *y = better ? u : worse ? v : (int2){u.v, u.i < v.i ? u.i : v.i};
        break;
      }
      case K_INT3:
        combine(K_INT, op, (const int *)a + 3 * i, (int *)b + 3 * i, 3);
        break;
      case K_MAT: matmul4((const int *)a + 4 * i, (const int *)b + 4 * i, (int *)b + 4 * i); break;
      case K_DI: { /* packed */
        di u, v;
        memcpy(&u.d, (const char *)a + 12 * (size_t)i, 8);
        memcpy(&u.i, (const char *)a + 12 * (size_t)i + 8, 4);
        memcpy(&v.d, (char *)b + 12 * (size_t)i, 8);
        memcpy(&v.i, (char *)b + 12 * (size_t)i + 8, 4);
        const di r = di_combine(u, v);
        memcpy((char *)b + 12 * (size_t)i, &r.d, 8);
        memcpy((char *)b + 12 * (size_t)i + 8, &r.i, 4);
        break;
      }
    }
  }
}

/* out = x_lo op ... op x_hi over ranks lo..hi of case `id` (hi >= lo). */
static void reference(void *out, void *tmp, int kind, int op, int count, uint64_t seed, int id, int lo, int hi) {
  fill(out, kind, count, seed, id, lo);
  for (int r = lo + 1; r <= hi; ++r) {
    fill(tmp, kind, count, seed, id, r);
    combine(kind, op, out, tmp, count);
    memcpy(out, tmp, kind_size[kind] * (size_t)count);
  }
}

#endif
