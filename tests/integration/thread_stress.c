/* thread_stress: random traffic under MPI_THREAD_MULTIPLE, 2 ranks with
 * `threads` threads each. Thread t exchanges messages with thread t of
 * the other rank (tag t), `total` messages in all: sizes drawn from a
 * seeded generator both sides share (mostly small, some of every
 * protocol), exchanged by Isend/Irecv/Waitall or MPI_Sendrecv, every byte
 * checked. Prints the seed.
 * Usage: thread_stress [total] [threads] [seed] */
#include <stdint.h>
#include <string.h>

#include "thread_check.h"

#define MAXSIZE 300000
static long total = 100000;
static int threads = 4;
static unsigned seed = 12345;

static uint64_t next_random(uint64_t *state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

static size_t draw_size(uint64_t *state) {
  const unsigned kind = (unsigned)(next_random(state) % 100);
  const uint64_t r = next_random(state);
  if (kind < 70) return (size_t)(r % 45);
  if (kind < 92) return (size_t)(r % 8193);
  if (kind < 99) return (size_t)(r % 140000);
  return (size_t)(r % MAXSIZE);
}

static void *thread_main(void *arg) {
  const long t = (long)arg;
  const int peer = 1 - tc_rank, tag = (int)t;
  unsigned char *out = malloc(MAXSIZE), *in = malloc(MAXSIZE);
  uint64_t state = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)seed << 20) ^ (uint64_t)(t + 1);
  const long rounds = total / (2 * threads);
  for (long i = 0; i < rounds; ++i) {
    const size_t mine = draw_size(&state), theirs = draw_size(&state);
    const size_t send_n = tc_rank == 0 ? mine : theirs, recv_n = tc_rank == 0 ? theirs : mine;
    const unsigned send_key = (unsigned)(i * 8 + t * 2 + tc_rank), recv_key = (unsigned)(i * 8 + t * 2 + peer);
    tc_fill(out, send_n, send_key);
    MPI_Status st;
    if (next_random(&state) % 2 == 0) {
      MPI_Request r[2];
      MPI_Irecv(in, MAXSIZE, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &r[0]);
      MPI_Isend(out, (int)send_n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &r[1]);
      MPI_Status sts[2];
      MPI_Waitall(2, r, sts);
      st = sts[0];
    } else {
      MPI_Sendrecv(out, (int)send_n, MPI_BYTE, peer, tag, in, MAXSIZE, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &st);
    }
    int got = -1;
    MPI_Get_count(&st, MPI_BYTE, &got);
    TCHECK(got == (int)recv_n, "thread %ld message %ld: %d bytes, expected %zu", t, i, got, recv_n);
    if (got == (int)recv_n) {
      const long bad = tc_first_bad(in, recv_n, recv_key);
      TCHECK(bad < 0, "thread %ld message %ld (%zu bytes): byte %ld wrong", t, i, recv_n, bad);
    }
  }
  free(out);
  free(in);
  return NULL;
}

int main(int argc, char **argv) {
  tc_init(&argc, &argv);
  if (argc > 1) total = atol(argv[1]);
  if (argc > 2) threads = atoi(argv[2]);
  if (argc > 3) seed = (unsigned)strtoul(argv[3], NULL, 10);
  if (threads < 1 || threads > 16) threads = 4;
  if (tc_rank == 0) printf("thread_stress: seed %u, %ld messages, %d threads per rank\n", seed, total, threads);
  tc_run_threads(threads, thread_main);
  MPI_Finalize();
  return tc_report("thread_stress");
}
