/* order: rank 0 sends N messages (default 10000) with one tag and mixed
 * sizes to rank 1, which checks they arrive in send order. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int rank, n = argc > 1 ? atoi(argv[1]) : 10000, bad = 0;
  static int buf[8192];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < n; ++i) {
    int words = 1 + (i % 7 == 0 ? 4000 : i % 13); /* some eager, some fragmented */
    if (rank == 0) {
      for (int w = 0; w < words; ++w) buf[w] = i + w;
      MPI_Send(buf, words, MPI_INT, 1, 42, MPI_COMM_WORLD);
    } else if (rank == 1) {
      MPI_Status st;
      int count;
      MPI_Recv(buf, 8192, MPI_INT, 0, 42, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_INT, &count);
      if (count != words || buf[0] != i || buf[words - 1] != i + words - 1) {
        if (!bad) printf("order: message %d arrived out of order (got %d, %d words)\n", i, buf[0], count);
        bad = 1;
      }
    }
  }
  if (rank == 1) printf("order: %d messages %s\n", n, bad ? "OUT OF ORDER" : "in order");
  MPI_Finalize();
  return bad;
}
