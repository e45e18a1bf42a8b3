/* thread_any: wildcard and matched-probe receives under
 * MPI_THREAD_MULTIPLE, 2 ranks, 5 threads each, all at once:
 *  - rank 1's threads 0-2 each send N messages (tag = thread, sizes of
 *    every protocol) to rank 0's thread 0, which receives them all with
 *    MPI_ANY_SOURCE/MPI_ANY_TAG and checks each stream's order and bytes;
 *  - rank 1's thread 3 sends 2M numbered messages that rank 0's threads 1
 *    and 2 compete for with MPI_Mprobe(ANY, ANY) + MPI_Mrecv, M each:
 *    every message must be received exactly once, intact;
 *  - rank 0's thread 3 sends M messages that rank 1's thread 4 receives.
 * Usage: thread_any [N] [M] */
#include <string.h>

#include "thread_check.h"

#define MAXSIZE 140000
static const size_t kSizes[] = {4, 45, 9000, 140000};
static int N = 300, M = 500;
static MPI_Comm any_comm, mprobe_comm;
static atomic_int seen[100000];

static size_t mprobe_size(int i) { return 8 + (size_t)(i % 4) * 3000; }

static void any_receiver(unsigned char *buf) {
  int next[3] = {0, 0, 0};
  for (int k = 0; k < 3 * N; ++k) {
    MPI_Status st;
    int got = -1;
    MPI_Recv(buf, MAXSIZE, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, any_comm, &st);
    MPI_Get_count(&st, MPI_BYTE, &got);
    if (st.MPI_SOURCE != 1 || st.MPI_TAG < 0 || st.MPI_TAG > 2) {
      TCHECK(0, "message from %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
      continue;
    }
    const int i = next[st.MPI_TAG]++;
    const size_t n = kSizes[i % 4];
    TCHECK(got == (int)n, "tag %d message %d: %d bytes, expected %zu", st.MPI_TAG, i, got, n);
    if (got == (int)n) {
      const long bad = tc_first_bad(buf, n, (unsigned)(st.MPI_TAG * 10000 + i));
      TCHECK(bad < 0, "tag %d message %d: byte %ld wrong", st.MPI_TAG, i, bad);
    }
  }
}

static void mprobe_receiver(unsigned char *buf) {
  for (int k = 0; k < M; ++k) {
    MPI_Message m;
    MPI_Status st;
    int count = -1, got = -1;
    MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, mprobe_comm, &m, &st);
    MPI_Get_count(&st, MPI_BYTE, &count);
    MPI_Mrecv(buf, count, MPI_BYTE, &m, &st);
    MPI_Get_count(&st, MPI_BYTE, &got);
    const int i = st.MPI_TAG;
    TCHECK(i >= 0 && i < 2 * M && got == count && (size_t)got == mprobe_size(i), "message tag %d: %d/%d bytes", i,
           got, count);
    if (i < 0 || i >= 2 * M) continue;
    TCHECK(atomic_fetch_add(&seen[i], 1) == 0, "message %d received twice", i);
    const long bad = tc_first_bad(buf, (size_t)got, (unsigned)(50000 + i));
    TCHECK(bad < 0, "message %d: byte %ld wrong", i, bad);
  }
}

static void sender(int count, int dest, int tag0, MPI_Comm comm, unsigned char *buf, int numbered) {
  for (int i = 0; i < count; ++i) {
    const size_t n = numbered ? mprobe_size(i) : kSizes[i % 4];
    const unsigned key = numbered ? (unsigned)(50000 + i) : (unsigned)(tag0 * 10000 + i);
    tc_fill(buf, n, key);
    MPI_Send(buf, (int)n, MPI_BYTE, dest, numbered ? i : tag0, comm);
  }
}

static void *thread_main(void *arg) {
  const long t = (long)arg;
  unsigned char *buf = malloc(MAXSIZE);
  if (tc_rank == 1 && t < 3) sender(N, 0, (int)t, any_comm, buf, 0);
  if (tc_rank == 1 && t == 3) sender(2 * M, 0, 0, mprobe_comm, buf, 1);
  if (tc_rank == 0 && t == 0) any_receiver(buf);
  if (tc_rank == 0 && (t == 1 || t == 2)) mprobe_receiver(buf);
  if (tc_rank == 0 && t == 3) sender(M, 1, 7, MPI_COMM_WORLD, buf, 0);
  if (tc_rank == 1 && t == 4) {
    for (int i = 0; i < M; ++i) {
      const size_t n = kSizes[i % 4];
      MPI_Recv(buf, (int)n, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      const long bad = tc_first_bad(buf, n, (unsigned)(7 * 10000 + i));
      TCHECK(bad < 0, "world message %d: byte %ld wrong", i, bad);
    }
  }
  free(buf);
  return NULL;
}

int main(int argc, char **argv) {
  tc_init(&argc, &argv);
  if (argc > 1) N = atoi(argv[1]);
  if (argc > 2) M = atoi(argv[2]);
  if (2 * M > 100000) M = 50000;
  MPI_Comm_dup(MPI_COMM_WORLD, &any_comm);
  MPI_Comm_dup(MPI_COMM_WORLD, &mprobe_comm);
  tc_run_threads(5, thread_main);
  if (tc_rank == 0)
    for (int i = 0; i < 2 * M; ++i) TCHECK(atomic_load(&seen[i]) == 1, "message %d received %d times", i, seen[i]);
  MPI_Comm_free(&any_comm);
  MPI_Comm_free(&mprobe_comm);
  MPI_Finalize();
  return tc_report("thread_any");
}
