/* persistent: persistent requests (MPI_Send_init, Bsend_init, Ssend_init,
 * Rsend_init, Recv_init, MPI_Start, MPI_Startall) reused over many rounds
 * around a ring, eager and rendezvous sizes; completion calls on inactive
 * requests (empty status, handle kept); MPI_Request_get_status; freeing
 * inactive and active requests; cancelling a started receive and starting
 * it again; non-contiguous datatypes; MPI_PROC_NULL peers; errors for misuse (MPI_ERRORS_RETURN); the
 * Bsend buffer sized by the standard's formula.
 *
 * With the argument "fatal_start", rank 0 starts an active request under
 * MPI_ERRORS_ARE_FATAL (the case checks the one line it prints). */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size, right, left;

static int error_class(int rc) {
  int cls = -1;
  MPI_Error_class(rc, &cls);
  return cls;
}

/* ROUNDS rounds of each send mode, with the payload changing per round. */
static void rounds(int bytes, int mode) {
  enum { ROUNDS = 40 };
  unsigned char *out = malloc(bytes + 1), *in = malloc(bytes + 1);
  MPI_Request send, recv;
  MPI_Recv_init(in, bytes, MPI_BYTE, left, 7, MPI_COMM_WORLD, &recv);
  switch (mode) {
    case 0: MPI_Send_init(out, bytes, MPI_BYTE, right, 7, MPI_COMM_WORLD, &send); break;
    case 1: MPI_Ssend_init(out, bytes, MPI_BYTE, right, 7, MPI_COMM_WORLD, &send); break;
    case 2: MPI_Rsend_init(out, bytes, MPI_BYTE, right, 7, MPI_COMM_WORLD, &send); break;
    default: MPI_Bsend_init(out, bytes, MPI_BYTE, right, 7, MPI_COMM_WORLD, &send); break;
  }
  /* A rank can run size - 1 rounds ahead of its right neighbour, each
   * round's buffered copy waiting there. */
  int buffer_bytes = (size + 1) * (bytes + MPI_BSEND_OVERHEAD);
  void *attached = malloc(buffer_bytes);
  if (mode == 3) MPI_Buffer_attach(attached, buffer_bytes);
  for (int round = 0; round < ROUNDS; ++round) {
    fill_pattern(out, bytes, rank * 1000 + round);
    memset(in, 0, bytes);
    MPI_Start(&recv);
    if (mode == 2) MPI_Barrier(MPI_COMM_WORLD); /* ready mode: every receive is posted */
    MPI_Request both[2] = {recv, send};
    if (round % 2) {
      MPI_Start(&send);
    } else {
      MPI_Startall(1, &both[1]);
    }
    MPI_Status st[2];
    MPI_Waitall(2, both, st);
    CHECK(both[0] == recv && both[1] == send, "Waitall must keep persistent handles");
    int count = -1;
    MPI_Get_count(&st[0], MPI_BYTE, &count);
    CHECK(count == bytes && st[0].MPI_SOURCE == left && st[0].MPI_TAG == 7, "mode %d round %d status count %d", mode,
          round, count);
    CHECK(pattern_ok(in, bytes, left * 1000 + round), "mode %d round %d payload of %d bytes", mode, round, bytes);
  }
  if (mode == 3) MPI_Buffer_detach(&attached, &buffer_bytes);
  MPI_Request_free(&send);
  MPI_Request_free(&recv);
  CHECK(send == MPI_REQUEST_NULL && recv == MPI_REQUEST_NULL, "Request_free must null the handles");
  free(attached);
  free(out);
  free(in);
}

/* Non-contiguous types: a column (every 3rd double) sent each round into
 * every other double of the receiver (gaps keep their sentinel), the type
 * handles freed once the requests exist (the requests keep the layouts). */
static void derived_rounds(int n, int mode) {
  enum { ROUNDS = 6 };
  double *out = malloc(sizeof(double) * 3 * n), *in = malloc(sizeof(double) * 2 * n);
  MPI_Datatype column, every_other;
  MPI_Type_vector(n, 1, 3, MPI_DOUBLE, &column);
  MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &every_other);
  MPI_Type_commit(&column);
  MPI_Type_commit(&every_other);
  MPI_Request send, recv;
  MPI_Recv_init(in, 1, every_other, left, 9, MPI_COMM_WORLD, &recv);
  switch (mode) {
    case 0: MPI_Send_init(out, 1, column, right, 9, MPI_COMM_WORLD, &send); break;
    case 1: MPI_Ssend_init(out, 1, column, right, 9, MPI_COMM_WORLD, &send); break;
    default: MPI_Bsend_init(out, 1, column, right, 9, MPI_COMM_WORLD, &send); break;
  }
  MPI_Type_free(&column);
  MPI_Type_free(&every_other);
  int buffer_bytes = (size + 1) * (n * (int)sizeof(double) + MPI_BSEND_OVERHEAD);
  void *attached = malloc(buffer_bytes);
  if (mode == 2) MPI_Buffer_attach(attached, buffer_bytes);
  for (int round = 0; round < ROUNDS; ++round) {
    for (int i = 0; i < 3 * n; ++i) out[i] = i % 3 == 0 ? rank * 1e6 + round * 1e4 + i / 3 : -1.0;
    for (int i = 0; i < 2 * n; ++i) in[i] = -2.0;
    MPI_Start(&recv);
    MPI_Start(&send);
    MPI_Request both[2] = {recv, send};
    MPI_Status st[2];
    MPI_Waitall(2, both, st);
    int count = -1;
    MPI_Get_count(&st[0], MPI_DOUBLE, &count);
    CHECK(count == n, "derived mode %d n %d round %d: count %d", mode, n, round, count);
    int bad = -1;
    for (int i = 0; i < 2 * n && bad < 0; ++i)
      if (in[i] != (i % 2 == 0 ? left * 1e6 + round * 1e4 + i / 2 : -2.0)) bad = i;
    CHECK(bad < 0, "derived mode %d n %d round %d: double %d is %g", mode, n, round, bad, bad < 0 ? 0.0 : in[bad]);
  }
  if (mode == 2) MPI_Buffer_detach(&attached, &buffer_bytes);
  MPI_Request_free(&send);
  MPI_Request_free(&recv);
  free(attached);
  free(out);
  free(in);
}

static void check_empty(const MPI_Status *st, const char *what) {
  int count = -1;
  MPI_Get_count(st, MPI_BYTE, &count);
  CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG && count == 0, "%s: status not empty", what);
}

/* Completion calls on requests never started or already completed. */
static void inactive(void) {
  int v = 0, flag = 0, index = 5, outcount = 5, indices[2];
  MPI_Request r[2];
  MPI_Status st, sts[2];
  MPI_Recv_init(&v, 1, MPI_INT, left, 8, MPI_COMM_WORLD, &r[0]);
  MPI_Send_init(&rank, 1, MPI_INT, right, 8, MPI_COMM_WORLD, &r[1]);
  MPI_Request keep = r[0];
  st.MPI_SOURCE = 99;
  MPI_Wait(&r[0], &st);
  CHECK(r[0] == keep, "Wait on an inactive request must keep its handle");
  check_empty(&st, "Wait inactive");
  st.MPI_SOURCE = 99;
  MPI_Test(&r[0], &flag, &st);
  CHECK(flag && r[0] == keep, "Test on an inactive request: flag 1, handle kept");
  check_empty(&st, "Test inactive");
  flag = 0;
  MPI_Request_get_status(r[0], &flag, &st);
  CHECK(flag, "Request_get_status on an inactive request");
  check_empty(&st, "Request_get_status inactive");
  MPI_Waitany(2, r, &index, &st);
  CHECK(index == MPI_UNDEFINED, "Waitany over inactive requests gave index %d", index);
  MPI_Testany(2, r, &index, &flag, &st);
  CHECK(flag && index == MPI_UNDEFINED, "Testany over inactive requests");
  MPI_Waitsome(2, r, &outcount, indices, sts);
  CHECK(outcount == MPI_UNDEFINED, "Waitsome over inactive requests gave %d", outcount);
  MPI_Testall(2, r, &flag, sts);
  CHECK(flag, "Testall over inactive requests");
  check_empty(&sts[1], "Testall inactive");
  /* One round; then both are inactive again and report empty statuses. */
  MPI_Startall(2, r);
  MPI_Request_get_status(r[0], &flag, &st);
  while (!flag) MPI_Request_get_status(r[0], &flag, &st);
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 8, "Request_get_status of a complete receive");
  MPI_Wait(&r[0], &st); /* get_status left it active: Wait reports it again */
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 8 && v == left, "Wait after get_status (source %d)", st.MPI_SOURCE);
  MPI_Wait(&r[0], &st);
  check_empty(&st, "second Wait");
  MPI_Wait(&r[1], MPI_STATUS_IGNORE);
  MPI_Waitany(2, r, &index, &st);
  CHECK(index == MPI_UNDEFINED, "Waitany after completion gave index %d", index);
  /* Inactive requests are freed at once. */
  MPI_Request_free(&r[0]);
  MPI_Request_free(&r[1]);
  CHECK(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL, "freed handles");
}

/* A started send freed before it completes is still delivered. */
static void free_active(void) {
  enum { BYTES = 200000 };
  unsigned char *out = malloc(BYTES), *in = malloc(BYTES);
  fill_pattern(out, BYTES, rank + 40);
  MPI_Request send;
  MPI_Send_init(out, BYTES, MPI_BYTE, right, 9, MPI_COMM_WORLD, &send);
  MPI_Start(&send);
  MPI_Request_free(&send);
  CHECK(send == MPI_REQUEST_NULL, "freed active request handle");
  MPI_Recv(in, BYTES, MPI_BYTE, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(pattern_ok(in, BYTES, left + 40), "message of a freed active persistent send");
  MPI_Barrier(MPI_COMM_WORLD); /* our send has been received: `out` is free */
  free(out);
  free(in);
}

/* A started receive is cancelled, then started again and matched. */
static void cancel_and_restart(void) {
  int v = -1, flag = 0, one = rank + 500;
  MPI_Request recv;
  MPI_Status st;
  MPI_Recv_init(&v, 1, MPI_INT, left, 10, MPI_COMM_WORLD, &recv);
  MPI_Start(&recv);
  MPI_Cancel(&recv);
  MPI_Wait(&recv, &st);
  MPI_Test_cancelled(&st, &flag);
  CHECK(flag && recv != MPI_REQUEST_NULL && v == -1, "cancelled persistent receive (flag %d)", flag);
  MPI_Barrier(MPI_COMM_WORLD); /* nobody sends before every rank cancelled */
  MPI_Start(&recv);
  MPI_Send(&one, 1, MPI_INT, right, 10, MPI_COMM_WORLD);
  MPI_Wait(&recv, &st);
  MPI_Test_cancelled(&st, &flag);
  CHECK(!flag && v == left + 500, "restarted receive after cancel got %d", v);
  MPI_Request_free(&recv);
}

static void proc_null(void) {
  int v = 3, count = -1;
  MPI_Request r[2];
  MPI_Status st[2];
  MPI_Send_init(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r[0]);
  MPI_Recv_init(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r[1]);
  for (int round = 0; round < 3; ++round) {
    MPI_Startall(2, r);
    MPI_Waitall(2, r, st);
    MPI_Get_count(&st[1], MPI_INT, &count);
    CHECK(st[1].MPI_SOURCE == MPI_PROC_NULL && count == 0 && v == 3, "PROC_NULL persistent receive");
  }
  MPI_Request_free(&r[0]);
  MPI_Request_free(&r[1]);
}

/* Misuse comes back as MPI_ERR_REQUEST and changes nothing. */
static void misuse(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int v = 0, w = 0, flag = 0;
  MPI_Request recv, other, plain, both[2];
  MPI_Recv_init(&v, 1, MPI_INT, left, 11, MPI_COMM_WORLD, &recv);
  MPI_Recv_init(&w, 1, MPI_INT, left, 12, MPI_COMM_WORLD, &other);
  MPI_Start(&recv);
  CHECK(error_class(MPI_Start(&recv)) == MPI_ERR_REQUEST, "Start on an active request");
  both[0] = other;
  both[1] = recv;
  CHECK(error_class(MPI_Startall(2, both)) == MPI_ERR_REQUEST, "Startall with an active request");
  MPI_Status st;
  MPI_Request_get_status(other, &flag, &st);
  CHECK(flag, "a failed Startall must start none of its requests");
  CHECK(error_class(MPI_Cancel(&other)) == MPI_ERR_REQUEST, "Cancel of an inactive request");
  MPI_Irecv(&w, 1, MPI_INT, left, 13, MPI_COMM_WORLD, &plain);
  CHECK(error_class(MPI_Start(&plain)) == MPI_ERR_REQUEST, "Start on a nonpersistent request");
  MPI_Request null = MPI_REQUEST_NULL;
  CHECK(error_class(MPI_Start(&null)) == MPI_ERR_REQUEST, "Start on MPI_REQUEST_NULL");
  CHECK(error_class(MPI_Send_init(&v, -1, MPI_INT, right, 0, MPI_COMM_WORLD, &other)) == MPI_ERR_COUNT,
        "Send_init with a negative count");
  MPI_Cancel(&plain);
  MPI_Wait(&plain, MPI_STATUS_IGNORE);
  MPI_Cancel(&recv);
  MPI_Wait(&recv, MPI_STATUS_IGNORE);
  MPI_Request_free(&recv);
  MPI_Request_free(&other);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* Issue 26 (6a): 4 x (68000 + MPI_BSEND_OVERHEAD) bytes hold four 68000-byte
 * MPI_Bsend messages, all delivered. */
static void bsend_formula(void) {
  enum { N = 4, BYTES = 68000 };
  int bytes = N * (BYTES + MPI_BSEND_OVERHEAD);
  char *space = malloc(bytes), *msg = malloc(BYTES), *in = malloc(BYTES);
  MPI_Buffer_attach(space, bytes);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  for (int i = 0; i < N; ++i) {
    fill_pattern((unsigned char *)msg, BYTES, rank * 10 + i);
    int rc = MPI_Bsend(msg, BYTES, MPI_BYTE, right, 20 + i, MPI_COMM_WORLD);
    CHECK(rc == MPI_SUCCESS, "Bsend %d of %d into a buffer of %d bytes failed", i + 1, N, bytes);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  for (int i = 0; i < N; ++i) {
    MPI_Recv(in, BYTES, MPI_BYTE, left, 20 + i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(pattern_ok((unsigned char *)in, BYTES, left * 10 + i), "buffered message %d", i);
  }
  MPI_Buffer_detach(&space, &bytes);
  free(space);
  free(msg);
  free(in);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_rank = rank;
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  if (argc > 1 && strcmp(argv[1], "fatal_start") == 0) {
    int v = 0;
    MPI_Request r;
    MPI_Recv_init(&v, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &r);
    MPI_Start(&r);
    if (rank == 0) MPI_Start(&r);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("persistent: FAIL rank %d survived MPI_Start on an active request\n", rank);
    MPI_Finalize();
    return 1;
  }
  const int sizes[3] = {0, 8, 300000};
  for (int mode = 0; mode < 4; ++mode)
    for (int s = 0; s < 3; ++s) rounds(sizes[s], mode);
  const int columns[3] = {1, 1000, 40000}; /* 8 B, 8 KB, 320 KB: eager, pipelined, rendezvous */
  for (int mode = 0; mode < 3; ++mode)
    for (int s = 0; s < 3; ++s) derived_rounds(columns[s], mode);
  inactive();
  free_active();
  cancel_and_restart();
  proc_null();
  misuse();
  bsend_formula();
  int rc = check_report("persistent");
  MPI_Finalize();
  return rc;
}
