/* thread_wake: a thread standing by in MPI_Wait is woken when another
 * thread's call (not a message) ends its wait. Run with
 * test_stand_by_timeout=off, so a missed wake-up hangs instead of costing
 * the stand-by's 10 ms safety timeout.
 *
 * Rank 0: thread "progressor" waits first, in MPI_Recv of a message rank 1
 * sends only at the end, so it progresses the rank; the main thread then
 * waits on a request that a third thread completes without any record
 * arriving:
 *  - pready: a partitioned send whose partitions (eager) that thread marks
 *    ready, one alone and the rest as a range;
 *  - cancel: a receive nobody sends to, which that thread cancels.
 * Then the main thread tells rank 1, which answers the progressor.
 * The sleeps only make the wanted order likely (progressor waiting, then
 * the main thread, then the third thread's call); in any order the
 * program must finish with the same results.
 * Usage: thread_wake pready|cancel */
#include <string.h>
#include <unistd.h>

#include "thread_check.h"

enum { kParts = 4, kPartInts = 16, kTagData = 5, kTagCancel = 6, kTagGo = 7, kTagEnd = 8 };

static MPI_Request shared_request;

static void *progressor(void *arg) {
  (void)arg;
  int word = 0;
  MPI_Recv(&word, 1, MPI_INT, 1, kTagEnd, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  TCHECK(word == 99, "end message: %d", word);
  return NULL;
}

static void *pready_all(void *arg) {
  (void)arg;
  usleep(50000);
  MPI_Pready(0, shared_request);
  MPI_Pready_range(1, kParts - 1, shared_request); /* one message for the rest */
  return NULL;
}

static void *cancel_it(void *arg) {
  (void)arg;
  usleep(50000);
  MPI_Cancel(&shared_request);
  return NULL;
}

static void rank0(int pready) {
  int data[kParts * kPartInts];
  for (int i = 0; i < kParts * kPartInts; ++i) data[i] = 1000 + i;
  pthread_t first, third;
  pthread_create(&first, NULL, progressor, NULL);
  usleep(50000);
  int word = -1;
  if (pready) {
    MPI_Psend_init(data, kParts, kPartInts, MPI_INT, 1, kTagData, MPI_COMM_WORLD, MPI_INFO_NULL, &shared_request);
    MPI_Start(&shared_request);
  } else {
    MPI_Irecv(&word, 1, MPI_INT, 1, kTagCancel, MPI_COMM_WORLD, &shared_request);
  }
  MPI_Request mine = shared_request;
  pthread_create(&third, NULL, pready ? pready_all : cancel_it, NULL);
  MPI_Status st;
  MPI_Wait(&mine, &st);
  if (!pready) {
    int flag = 0;
    MPI_Test_cancelled(&st, &flag);
    TCHECK(flag == 1 && word == -1, "receive cancelled by another thread: flag %d word %d", flag, word);
  }
  pthread_join(third, NULL);
  if (pready) MPI_Request_free(&mine);
  const int go = 1;
  MPI_Send(&go, 1, MPI_INT, 1, kTagGo, MPI_COMM_WORLD);
  pthread_join(first, NULL);
}

static void rank1(int pready) {
  if (pready) {
    int data[kParts * kPartInts];
    memset(data, 0, sizeof data);
    MPI_Request r;
    MPI_Precv_init(data, kParts, kPartInts, MPI_INT, 0, kTagData, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    MPI_Start(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Request_free(&r);
    for (int i = 0; i < kParts * kPartInts; ++i) TCHECK(data[i] == 1000 + i, "element %d: %d", i, data[i]);
  }
  int go = 0;
  MPI_Recv(&go, 1, MPI_INT, 0, kTagGo, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  TCHECK(go == 1, "go message: %d", go);
  const int end = 99;
  MPI_Send(&end, 1, MPI_INT, 0, kTagEnd, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  tc_init(&argc, &argv);
  const int pready = argc > 1 && strcmp(argv[1], "pready") == 0;
  if (argc < 2 || (!pready && strcmp(argv[1], "cancel") != 0)) {
    if (tc_rank == 0) printf("usage: thread_wake pready|cancel\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (tc_rank == 0) rank0(pready);
  else rank1(pready);
  const int rc = tc_report("thread_wake");
  MPI_Finalize();
  return rc;
}
