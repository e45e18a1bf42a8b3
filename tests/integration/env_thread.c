/* env_thread: MPI_Init_thread(required = argv[1]) and the environment
 * queries. Prints one line per rank:
 *   env_thread: rank R required Q provided P query P main 1 worker 0
 * plus "env_thread: rank R OK" when version, library version, processor
 * name and MPI_Wtick check out. MPI_Get_version is called before MPI_Init
 * and after MPI_Finalize, as MPI allows. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int worker_flag = -1;

static void *worker(void *arg) {
  (void)arg;
  MPI_Is_thread_main(&worker_flag);
  return NULL;
}

int main(int argc, char **argv) {
  int version = 0, subversion = 0, failures = 0;
  MPI_Get_version(&version, &subversion);
  if (version != 3 || subversion != 1) ++failures, printf("env_thread: FAIL version %d.%d\n", version, subversion);

  const int required = argc > 1 ? atoi(argv[1]) : MPI_THREAD_SINGLE;
  int provided = -1, query = -1, main_flag = -1, rank;
  MPI_Init_thread(&argc, &argv, required, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Query_thread(&query);
  MPI_Is_thread_main(&main_flag);
  pthread_t thread;
  pthread_create(&thread, NULL, worker, NULL);
  pthread_join(thread, NULL);
  printf("env_thread: rank %d required %d provided %d query %d main %d worker %d\n", rank, required, provided,
         query, main_flag, worker_flag);

  char name[MPI_MAX_PROCESSOR_NAME], host[MPI_MAX_PROCESSOR_NAME] = "";
  char library[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = -1, liblen = -1;
  MPI_Get_processor_name(name, &len);
  gethostname(host, sizeof host);
  if (strcmp(name, host) != 0 || len != (int)strlen(name))
    ++failures, printf("env_thread: FAIL processor name '%s' (%d), host '%s'\n", name, len, host);
  MPI_Get_library_version(library, &liblen);
  if (strncmp(library, "shmpi 0.1.0", 11) != 0 || liblen != (int)strlen(library))
    ++failures, printf("env_thread: FAIL library version '%s'\n", library);
  const double tick = MPI_Wtick();
  if (!(tick > 0 && tick <= 1e-3)) ++failures, printf("env_thread: FAIL MPI_Wtick %g\n", tick);
  if (rank == 0) printf("env_thread: library '%s'\n", library);
  MPI_Finalize();
  version = 0;
  MPI_Get_version(&version, &subversion);
  if (version != 3) ++failures, printf("env_thread: FAIL version after finalize %d\n", version);
  if (failures == 0) printf("env_thread: rank %d OK\n", rank);
  return failures != 0;
}
