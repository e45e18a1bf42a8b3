/* env_misuse: MPI calls outside MPI_Init..MPI_Finalize stop the process
 * with one line. argv[1]: "before" calls MPI_Comm_size before MPI_Init;
 * "after" calls MPI_Bcast after MPI_Finalize; "twice" calls MPI_Init
 * twice. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "before";
  int size = 0, value = 0, flag = -1;
  MPI_Initialized(&flag); /* allowed at any time */
  if (strcmp(mode, "before") == 0) MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Init(&argc, &argv);
  if (strcmp(mode, "twice") == 0) MPI_Init(&argc, &argv);
  MPI_Finalize();
  MPI_Finalized(&flag);
  printf("env_misuse: finalized %d\n", flag);
  fflush(stdout);
  if (strcmp(mode, "after") == 0) MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
  printf("env_misuse: still running\n");
  return 0;
}
