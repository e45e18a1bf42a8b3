/* thread_comm: communicators and requests made, used and freed from
 * several threads at once under MPI_THREAD_MULTIPLE (2 ranks, 4 threads):
 *  - thread t dups its own communicator (made by the main thread), sends
 *    and receives on the copy with thread t of the other rank, frees a
 *    send request with MPI_Request_free, then frees the copy; K times;
 *  - on rank 0, thread 0 posts a receive that thread 1 cancels; thread 0
 *    then sees it cancelled, and a message sent afterwards with the same
 *    envelope reaches a new receive intact.
 * Usage: thread_comm [K] */
#include <string.h>

#include "thread_check.h"

#define THREADS 4
static int K = 40;
static MPI_Comm mine[THREADS];
static MPI_Request shared_request = MPI_REQUEST_NULL;
static pthread_barrier_t pair;  /* rank 0's threads 0 and 1 */

static void dup_and_talk(long t) {
  const int peer = 1 - tc_rank;
  for (int k = 0; k < K; ++k) {
    MPI_Comm c;
    MPI_Comm_dup(mine[t], &c);
    int out[4] = {tc_rank, (int)t, k, 12345}, in[4] = {-1, -1, -1, -1};
    MPI_Sendrecv(out, 4, MPI_INT, peer, k, in, 4, MPI_INT, peer, k, c, MPI_STATUS_IGNORE);
    TCHECK(in[0] == peer && in[1] == t && in[2] == k && in[3] == 12345, "thread %ld dup %d: got %d %d %d %d", t, k,
           in[0], in[1], in[2], in[3]);
    MPI_Request r;
    unsigned char payload[200], got[200];
    tc_fill(payload, sizeof payload, (unsigned)(t * 100 + k));
    MPI_Isend(payload, sizeof payload, MPI_BYTE, peer, 77, c, &r);
    MPI_Recv(got, sizeof got, MPI_BYTE, peer, 77, c, MPI_STATUS_IGNORE);
    MPI_Request_free(&r);  /* completes on its own; the copy's traffic must drain */
    TCHECK(tc_first_bad(got, sizeof got, (unsigned)(t * 100 + k)) < 0, "thread %ld dup %d: payload wrong", t, k);
    MPI_Barrier(c);  /* the partner's send from `payload` is done before we reuse it */
    MPI_Comm_free(&c);
    TCHECK(c == MPI_COMM_NULL, "thread %ld: freed communicator not nulled", t);
  }
}

/* Rank 0: thread 0 posts, thread 1 cancels; rank 1's thread 0 sends the
 * real message once told the cancel is over. */
static void cancel_case(long t) {
  int word = -1, flag = 0;
  if (tc_rank == 0 && t == 0) {
    MPI_Irecv(&word, 1, MPI_INT, 1, 999, MPI_COMM_WORLD, &shared_request);
    MPI_Request mine_request = shared_request;
    pthread_barrier_wait(&pair); /* posted */
    pthread_barrier_wait(&pair); /* cancelled by thread 1 */
    MPI_Status st;
    MPI_Wait(&mine_request, &st);
    MPI_Test_cancelled(&st, &flag);
    TCHECK(flag == 1 && word == -1, "receive cancelled by another thread: flag %d word %d", flag, word);
    MPI_Send(&flag, 1, MPI_INT, 1, 998, MPI_COMM_WORLD); /* go */
    MPI_Recv(&word, 1, MPI_INT, 1, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    TCHECK(word == 4242, "message after the cancel: %d", word);
  } else if (tc_rank == 0 && t == 1) {
    pthread_barrier_wait(&pair);
    MPI_Request r = shared_request;
    MPI_Cancel(&r);
    pthread_barrier_wait(&pair);
  } else if (tc_rank == 1 && t == 0) {
    MPI_Recv(&flag, 1, MPI_INT, 0, 998, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    word = 4242;
    MPI_Send(&word, 1, MPI_INT, 0, 999, MPI_COMM_WORLD);
  }
}

static void *thread_main(void *arg) {
  const long t = (long)arg;
  cancel_case(t);
  dup_and_talk(t);
  return NULL;
}

int main(int argc, char **argv) {
  tc_init(&argc, &argv);
  if (argc > 1) K = atoi(argv[1]);
  pthread_barrier_init(&pair, NULL, 2);
  for (int t = 0; t < THREADS; ++t) MPI_Comm_dup(MPI_COMM_WORLD, &mine[t]);
  tc_run_threads(THREADS, thread_main);
  for (int t = 0; t < THREADS; ++t) MPI_Comm_free(&mine[t]);
  pthread_barrier_destroy(&pair);
  MPI_Finalize();
  return tc_report("thread_comm");
}
