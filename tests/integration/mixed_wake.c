/* mixed_wake: a rank with peers on both paths wakes at once for a local
 * peer's message. Under --fake-nodes 2 with 3 ranks, ranks 0 and 2 share a
 * node and rank 1 is on the other; rank 1 stays silent (it waits for one
 * message at the end), so ranks 0 and 2 sleep where a remote peer could
 * wake them, while they ping-pong ROUNDS times. Before each message the
 * sender waits until the receiver sleeps ('S' in /proc), so every message
 * meets a sleeping receiver. Run with test_sleep_at_once=on: a sleep that a
 * local message does not end lasts 1 s, so a rank that sleeps only on the
 * network's fd needs ROUNDS * 2 s or so and hangs until ctest's timeout;
 * one that wakes needs well under a second. No clock is read: the timeout
 * is a hang check, not a speed assertion. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "check.h"
#include "proc_state.h"

static void wait_until_asleep(pid_t pid) {
  char state;
  while ((state = proc_state(pid)) != 'S') {
    CHECK(state != 0, "cannot read the state of pid %d", (int)pid);
    if (state == 0) return;
    sched_yield();
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rounds = argc > 1 ? atoi(argv[1]) : 1000;
  CHECK(size == 3, "needs 3 ranks, has %d", size);
  if (size != 3) MPI_Abort(MPI_COMM_WORLD, 1);
  if (check_rank == 1) {
    int done = 0;
    MPI_Recv(&done, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(done == rounds, "done message %d, expected %d", done, rounds);
  } else {
    const int peer = 2 - check_rank;
    int pid = (int)getpid(), peer_pid = 0;
    MPI_Sendrecv(&pid, 1, MPI_INT, peer, 0, &peer_pid, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < rounds; ++i) {
      int msg[2];
      if ((i % 2 == 0) == (check_rank == 0)) { /* rank 0 sends on even rounds, rank 2 on odd */
        msg[0] = i;
        msg[1] = i * 7 + check_rank;
        wait_until_asleep((pid_t)peer_pid);
        MPI_Send(msg, 2, MPI_INT, peer, 1, MPI_COMM_WORLD);
      } else {
        MPI_Status status;
        MPI_Recv(msg, 2, MPI_INT, peer, 1, MPI_COMM_WORLD, &status);
        CHECK(msg[0] == i && msg[1] == i * 7 + peer, "round %d: got %d %d", i, msg[0], msg[1]);
        CHECK(status.MPI_SOURCE == peer, "round %d: source %d", i, status.MPI_SOURCE);
      }
    }
    if (check_rank == 0) {
      MPI_Send(&rounds, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
      printf("mixed_wake: %d messages with a local peer while a remote one was silent\n", rounds);
    }
  }
  int rc = check_report("mixed_wake");
  MPI_Finalize();
  return rc;
}
