/* ring: rank 0 sends a token around all ranks `laps` times (default 3);
 * each rank adds its rank to it. Rank 0 checks the total. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int rank, size, laps = argc > 1 ? atoi(argv[1]) : 3;
  long token = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  for (int lap = 0; lap < laps; ++lap) {
    if (rank == 0) {
      MPI_Send(&token, 1, MPI_LONG, next, lap, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_LONG, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&token, 1, MPI_LONG, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      token += rank;
      MPI_Send(&token, 1, MPI_LONG, next, lap, MPI_COMM_WORLD);
    }
  }
  if (rank == 0) {
    long expected = (long)laps * size * (size - 1) / 2;
    printf("ring: %d ranks, %d laps, token %ld (expected %ld)\n", size, laps, token, expected);
    MPI_Finalize();
    return token == expected ? 0 : 1;
  }
  MPI_Finalize();
  return 0;
}
