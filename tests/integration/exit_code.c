/* exit_code: every rank finalizes; rank R (argv[1], default 1) then
 * returns CODE (argv[2], default 3). */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int rank, who = argc > 1 ? atoi(argv[1]) : 1, code = argc > 2 ? atoi(argv[2]) : 3;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Finalize();
  return rank == who ? code : 0;
}
