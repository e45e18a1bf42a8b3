/* killed_mid_exchange: ranks pass messages around a ring; after some laps
 * rank 1 kills itself with SIGKILL while the others wait on it. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int rank, size;
  static char buf[100000];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  for (int lap = 0;; ++lap) {
    if (rank == 1 && lap == 50) {
      printf("rank 1: killing myself\n");
      fflush(stdout);
      kill(getpid(), SIGKILL);
    }
    if (rank == 0) {
      MPI_Send(buf, sizeof buf, MPI_BYTE, next, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, sizeof buf, MPI_BYTE, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, sizeof buf, MPI_BYTE, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, sizeof buf, MPI_BYTE, next, 0, MPI_COMM_WORLD);
    }
  }
}
