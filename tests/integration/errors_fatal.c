/* errors_fatal: with the default handler (MPI_ERRORS_ARE_FATAL) one bad
 * call on the last rank stops the job with one line naming rank, call and
 * reason; the other ranks wait in MPI_Barrier. argv[1] picks the error:
 * rank, dup-rank (on a duplicate of MPI_COMM_WORLD), root, op, uncommitted
 * (a send with a datatype never committed), free-world. What the failing
 * rank printed before (held in stdio's buffer: stdout is a pipe) is kept. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "rank";
  int rank, size, value = 1, out = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm dup, world = MPI_COMM_WORLD;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  if (rank == size - 1) {
    printf("errors_fatal: rank %d about to fail\n", rank);
    if (strcmp(mode, "rank") == 0) MPI_Send(&value, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    if (strcmp(mode, "dup-rank") == 0) MPI_Send(&value, 1, MPI_INT, -7, 0, dup);
    if (strcmp(mode, "root") == 0) MPI_Bcast(&value, 1, MPI_INT, size + 3, MPI_COMM_WORLD);
    if (strcmp(mode, "op") == 0) {
      float f = 1.0f, g;
      MPI_Allreduce(&f, &g, 1, MPI_FLOAT, MPI_BAND, MPI_COMM_WORLD);
    }
    if (strcmp(mode, "uncommitted") == 0) {
      MPI_Datatype t;
      double d[8] = {0};
      MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &t);
      MPI_Send(d, 1, t, 0, 0, MPI_COMM_WORLD);
    }
    if (strcmp(mode, "free-world") == 0) MPI_Comm_free(&world);
    printf("errors_fatal: rank %d survived a fatal error\n", rank);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Allreduce(&value, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  printf("errors_fatal: rank %d finished\n", rank);
  MPI_Finalize();
  return 0;
}
