/* wait_sleeps: a rank blocked in MPI_Recv gives up its core and sleeps.
 * Rank 0 sends its pid to rank 1 and blocks in MPI_Recv; rank 1 watches
 * rank 0's scheduler state in /proc and sends only once rank 0 sleeps
 * ('S'). A rank that never sleeps (spinning, or only yielding, which keeps
 * it runnable) makes this case hang until its timeout: no clock is read, so
 * a loaded machine cannot fail it. */
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "check.h"
#include "proc_state.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
  int v = 42;
  if (check_rank == 0) {
    int pid = (int)getpid();
    MPI_Send(&pid, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    v = 0;
    MPI_Recv(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(v == 42, "payload %d", v);
  } else if (check_rank == 1) {
    int pid = 0;
    MPI_Recv(&pid, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    char state;
    while ((state = proc_state((pid_t)pid)) != 'S') {
      CHECK(state != 0, "cannot read the state of pid %d", pid);
      if (state == 0) break;
      usleep(1000);
    }
    printf("wait_sleeps: rank 0 sleeps in MPI_Recv\n");
    MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
  }
  int rc = check_report("wait_sleeps");
  MPI_Finalize();
  return rc;
}
