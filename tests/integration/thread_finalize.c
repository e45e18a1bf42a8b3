/* thread_finalize: MPI_Finalize under MPI_THREAD_MULTIPLE while other
 * threads are not done (2 ranks).
 *  pending: on rank 0 a worker leaves an MPI_Irecv (tag 7) pending and
 *    another is blocked in MPI_Ssend (tag 8) that rank 1 only probes; rank
 *    0's MPI_Finalize must list both, one line each, and fail.
 *  race: on rank 0 a worker calls MPI_Comm_size in a loop while the main
 *    thread finalizes: the worker's first call after (or during) the
 *    finalize fails with one line naming it.
 * Usage: thread_finalize pending|race */
#include <string.h>

#include "thread_check.h"

static int word = 0;
static MPI_Request pending_request;

static void *post_and_leave(void *arg) {
  (void)arg;
  MPI_Irecv(&word, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &pending_request);
  return NULL;
}

static void *block_in_ssend(void *arg) {
  (void)arg;
  MPI_Ssend(&word, 1, MPI_INT, 1, 8, MPI_COMM_WORLD);  /* never received */
  return NULL;
}

static void *ask_size_forever(void *arg) {
  (void)arg;
  for (;;) {
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
  return NULL;
}

static void pending(void) {
  if (tc_rank == 0) {
    pthread_t poster, sender;
    pthread_create(&poster, NULL, post_and_leave, NULL);
    pthread_join(poster, NULL);
    pthread_create(&sender, NULL, block_in_ssend, NULL);
    int ready = 0;
    /* Rank 1 saw the Ssend's message, so the sender is in its wait. */
    MPI_Recv(&ready, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("thread_finalize: rank 0 finalizing\n");
    fflush(stdout);
    MPI_Finalize();
    printf("thread_finalize: FAIL MPI_Finalize returned\n");
  } else {
    MPI_Status st;
    int ready = 1;
    MPI_Probe(0, 8, MPI_COMM_WORLD, &st);
    MPI_Send(&ready, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    MPI_Finalize();
  }
}

static void race(void) {
  pthread_t asker;
  if (tc_rank == 0) pthread_create(&asker, NULL, ask_size_forever, NULL);
  MPI_Finalize();
  if (tc_rank == 0) pthread_join(asker, NULL);  /* ends the process through the asker's error */
}

int main(int argc, char **argv) {
  tc_init(&argc, &argv);
  const char *mode = argc > 1 ? argv[1] : "pending";
  if (strcmp(mode, "race") == 0) {
    race();
    /* Rank 1 ends cleanly: a failing exit of its own could make shmpirun
     * stop rank 0 before its asker prints the line under test. */
    return tc_rank == 0 ? 3 : 0;
  }
  pending();
  return 3;
}
