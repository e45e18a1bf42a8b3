/* abort_flush: rank 1 prints why it stops (to stdout, not flushed: through
 * a pipe it is still in the stdio buffer) and calls MPI_Abort with code 7;
 * the line must reach the user, as with Open MPI and MPICH. The other ranks
 * wait in a receive that never completes. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank, v = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1) {
    printf("abort_flush: rank 1 aborts: input file has 3 columns, expected 4\n");
    printf("abort_flush: rank 1 last words");  /* no newline either */
    fprintf(stderr, "abort_flush: rank 1 stderr line\n");
    MPI_Abort(MPI_COMM_WORLD, 7);
  }
  MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  printf("abort_flush: FAIL rank %d received after the abort\n", rank);
  MPI_Finalize();
  return 0;
}
