/* thread_p2p: MPI_THREAD_MULTIPLE point-to-point between 2 ranks.
 * Thread t of rank 0 and thread t of rank 1 are partners (tag t) and,
 * all threads at once:
 *  - ping-pong every size across the protocol boundaries (fast box,
 *    eager, pipelined, rendezvous, split single copy), taking turns
 *    between blocking calls, nonblocking ones and Mprobe + Mrecv, and
 *    check every byte;
 *  - send a burst of messages of mixed protocols which must match in the
 *    order they were sent (MPI's order within one thread).
 * Usage: thread_p2p [threads] */
#include <stdint.h>
#include <string.h>

#include "thread_check.h"

static const size_t kSizes[] = {0, 1, 44, 45, 100, 2047, 2049, 8191, 8192, 8193,
                                16384, 16385, 65536, 131071, 131072, 131073, 300001};
#define NSIZES (sizeof kSizes / sizeof kSizes[0])
#define MAXSIZE 300001
#define REPS 3
#define BURST 30

static unsigned key_of(long t, size_t s, int rep, int dir) { return (unsigned)(t * 100000 + s * 100 + rep * 2 + dir); }

/* Receives `n` bytes from `peer` with tag `tag` in one of three ways. */
static void receive(unsigned char *buf, size_t n, int peer, int tag, int way) {
  MPI_Status st;
  if (way == 0) {
    MPI_Recv(buf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &st);
  } else if (way == 1) {
    MPI_Request r;
    MPI_Irecv(buf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, &st);
  } else {
    MPI_Message m;
    int count = -1;
    MPI_Mprobe(peer, tag, MPI_COMM_WORLD, &m, &st);
    MPI_Get_count(&st, MPI_BYTE, &count);
    TCHECK(count == (int)n, "mprobe count %d, expected %zu (tag %d)", count, n, tag);
    MPI_Mrecv(buf, (int)n, MPI_BYTE, &m, &st);
  }
  int got = -1;
  MPI_Get_count(&st, MPI_BYTE, &got);
  TCHECK(got == (int)n && st.MPI_SOURCE == peer && st.MPI_TAG == tag, "received %d bytes from %d tag %d, expected %zu",
         got, st.MPI_SOURCE, st.MPI_TAG, n);
}

static void send(const unsigned char *buf, size_t n, int peer, int tag, int way) {
  if (way == 0) {
    MPI_Send(buf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
  } else if (way == 1) {
    MPI_Request r;
    MPI_Isend(buf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  } else {
    MPI_Ssend(buf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
  }
}

static void ping_pong(long t, unsigned char *buf) {
  const int peer = 1 - tc_rank, tag = (int)t;
  for (size_t s = 0; s < NSIZES; ++s) {
    for (int rep = 0; rep < REPS; ++rep) {
      const size_t n = kSizes[s];
      const int way = (int)((rep + t) % 3);
      for (int dir = 0; dir < 2; ++dir) {
        const unsigned key = key_of(t, s, rep, dir);
        if (tc_rank == dir) {
          tc_fill(buf, n, key);
          send(buf, n, peer, tag, way);
        } else {
          memset(buf, 0xee, n);
          receive(buf, n, peer, tag, way);
          const long bad = tc_first_bad(buf, n, key);
          TCHECK(bad < 0, "thread %ld size %zu rep %d: byte %ld wrong", t, n, rep, bad);
        }
      }
    }
  }
}

/* Rank 0 sends BURST messages at once (sizes cycling through protocols),
 * rank 1 receives them one by one: the i-th receive gets the i-th send. */
static void burst(long t, unsigned char *buf) {
  static const size_t kBurstSizes[] = {8, 9000, 140000, 40, 30000};
  const int tag = 100 + (int)t;
  if (tc_rank == 0) {
    MPI_Request requests[BURST];
    unsigned char *bufs[BURST];
    for (int i = 0; i < BURST; ++i) {
      const size_t n = kBurstSizes[i % 5];
      bufs[i] = malloc(n);
      tc_fill(bufs[i], n, (unsigned)(t * 1000 + i));
      MPI_Isend(bufs[i], (int)n, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &requests[i]);
    }
    MPI_Waitall(BURST, requests, MPI_STATUSES_IGNORE);
    for (int i = 0; i < BURST; ++i) free(bufs[i]);
  } else {
    for (int i = 0; i < BURST; ++i) {
      const size_t n = kBurstSizes[i % 5];
      MPI_Status st;
      int got = -1;
      MPI_Recv(buf, MAXSIZE, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_BYTE, &got);
      TCHECK(got == (int)n, "thread %ld burst message %d: %d bytes, expected %zu (out of order)", t, i, got, n);
      if (got == (int)n) {
        const long bad = tc_first_bad(buf, n, (unsigned)(t * 1000 + i));
        TCHECK(bad < 0, "thread %ld burst message %d: byte %ld wrong (out of order?)", t, i, bad);
      }
    }
  }
}

static void *thread_main(void *arg) {
  const long t = (long)arg;
  unsigned char *buf = malloc(MAXSIZE);
  ping_pong(t, buf);
  burst(t, buf);
  free(buf);
  return NULL;
}

int main(int argc, char **argv) {
  tc_init(&argc, &argv);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  TCHECK(size == 2, "needs 2 ranks, has %d", size);
  const int threads = argc > 1 ? atoi(argv[1]) : 4;
  tc_run_threads(threads, thread_main);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return tc_report("thread_p2p");
}
