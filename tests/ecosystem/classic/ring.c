/* ring: the classic shift around a ring. Every rank passes a value to its
 * right neighbour with MPI_Sendrecv, size-1 times, summing what arrives, so
 * each rank ends with the sum of all values. Rank 0 gathers every rank's
 * result with MPI_Recv in rank order and prints them. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank - 1 + size) % size;

  long value = 10L * rank + 1, passing = value, total = value;
  for (int step = 1; step < size; ++step) {
    long arriving;
    MPI_Sendrecv(&passing, 1, MPI_LONG, right, step, &arriving, 1, MPI_LONG, left, step, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    total += arriving;
    passing = arriving;
  }

  if (rank == 0) {
    printf("ring: %d ranks\n", size);
    printf("rank 0: sum %ld\n", total);
    for (int r = 1; r < size; ++r) {
      long theirs;
      MPI_Status status;
      MPI_Recv(&theirs, 1, MPI_LONG, r, 0, MPI_COMM_WORLD, &status);
      printf("rank %d: sum %ld (from source %d)\n", r, theirs, status.MPI_SOURCE);
    }
  } else {
    MPI_Send(&total, 1, MPI_LONG, 0, 0, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
