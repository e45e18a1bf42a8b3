/* thread_fair: a thread that calls MPI in a tight loop does not starve
 * another thread of the rank. On each of two ranks, a "poller" thread
 * spins on MPI_Test of a receive that completes only at the end, while
 * the main thread ping-pongs `rounds` messages with the other rank's main
 * thread (each payload checked), then sends the message that ends the
 * other rank's poller. A lock that let the poller take every turn would
 * stop the ping-pong (the case then times out: a hang check, not a speed
 * check).
 * Usage: thread_fair rounds */
#include "thread_check.h"

enum { kTagPing = 1, kTagEnd = 2 };

static void *poller(void *arg) {
  MPI_Request *end = arg;
  int done = 0;
  long polls = 0;
  while (!done) {
    MPI_Test(end, &done, MPI_STATUS_IGNORE);
    ++polls;
  }
  TCHECK(polls > 0, "poller never polled");
  return NULL;
}

int main(int argc, char **argv) {
  tc_init(&argc, &argv);
  const int rounds = argc > 1 ? atoi(argv[1]) : 10000;
  const int peer = 1 - tc_rank;
  int end_word = -1;
  MPI_Request end;
  MPI_Irecv(&end_word, 1, MPI_INT, peer, kTagEnd, MPI_COMM_WORLD, &end);
  pthread_t thread;
  pthread_create(&thread, NULL, poller, &end);
  for (int i = 0; i < rounds; ++i) {
    int word = tc_rank == 0 ? 2 * i : -1;
    if (tc_rank == 0) {
      MPI_Send(&word, 1, MPI_INT, peer, kTagPing, MPI_COMM_WORLD);
      MPI_Recv(&word, 1, MPI_INT, peer, kTagPing, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      TCHECK(word == 2 * i + 1, "round %d: reply %d", i, word);
    } else {
      MPI_Recv(&word, 1, MPI_INT, peer, kTagPing, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      TCHECK(word == 2 * i, "round %d: ping %d", i, word);
      word += 1;
      MPI_Send(&word, 1, MPI_INT, peer, kTagPing, MPI_COMM_WORLD);
    }
  }
  const int bye = 100 + tc_rank;
  MPI_Send(&bye, 1, MPI_INT, peer, kTagEnd, MPI_COMM_WORLD);
  pthread_join(thread, NULL);
  TCHECK(end_word == 100 + peer, "end word %d", end_word);
  const int rc = tc_report("thread_fair");
  MPI_Finalize();
  return rc;
}
