/* Non-contiguous point-to-point without packing (pml/run_layout.hpp):
 * vector, indexed, struct and subarray types of 200 B .. 4 MiB sent between
 * contiguous and non-contiguous buffers in all four combinations, with the
 * receive posted before the message arrives and after, and to ourselves.
 * Every byte of the receive buffer is checked, the gaps between runs
 * included (they must keep their old contents): the expected buffer is
 * built with MPI_Pack / MPI_Unpack, which take the packing path. Also a
 * truncated receive into a layout, and MPI_Bsend of a column. Two ranks (or one: only the self cases).
 * Usage: zerocopy [max_bytes] */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { kVector, kIndexed, kStruct, kSubarray, kKinds };
static const char *kind_name[kKinds] = {"vector", "indexed", "struct", "subarray"};

/* A datatype and how many of it make about `bytes` packed bytes. */
typedef struct {
  MPI_Datatype type;
  int count;
  int packed;     /* packed bytes of `count` elements */
  size_t span;    /* buffer bytes the elements reach */
} Layout;

static Layout make_layout(int kind, size_t bytes) {
  Layout l = {MPI_DATATYPE_NULL, 1, 0, 0};
  MPI_Datatype t = MPI_DATATYPE_NULL;
  if (kind == kVector) { /* a column of a matrix of 4 doubles a row */
    int rows = (int)(bytes / 8);
    MPI_Type_vector(rows, 1, 4, MPI_DOUBLE, &t);
    l.span = (size_t)rows * 32;
  } else if (kind == kIndexed) { /* ints: runs of 1, 3 and 2 with gaps, 10 ints an element */
    int lens[3] = {1, 3, 2}, displs[3] = {0, 2, 7};
    MPI_Datatype one;
    MPI_Type_indexed(3, lens, displs, MPI_INT, &one);
    MPI_Type_create_resized(one, 0, 40, &t);
    MPI_Type_free(&one);
    l.count = (int)(bytes / 24);
    l.span = (size_t)l.count * 40;
  } else if (kind == kStruct) { /* {int; double; char[3]}, 24 bytes apart */
    int lens[3] = {1, 1, 3};
    MPI_Aint displs[3] = {0, 8, 16};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    MPI_Type_create_struct(3, lens, displs, types, &t);
    l.count = (int)(bytes / 15);
    l.span = (size_t)l.count * 24;
  } else { /* the middle half of each row of a float matrix */
    int cols = 64, rows = (int)(bytes / (32 * 4));
    int sizes[2] = {rows, cols}, sub[2] = {rows, cols / 2}, starts[2] = {0, cols / 4};
    MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_FLOAT, &t);
    l.span = (size_t)rows * cols * 4;
  }
  MPI_Type_commit(&t);
  l.type = t;
  int size = 0;
  MPI_Type_size(t, &size);
  l.packed = size * l.count;
  return l;
}

/* The contiguous counterpart: the same packed bytes as MPI_BYTE. */
static Layout contiguous(int bytes) {
  Layout l = {MPI_BYTE, bytes, bytes, (size_t)bytes};
  return l;
}

static void fill(unsigned char *buf, size_t n, int seed) { fill_pattern(buf, n, seed); }

/* What a receive into `to` of a message sent from `from` (filled with
 * pattern `seed`) must leave in a buffer that held 0xEE everywhere. */
static unsigned char *expected(const Layout *from, const Layout *to, int seed) {
  unsigned char *src = malloc(from->span + 1), *packed = malloc((size_t)from->packed + 1);
  unsigned char *want = malloc(to->span + 1);
  fill(src, from->span, seed);
  int pos = 0;
  MPI_Pack(src, from->count, from->type, packed, from->packed, &pos, MPI_COMM_SELF);
  memset(want, 0xEE, to->span);
  pos = 0;
  MPI_Unpack(packed, from->packed, &pos, want, to->count, to->type, MPI_COMM_SELF);
  free(src);
  free(packed);
  return want;
}

static void check_received(const char *what, const unsigned char *got, const unsigned char *want, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (got[i] != want[i]) {
      CHECK(got[i] == want[i], "%s: byte %zu of %zu is 0x%02x, want 0x%02x", what, i, n, got[i], want[i]);
      return;
    }
  }
}

/* One message from rank `src` to rank `dst` (possibly the same), `late`:
 * the receive is posted only after a barrier, when the offer has arrived. */
static void transfer(const char *what, const Layout *from, const Layout *to, int src, int dst, int late, int seed) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  unsigned char *sendbuf = NULL, *recvbuf = NULL;
  MPI_Request send = MPI_REQUEST_NULL;
  if (rank == src) {
    sendbuf = malloc(from->span + 1);
    fill(sendbuf, from->span, seed);
    MPI_Isend(sendbuf, from->count, from->type, dst, seed, MPI_COMM_WORLD, &send);
  }
  if (late && src != dst) MPI_Barrier(MPI_COMM_WORLD);
  if (rank == dst) {
    recvbuf = malloc(to->span + 1);
    memset(recvbuf, 0xEE, to->span);
    MPI_Status status;
    MPI_Recv(recvbuf, to->count, to->type, src, seed, MPI_COMM_WORLD, &status);
    int got = -1;
    MPI_Get_count(&status, MPI_BYTE, &got);
    CHECK(got == from->packed, "%s: %d bytes received, %d sent", what, got, from->packed);
    unsigned char *want = expected(from, to, seed);
    check_received(what, recvbuf, want, to->span);
    free(want);
  }
  if (rank == src) {
    MPI_Wait(&send, MPI_STATUS_IGNORE);
    CHECK(pattern_ok(sendbuf, from->span, seed), "%s: the send buffer changed", what);
  }
  free(sendbuf);
  free(recvbuf);
}

/* A message longer than the layout it lands in: the layout's runs take the
 * first bytes, the gaps keep theirs, and the receive says MPI_ERR_TRUNCATE. */
static void truncated(int kind, size_t bytes, int src, int dst) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Layout to = make_layout(kind, bytes);
  Layout from = contiguous(to.packed + 4096);
  if (rank == src) {
    unsigned char *sendbuf = malloc(from.span);
    fill(sendbuf, from.span, 91);
    MPI_Send(sendbuf, from.count, MPI_BYTE, dst, 91, MPI_COMM_WORLD);
    free(sendbuf);
  }
  if (rank == dst) {
    unsigned char *recvbuf = malloc(to.span + 1);
    memset(recvbuf, 0xEE, to.span);
    MPI_Status status;
    const int rc = MPI_Recv(recvbuf, to.count, to.type, src, 91, MPI_COMM_WORLD, &status);
    int error_class = -1;
    MPI_Error_class(rc, &error_class);
    CHECK(error_class == MPI_ERR_TRUNCATE, "truncated %s: error class %d", kind_name[kind], error_class);
    Layout head = contiguous(to.packed); /* the first bytes of the same pattern */
    unsigned char *want = expected(&head, &to, 91);
    check_received("truncated", recvbuf, want, to.span);
    free(want);
    free(recvbuf);
  }
  MPI_Type_free(&to.type);
}

/* MPI_Bsend of a column: the attached buffer holds its packed bytes,
 * which are sent as they are. */
static void buffered(int src, int dst) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Layout column = make_layout(kVector, 4096);
  Layout flat = contiguous(column.packed);
  if (rank == src) {
    int room = column.packed + MPI_BSEND_OVERHEAD;
    void *attached = malloc((size_t)room);
    MPI_Buffer_attach(attached, room);
    unsigned char *sendbuf = malloc(column.span);
    fill(sendbuf, column.span, 77);
    MPI_Bsend(sendbuf, column.count, column.type, dst, 77, MPI_COMM_WORLD);
    free(sendbuf);
    MPI_Buffer_detach(&attached, &room);
    free(attached);
  }
  if (rank == dst) {
    unsigned char *recvbuf = malloc(flat.span);
    MPI_Recv(recvbuf, flat.count, MPI_BYTE, src, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    unsigned char *want = expected(&column, &flat, 77);
    check_received("bsend column", recvbuf, want, flat.span);
    free(want);
    free(recvbuf);
  }
  MPI_Type_free(&column.type);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const size_t max_bytes = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : (size_t)4 << 20;
  const size_t sizes[] = {200, 16 << 10, 64 << 10, 1 << 20, 4 << 20};
  const int peer = size > 1 ? 1 : 0;
  int seed = 1;
  for (int kind = 0; kind < kKinds; ++kind) {
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0] && sizes[s] <= max_bytes; ++s) {
      Layout runs = make_layout(kind, sizes[s]);
      Layout flat = contiguous(runs.packed);
      const Layout *from[4] = {&flat, &runs, &runs, &flat};
      const Layout *to[4] = {&runs, &flat, &runs, &flat};
      const char *combo[4] = {"contiguous->runs", "runs->contiguous", "runs->runs", "contiguous->contiguous"};
      for (int c = 0; c < 4; ++c) {
        char what[128];
        for (int late = 0; late < 2; ++late) {
          snprintf(what, sizeof what, "%s %zu B %s%s", kind_name[kind], sizes[s], combo[c], late ? " (late)" : "");
          transfer(what, from[c], to[c], 0, peer, late, seed++);
        }
        snprintf(what, sizeof what, "%s %zu B %s to self", kind_name[kind], sizes[s], combo[c]);
        transfer(what, from[c], to[c], check_rank, check_rank, 0, seed++);
      }
      MPI_Type_free(&runs.type);
    }
    if (size > 1) truncated(kind, 64 << 10, 0, peer);
  }
  if (size > 1) buffered(0, peer);
  MPI_Barrier(MPI_COMM_WORLD);
  const int rc = check_report("zerocopy");
  MPI_Finalize();
  return rc;
}
