/* pi: the classic first MPI program. Integrates 4/(1+x^2) over [0,1] with
 * the midpoint rule, intervals dealt round-robin to ranks, partial sums
 * combined with MPI_Reduce and the interval count shared with MPI_Bcast.
 * Rank 0 prints pi to 10 decimals. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int rank, size, n = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) n = argc > 1 ? atoi(argv[1]) : 1000000;
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);

  double h = 1.0 / n, sum = 0.0;
  for (int i = rank; i < n; i += size) {
    double x = h * (i + 0.5);
    sum += 4.0 / (1.0 + x * x);
  }
  double mine = h * sum, pi = 0.0;
  MPI_Reduce(&mine, &pi, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);

  if (rank == 0) {
    const double pi25 = 3.141592653589793238462643;
    printf("pi: %d intervals on %d ranks\n", n, size);
    printf("pi is approximately %.10f, error below 1e-10: %s\n", pi, fabs(pi - pi25) < 1e-10 ? "yes" : "no");
  }
  MPI_Finalize();
  return 0;
}
