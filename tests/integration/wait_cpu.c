/* wait_cpu: rank 1 sleeps SECONDS (argv[1], default 1) before sending;
 * rank 0 measures the CPU time it burns inside MPI_Recv meanwhile and
 * prints it. Under a yielding/sleeping wait policy it must stay small. */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 1.0, limit = argc > 2 ? atof(argv[2]) : 1e9;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
  int v = 42;
  if (check_rank == 1) {
    usleep((useconds_t)(seconds * 1e6));
    MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  } else if (check_rank == 0) {
    v = 0;
    double before = cpu_seconds();
    MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double used = cpu_seconds() - before;
    printf("wait_cpu: waited %.1f s using %.3f s of CPU\n", seconds, used);
    CHECK(v == 42, "payload %d", v);
    CHECK(used < limit, "used %.3f s of CPU, limit %.3f s", used, limit);
  }
  int rc = check_report("wait_cpu");
  MPI_Finalize();
  return rc;
}
