/* partitioned: MPI-4.1 partitioned communication around a ring (each rank
 * sends to its right neighbour and receives from its left one): many
 * rounds with partitions marked ready in a shuffled order, by MPI_Pready,
 * Pready_range, Pready_list and from several threads; receive partitionings
 * that differ from the send's; eager and rendezvous partition sizes; a
 * partition delivered before the others are ready (MPI_Parrived sees it);
 * partitions marked together sent as one message, by a sender rounds ahead;
 * pairing in order of initialisation; MPI_PROC_NULL; init/free cycles;
 * errors for misuse (MPI_ERRORS_RETURN).
 *
 * argv[1] = seed for the shuffles (printed). With "fatal_pready", rank 0
 * marks an out-of-range partition under MPI_ERRORS_ARE_FATAL. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size, right, left;
static unsigned seed = 1;

static int error_class(int rc) {
  int cls = -1;
  MPI_Error_class(rc, &cls);
  return cls;
}

/* How a round marks its send partitions ready. */
enum how { ONE_BY_ONE, RANGES, LIST, THREADS };

struct marker {
  MPI_Request request;
  int first, step, parts;
  pthread_mutex_t *lock; /* MPI_THREAD_SERIALIZED: one MPI call at a time */
};

static void *mark_some(void *arg) {
  struct marker *m = arg;
  for (int p = m->first; p < m->parts; p += m->step) {
    pthread_mutex_lock(m->lock);
    MPI_Pready(p, m->request);
    pthread_mutex_unlock(m->lock);
  }
  return NULL;
}

static void mark_all(MPI_Request send, int parts, enum how how) {
  int *order = malloc(sizeof(int) * (parts + 1));
  shuffled_order(order, parts, &seed);
  if (how == ONE_BY_ONE) {
    for (int i = 0; i < parts; ++i) MPI_Pready(order[i], send);
  } else if (how == RANGES) {
    for (int lo = parts - 1; lo >= 0; lo -= 3) MPI_Pready_range(lo >= 2 ? lo - 2 : 0, lo, send);
  } else if (how == LIST) {
    MPI_Pready_list(parts / 2, order, send);
    MPI_Pready_list(parts - parts / 2, order + parts / 2, send);
  } else {
    enum { T = 3 };
    pthread_t threads[T];
    struct marker m[T];
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    for (int t = 0; t < T; ++t) {
      m[t] = (struct marker){send, t, T, parts, &lock};
      pthread_create(&threads[t], NULL, mark_some, &m[t]);
    }
    for (int t = 0; t < T; ++t) pthread_join(threads[t], NULL);
  }
  free(order);
}

/* ROUNDS rounds of a transfer of send_parts x send_bytes, received as
 * recv_parts x (total / recv_parts). */
static void transfer(int send_parts, int send_bytes, int recv_parts, enum how how) {
  enum { ROUNDS = 12 };
  const int total = send_parts * send_bytes, recv_bytes = total / recv_parts;
  unsigned char *out = malloc(total + 1), *in = malloc(total + 1), *want = malloc(total + 1);
  char *seen = malloc(recv_parts);
  memset(out, 0, total + 1);
  MPI_Request send, recv;
  MPI_Psend_init(out, send_parts, send_bytes, MPI_BYTE, right, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &send);
  MPI_Precv_init(in, recv_parts, recv_bytes, MPI_BYTE, left, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &recv);
  for (int round = 0; round < ROUNDS; ++round) {
    fill_pattern(out, total, rank * 100 + round);
    memset(in, 0, total);
    MPI_Request both[2] = {recv, send};
    MPI_Startall(2, both);
    mark_all(send, send_parts, how);
    /* Every receive partition arrives, and holds its bytes once it has. */
    fill_pattern(want, total, left * 100 + round);
    int arrived = 0;
    memset(seen, 0, recv_parts);
    while (arrived < recv_parts) {
      for (int p = 0; p < recv_parts; ++p) {
        int flag = 0;
        if (seen[p]) continue;
        MPI_Parrived(recv, p, &flag);
        if (!flag) continue;
        seen[p] = 1;
        ++arrived;
        CHECK(memcmp(in + p * recv_bytes, want + p * recv_bytes, recv_bytes) == 0,
              "round %d: receive partition %d arrived without its bytes", round, p);
      }
    }
    MPI_Status st[2];
    MPI_Waitall(2, both, st);
    int count = -1;
    MPI_Get_count(&st[0], MPI_BYTE, &count);
    CHECK(both[0] == recv && both[1] == send, "Waitall keeps partitioned handles");
    CHECK(count == total && st[0].MPI_SOURCE == left && st[0].MPI_TAG == 3, "status: count %d source %d tag %d",
          count, st[0].MPI_SOURCE, st[0].MPI_TAG);
    CHECK(pattern_ok(in, total, left * 100 + round), "round %d payload (%d x %d sent as %d parts, mode %d)", round,
          send_parts, send_bytes, recv_parts, (int)how);
  }
  MPI_Request_free(&send);
  MPI_Request_free(&recv);
  free(out);
  free(in);
  free(want);
  free(seen);
}

/* Partition 0 reaches the receiver while the sender still holds the
 * others back: each rank marks partition 0, waits until its own receive's
 * partition 0 has arrived, and only then marks the rest. Were partitions
 * held until all are ready, every rank would wait here for ever. */
static void delivered_as_ready(int bytes) {
  enum { PARTS = 4 };
  unsigned char *out = malloc(PARTS * bytes), *in = malloc(PARTS * bytes);
  fill_pattern(out, PARTS * bytes, rank + 7);
  memset(in, 0, PARTS * bytes);
  MPI_Request send, recv;
  MPI_Psend_init(out, PARTS, bytes, MPI_BYTE, right, 4, MPI_COMM_WORLD, MPI_INFO_NULL, &send);
  MPI_Precv_init(in, PARTS, bytes, MPI_BYTE, left, 4, MPI_COMM_WORLD, MPI_INFO_NULL, &recv);
  MPI_Start(&recv);
  MPI_Start(&send);
  MPI_Pready(0, send);
  int flag = 0;
  while (!flag) MPI_Parrived(recv, 0, &flag);
  CHECK(pattern_ok(in, bytes, left + 7), "partition 0 bytes once it arrived");
  MPI_Pready_range(1, PARTS - 1, send);
  MPI_Wait(&send, MPI_STATUS_IGNORE);
  MPI_Wait(&recv, MPI_STATUS_IGNORE);
  CHECK(pattern_ok(in, PARTS * bytes, left + 7), "whole transfer after early partition");
  MPI_Request_free(&send);
  MPI_Request_free(&recv);
  free(out);
  free(in);
}

/* The sender runs rounds ahead of its receiver, marking its partitions in
 * groups that change from round to round (one range, ranges and single
 * partitions, runs in a list), so a message spanning several partitions
 * is followed by the next round's messages for the partitions it spanned.
 * Round 0's receives are posted before anything arrives; the later rounds'
 * messages wait, unexpected, for their round's MPI_Start. Each round's
 * receive must get that round's bytes, whole. */
static void sender_ahead(int bytes) {
  enum { PARTS = 6, ROUNDS = 6 };
  const int total = PARTS * bytes;
  unsigned char *out = malloc(total), *in = malloc(total);
  memset(out, 0, total);
  memset(in, 0, total);
  MPI_Request send, recv;
  MPI_Psend_init(out, PARTS, bytes, MPI_BYTE, right, 13, MPI_COMM_WORLD, MPI_INFO_NULL, &send);
  MPI_Precv_init(in, PARTS, bytes, MPI_BYTE, left, 13, MPI_COMM_WORLD, MPI_INFO_NULL, &recv);
  /* A first round pairs them, so round 0's receives are posted at once. */
  MPI_Request both[2] = {recv, send};
  MPI_Startall(2, both);
  MPI_Pready_range(0, PARTS - 1, send);
  MPI_Waitall(2, both, MPI_STATUSES_IGNORE);
  MPI_Start(&recv);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int round = 0; round < ROUNDS; ++round) {
    fill_pattern(out, total, rank * 50 + round);
    MPI_Start(&send);
    if (round % 3 == 0) {
      MPI_Pready_range(0, PARTS - 1, send);
    } else if (round % 3 == 1) {
      MPI_Pready_range(3, 5, send);
      MPI_Pready(0, send);
      MPI_Pready_range(1, 2, send);
    } else {
      MPI_Pready_list(PARTS, (int[]){4, 5, 0, 1, 2, 3}, send);
    }
    MPI_Wait(&send, MPI_STATUS_IGNORE); /* small partitions: gone before any receive takes them */
  }
  for (int round = 0; round < ROUNDS; ++round) {
    if (round > 0) MPI_Start(&recv);
    MPI_Status st;
    MPI_Wait(&recv, &st);
    int count = -1;
    MPI_Get_count(&st, MPI_BYTE, &count);
    CHECK(count == total, "ahead round %d: count %d", round, count);
    CHECK(pattern_ok(in, total, left * 50 + round), "ahead round %d payload (%d-byte partitions)", round, bytes);
    memset(in, 0, total);
  }
  MPI_Request_free(&send);
  MPI_Request_free(&recv);
  free(out);
  free(in);
}

/* Two sends with the same tag pair with the receives in the order each
 * side initialised them, whichever starts first; another tag initialised
 * in the other order pairs by tag. */
static void pairing_order(void) {
  int out[3][4], in[3][4];
  MPI_Request s[3], r[3];
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 4; ++k) out[i][k] = rank * 100 + i * 10 + k, in[i][k] = -1;
  MPI_Psend_init(out[0], 2, 2, MPI_INT, right, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &s[0]);
  MPI_Psend_init(out[1], 2, 2, MPI_INT, right, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &s[1]);
  MPI_Psend_init(out[2], 1, 4, MPI_INT, right, 6, MPI_COMM_WORLD, MPI_INFO_NULL, &s[2]);
  MPI_Precv_init(in[2], 4, 1, MPI_INT, left, 6, MPI_COMM_WORLD, MPI_INFO_NULL, &r[2]);
  MPI_Precv_init(in[0], 1, 4, MPI_INT, left, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]);
  MPI_Precv_init(in[1], 4, 1, MPI_INT, left, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]);
  /* Started (and readied) in reverse order on both sides. */
  for (int i = 2; i >= 0; --i) MPI_Start(&r[i]);
  for (int i = 2; i >= 0; --i) {
    MPI_Start(&s[i]);
    MPI_Pready_range(0, i == 2 ? 0 : 1, s[i]);
  }
  MPI_Waitall(3, s, MPI_STATUSES_IGNORE);
  MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 4; ++k)
      CHECK(in[i][k] == left * 100 + i * 10 + k, "pairing: receive %d element %d got %d", i, k, in[i][k]);
  for (int i = 0; i < 3; ++i) {
    MPI_Request_free(&s[i]);
    MPI_Request_free(&r[i]);
  }
}

/* A send freed while its messages still wait, unexpected, at the receiver,
 * and a new send to the same peer with the same tag: the receive paired
 * with the new one, started first, must not take the old one's messages. */
static void freed_then_reinit(void) {
  int a[2] = {rank * 10 + 1, rank * 10 + 2}, b[2] = {rank * 10 + 3, rank * 10 + 4}, ina[2] = {-1, -1},
      inb[2] = {-1, -1};
  MPI_Request sa, sb, ra, rb;
  MPI_Precv_init(ina, 2, 1, MPI_INT, left, 12, MPI_COMM_WORLD, MPI_INFO_NULL, &ra);
  MPI_Precv_init(inb, 2, 1, MPI_INT, left, 12, MPI_COMM_WORLD, MPI_INFO_NULL, &rb);
  MPI_Psend_init(a, 2, 1, MPI_INT, right, 12, MPI_COMM_WORLD, MPI_INFO_NULL, &sa);
  MPI_Start(&sa);
  MPI_Pready_range(0, 1, sa);
  MPI_Wait(&sa, MPI_STATUS_IGNORE); /* small messages: sent before any receive is posted */
  MPI_Request_free(&sa);
  MPI_Psend_init(b, 2, 1, MPI_INT, right, 12, MPI_COMM_WORLD, MPI_INFO_NULL, &sb);
  MPI_Start(&sb);
  MPI_Pready_range(0, 1, sb);
  MPI_Start(&rb);
  MPI_Wait(&rb, MPI_STATUS_IGNORE);
  MPI_Start(&ra);
  MPI_Wait(&ra, MPI_STATUS_IGNORE);
  MPI_Wait(&sb, MPI_STATUS_IGNORE);
  CHECK(ina[0] == left * 10 + 1 && ina[1] == left * 10 + 2, "first receive got %d %d", ina[0], ina[1]);
  CHECK(inb[0] == left * 10 + 3 && inb[1] == left * 10 + 4, "second receive got %d %d", inb[0], inb[1]);
  MPI_Request_free(&sb);
  MPI_Request_free(&ra);
  MPI_Request_free(&rb);
}

/* Inactive requests, MPI_PROC_NULL, and init/free cycles. */
static void lifecycle(void) {
  int v[4] = {1, 2, 3, 4}, w[4], flag = 0;
  MPI_Request send, recv;
  MPI_Status st;
  MPI_Precv_init(w, 2, 2, MPI_INT, left, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &recv);
  MPI_Parrived(recv, 1, &flag);
  CHECK(flag, "Parrived on an inactive request");
  st.MPI_SOURCE = 99;
  MPI_Wait(&recv, &st);
  CHECK(recv != MPI_REQUEST_NULL && st.MPI_SOURCE == MPI_ANY_SOURCE, "Wait on an inactive partitioned request");
  MPI_Request_free(&recv);
  /* MPI_PROC_NULL: nothing travels, every call still works. */
  MPI_Psend_init(v, 4, 1, MPI_INT, MPI_PROC_NULL, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &send);
  MPI_Precv_init(w, 2, 2, MPI_INT, MPI_PROC_NULL, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &recv);
  for (int round = 0; round < 2; ++round) {
    MPI_Start(&send);
    MPI_Start(&recv);
    MPI_Pready_range(0, 3, send);
    MPI_Parrived(recv, 0, &flag);
    CHECK(flag, "PROC_NULL partition arrived");
    MPI_Wait(&send, MPI_STATUS_IGNORE);
    MPI_Wait(&recv, &st);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "PROC_NULL status source %d", st.MPI_SOURCE);
  }
  MPI_Request_free(&send);
  MPI_Request_free(&recv);
  /* Many init / start / free cycles (internal tags are given back). */
  for (int i = 0; i < 50; ++i) {
    MPI_Psend_init(v, 4, 1, MPI_INT, right, 10, MPI_COMM_WORLD, MPI_INFO_NULL, &send);
    MPI_Precv_init(w, 1, 4, MPI_INT, left, 10, MPI_COMM_WORLD, MPI_INFO_NULL, &recv);
    MPI_Start(&recv);
    MPI_Start(&send);
    v[0] = rank * 1000 + i;
    MPI_Pready_list(4, (int[]){3, 1, 0, 2}, send);
    MPI_Wait(&send, MPI_STATUS_IGNORE);
    MPI_Wait(&recv, MPI_STATUS_IGNORE);
    CHECK(w[0] == left * 1000 + i && w[3] == 4, "cycle %d got %d", i, w[0]);
    MPI_Request_free(&send);
    MPI_Request_free(&recv);
  }
}

/* Misuse comes back as an error class and changes nothing. */
static void misuse(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int v[4] = {0}, w[4], flag = 0;
  MPI_Request send, recv, bad = MPI_REQUEST_NULL;
  CHECK(error_class(MPI_Precv_init(w, 4, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &bad)) ==
            MPI_ERR_RANK, "Precv_init from MPI_ANY_SOURCE");
  CHECK(error_class(MPI_Precv_init(w, 4, 1, MPI_INT, left, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &bad)) ==
            MPI_ERR_TAG, "Precv_init with MPI_ANY_TAG");
  CHECK(error_class(MPI_Psend_init(v, -1, 1, MPI_INT, right, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &bad)) == MPI_ERR_ARG,
        "Psend_init with negative partitions");
  CHECK(bad == MPI_REQUEST_NULL, "failed inits leave the handle alone");
  MPI_Psend_init(v, 4, 1, MPI_INT, right, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &send);
  MPI_Precv_init(w, 4, 1, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &recv);
  CHECK(error_class(MPI_Pready(0, send)) == MPI_ERR_REQUEST, "Pready on an inactive request");
  MPI_Start(&recv);
  MPI_Start(&send);
  CHECK(error_class(MPI_Start(&send)) == MPI_ERR_REQUEST, "Start on an active partitioned request");
  CHECK(error_class(MPI_Pready(4, send)) == MPI_ERR_ARG, "Pready beyond the last partition");
  CHECK(error_class(MPI_Pready(-1, send)) == MPI_ERR_ARG, "Pready of partition -1");
  CHECK(error_class(MPI_Pready_range(2, 1, send)) == MPI_ERR_ARG, "Pready_range low > high");
  CHECK(error_class(MPI_Pready_list(1, (int[]){7}, send)) == MPI_ERR_ARG, "Pready_list out of range");
  CHECK(error_class(MPI_Pready(0, recv)) == MPI_ERR_REQUEST, "Pready on a receive");
  CHECK(error_class(MPI_Parrived(send, 0, &flag)) == MPI_ERR_REQUEST, "Parrived on a send");
  CHECK(error_class(MPI_Parrived(recv, 4, &flag)) == MPI_ERR_ARG, "Parrived out of range");
  CHECK(error_class(MPI_Request_free(&send)) == MPI_ERR_REQUEST && send != MPI_REQUEST_NULL,
        "Request_free of an active partitioned request");
  CHECK(error_class(MPI_Cancel(&recv)) == MPI_ERR_REQUEST, "Cancel of an active partitioned request");
  MPI_Pready(1, send);
  CHECK(error_class(MPI_Pready(1, send)) == MPI_ERR_ARG, "Pready twice in a round");
  /* A range over a marked partition marks (and sends) those before it. */
  CHECK(error_class(MPI_Pready_range(0, 2, send)) == MPI_ERR_ARG, "Pready_range over a partition marked already");
  MPI_Pready_range(2, 3, send);
  MPI_Wait(&send, MPI_STATUS_IGNORE);
  MPI_Wait(&recv, MPI_STATUS_IGNORE);
  MPI_Request_free(&send);
  MPI_Request_free(&recv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_rank = rank;
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  if (argc > 1 && strcmp(argv[1], "fatal_pready") == 0) {
    int v[2] = {0, 0};
    MPI_Request send;
    MPI_Psend_init(v, 2, 1, MPI_INT, right, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &send);
    MPI_Start(&send);
    if (rank == 0) MPI_Pready(2, send);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("partitioned: FAIL rank %d survived MPI_Pready out of range\n", rank);
    MPI_Finalize();
    return 1;
  }
  seed = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
  if (rank == 0) printf("partitioned: seed %u\n", seed);
  seed += (unsigned)rank;
  CHECK(provided == MPI_THREAD_SERIALIZED, "provided %d", provided);
  for (int how = ONE_BY_ONE; how <= THREADS; ++how) {
    transfer(8, 1000, 8, how);       /* eager partitions, same partitioning */
    transfer(4, 3000, 6, how);       /* receive partitions span send partitions */
    transfer(6, 2000, 4, how);
    transfer(3, 100000, 5, how);     /* rendezvous partitions */
  }
  transfer(1, 0, 1, ONE_BY_ONE);     /* empty */
  delivered_as_ready(100);
  delivered_as_ready(200000);
  sender_ahead(40);
  sender_ahead(500);
  pairing_order();
  freed_then_reinit();
  lifecycle();
  misuse();
  int rc = check_report("partitioned");
  MPI_Finalize();
  return rc;
}
