/* backlog: MPI's point-to-point rules for messages a backlogged receiver
 * had its senders hold back (unexpected_budget: sent as rendezvous offers
 * whatever their size). Run on 3 ranks with unexpected_budget=0 (every
 * rank backlogged from the start) or, with the argument "primer", with
 * unexpected_budget=1: rank 0 first sends itself an empty message (sends
 * to oneself are never held back, so it is charged as a payload) that it
 * probes but receives only at the end, so rank 0 is backlogged before
 * anything below starts, deterministically (a primer from another rank
 * could itself be held back, and an offer holds the flag up for nobody).
 * Rank 0 receives:
 *   1. Isend A, Isend B from rank 1; Recv B, then Recv A (sizes 0 B-200 KB);
 *   2. Probe and Mprobe see the whole count (bytes, and ints of a vector);
 *   3. Issend is not complete before its receive (the receive is posted
 *      only after a later message, sent after the MPI_Test, arrived);
 *   4. a held-back Isend cancelled: cancelled, and gone from the queue;
 *   5. truncation (into 16 bytes and into none) returns MPI_ERR_TRUNCATE;
 *   6. Bsend: two messages through the attached buffer, then detach;
 *   7. persistent sends;
 *   8. ranks 1 and 2 each send 40 messages of mixed sizes; rank 0 takes
 *      them with MPI_ANY_SOURCE / MPI_ANY_TAG, each sender's in order (on
 *      a communicator of their own: the primer is not among them);
 *   9. every rank sends to itself and then receives (never held back).
 * Prints "backlog: rank R OK". */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const int kSizes[] = {0, 8, 100, 5000, 200000};
#define NSIZES 5
#define FLOOD 40

static void pair_swap(int rank) { /* 1 */
  for (int s = 0; s < NSIZES; ++s) {
    const int n = kSizes[s];
    unsigned char *a = malloc(n + 1), *b = malloc(n + 1);
    if (rank == 1) {
      fill_pattern(a, n, 10 + s);
      fill_pattern(b, n, 20 + s);
      MPI_Request r[2];
      MPI_Isend(a, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &r[0]);
      MPI_Isend(b, n, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &r[1]);
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    } else if (rank == 0) {
      MPI_Status st;
      int count = -1;
      MPI_Recv(b, n, MPI_BYTE, 1, 2, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_BYTE, &count);
      CHECK(count == n && pattern_ok(b, n, 20 + s), "B of %d bytes: count %d", n, count);
      MPI_Recv(a, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_BYTE, &count);
      CHECK(count == n && pattern_ok(a, n, 10 + s), "A of %d bytes: count %d", n, count);
    }
    free(a);
    free(b);
  }
}

static void probes(int rank) { /* 2 */
  MPI_Datatype column;
  MPI_Type_vector(10, 3, 5, MPI_INT, &column); /* 30 ints out of 50 */
  MPI_Type_commit(&column);
  int ints[50];
  if (rank == 1) {
    unsigned char bytes[100];
    fill_pattern(bytes, 100, 3);
    for (int i = 0; i < 50; ++i) ints[i] = 1000 + i;
    MPI_Send(bytes, 100, MPI_BYTE, 0, 20, MPI_COMM_WORLD);
    MPI_Send(ints, 1, column, 0, 21, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Status st;
    int count = -1;
    MPI_Probe(1, 20, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_BYTE, &count);
    CHECK(count == 100, "probed count %d", count);
    unsigned char bytes[100];
    MPI_Recv(bytes, 100, MPI_BYTE, 1, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(pattern_ok(bytes, 100, 3), "probed message's bytes");
    MPI_Message message;
    MPI_Mprobe(MPI_ANY_SOURCE, 21, MPI_COMM_WORLD, &message, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 30 && st.MPI_SOURCE == 1, "mprobed count %d source %d", count, st.MPI_SOURCE);
    MPI_Mrecv(ints, 30, MPI_INT, &message, &st);
    int ok = 1;
    for (int i = 0; i < 30; ++i) ok = ok && ints[i] == 1000 + (i / 3) * 5 + i % 3;
    CHECK(ok, "mprobed message's ints");
  }
  MPI_Type_free(&column);
}

static void synchronous(int rank) { /* 3 */
  unsigned char m[16];
  int go = 1;
  if (rank == 1) {
    fill_pattern(m, 16, 4);
    MPI_Request r;
    int done = 1;
    MPI_Issend(m, 16, MPI_BYTE, 0, 30, MPI_COMM_WORLD, &r);
    MPI_Test(&r, &done, MPI_STATUS_IGNORE);
    CHECK(!done, "Issend complete before its receive was posted");
    MPI_Send(&go, 1, MPI_INT, 0, 31, MPI_COMM_WORLD);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  } else if (rank == 0) {
    MPI_Recv(&go, 1, MPI_INT, 1, 31, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(m, 16, MPI_BYTE, 1, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(pattern_ok(m, 16, 4), "Issend's bytes");
  }
}

static void cancel(int rank) { /* 4 */
  unsigned char m[100];
  fill_pattern(m, 100, 5);
  if (rank == 1) {
    MPI_Request r;
    MPI_Status st;
    int cancelled = 0;
    MPI_Isend(m, 100, MPI_BYTE, 0, 40, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    MPI_Wait(&r, &st);
    MPI_Test_cancelled(&st, &cancelled);
    CHECK(cancelled, "a send nobody received was not cancelled");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    int found = 1;
    MPI_Iprobe(1, 40, MPI_COMM_WORLD, &found, MPI_STATUS_IGNORE);
    CHECK(!found, "the cancelled message is still there");
  }
}

static void truncation(int rank) { /* 5 */
  unsigned char m[64];
  if (rank == 1) {
    fill_pattern(m, 64, 6);
    MPI_Send(m, 64, MPI_BYTE, 0, 50, MPI_COMM_WORLD);
    MPI_Send(m, 64, MPI_BYTE, 0, 51, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int cls = -1;
    MPI_Error_class(MPI_Recv(m, 16, MPI_BYTE, 1, 50, MPI_COMM_WORLD, MPI_STATUS_IGNORE), &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "into 16 bytes: class %d", cls);
    CHECK(pattern_ok(m, 16, 6), "the first 16 bytes");
    MPI_Error_class(MPI_Recv(m, 0, MPI_BYTE, 1, 51, MPI_COMM_WORLD, MPI_STATUS_IGNORE), &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "into none: class %d", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  }
}

static void buffered(int rank) { /* 6 */
  unsigned char m[1000];
  if (rank == 1) {
    const int size = 2 * (1000 + MPI_BSEND_OVERHEAD);
    void *space = malloc(size), *back;
    int back_size;
    MPI_Buffer_attach(space, size);
    for (int i = 0; i < 2; ++i) {
      fill_pattern(m, 1000, 60 + i);
      MPI_Bsend(m, 1000, MPI_BYTE, 0, 60 + i, MPI_COMM_WORLD);
    }
    memset(m, 0, sizeof m); /* the copies went, not m */
    MPI_Buffer_detach(&back, &back_size);
    CHECK(back == space && back_size == size, "detached %p %d", back, back_size);
    free(space);
  } else if (rank == 0) {
    for (int i = 1; i >= 0; --i) {
      MPI_Recv(m, 1000, MPI_BYTE, 1, 60 + i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(pattern_ok(m, 1000, 60 + i), "Bsend %d's bytes", i);
    }
  }
}

static void persistent(int rank) { /* 7 */
  unsigned char m[100];
  if (rank == 1) {
    MPI_Request r;
    MPI_Send_init(m, 100, MPI_BYTE, 0, 70, MPI_COMM_WORLD, &r);
    for (int i = 0; i < 3; ++i) {
      fill_pattern(m, 100, 70 + i);
      MPI_Start(&r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&r);
  } else if (rank == 0) {
    for (int i = 0; i < 3; ++i) {
      MPI_Recv(m, 100, MPI_BYTE, 1, 70, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(pattern_ok(m, 100, 70 + i), "persistent send %d's bytes", i);
    }
  }
}

static void any_source(int rank) { /* 8 */
  const int most = 150000;
  unsigned char *m = malloc(most);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  if (rank == 1 || rank == 2) {
    for (int i = 0; i < FLOOD; ++i) {
      const int n = kSizes[(i + rank) % NSIZES] % most;
      fill_pattern(m, n, rank * 100 + i);
      MPI_Send(m, n, MPI_BYTE, 0, i, comm);
    }
  } else if (rank == 0) {
    int next[3] = {0, 0, 0};
    for (int k = 0; k < 2 * FLOOD; ++k) {
      MPI_Status st;
      int count = -1;
      MPI_Recv(m, most, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &st);
      MPI_Get_count(&st, MPI_BYTE, &count);
      const int from = st.MPI_SOURCE;
      if (from != 1 && from != 2) {
        CHECK(0, "message from rank %d", from);
        break;
      }
      const int i = next[from]++;
      const int n = kSizes[(i + from) % NSIZES] % most;
      CHECK(st.MPI_TAG == i && count == n && pattern_ok(m, n, from * 100 + i),
            "from %d: tag %d (expected %d), count %d (expected %d)", from, st.MPI_TAG, i, count, n);
    }
  }
  MPI_Comm_free(&comm);
  free(m);
}

static void to_self(int rank) { /* 9 */
  unsigned char out[100], in[100];
  fill_pattern(out, 100, 90 + rank);
  MPI_Send(out, 100, MPI_BYTE, rank, 90, MPI_COMM_WORLD);
  MPI_Recv(in, 100, MPI_BYTE, rank, 90, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(pattern_ok(in, 100, 90 + rank), "the message to myself");
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_rank = rank;
  CHECK(size == 3, "run on 3 ranks, not %d", size);
  const int primer = argc > 1 && strcmp(argv[1], "primer") == 0;
  MPI_Request primed = MPI_REQUEST_NULL;
  if (primer && rank == 0) {
    MPI_Isend(NULL, 0, MPI_BYTE, 0, 99, MPI_COMM_WORLD, &primed);
    MPI_Probe(0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  pair_swap(rank);
  probes(rank);
  synchronous(rank);
  cancel(rank);
  truncation(rank);
  buffered(rank);
  persistent(rank);
  any_source(rank);
  to_self(rank);
  if (primer && rank == 0) {
    MPI_Recv(NULL, 0, MPI_BYTE, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&primed, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const int code = check_report("backlog");
  MPI_Finalize();
  return code;
}
