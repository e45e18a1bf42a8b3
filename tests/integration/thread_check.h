/* Helpers of the MPI_THREAD_MULTIPLE test programs (thread_*.c): checks
 * that any thread may fail, a patterned payload, and start-up at
 * MPI_THREAD_MULTIPLE. Each program prints "<name>: rank R OK" when
 * nothing failed, and "FAIL ..." lines otherwise. */
#ifndef SHMPI_TESTS_THREAD_CHECK_H
#define SHMPI_TESTS_THREAD_CHECK_H

#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static int tc_rank = -1;
static atomic_int tc_failures;

#define TCHECK(cond, ...)                                                     \
  do {                                                                        \
    if (!(cond)) {                                                            \
      flockfile(stdout);                                                      \
      printf("FAIL rank %d line %d: %s: ", tc_rank, __LINE__, #cond);        \
      printf(__VA_ARGS__);                                                    \
      printf("\n");                                                           \
      fflush(stdout);                                                         \
      funlockfile(stdout);                                                    \
      atomic_fetch_add(&tc_failures, 1);                                      \
    }                                                                         \
  } while (0)

/* MPI_Init_thread at MPI_THREAD_MULTIPLE; the job stops if it is refused. */
static inline void tc_init(int *argc, char ***argv) {
  int provided = -1;
  MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &tc_rank);
  if (provided != MPI_THREAD_MULTIPLE) {
    printf("FAIL rank %d: provided %d\n", tc_rank, provided);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

/* Prints the verdict and returns the exit code. */
static inline int tc_report(const char *name) {
  const int failures = atomic_load(&tc_failures);
  if (failures == 0) printf("%s: rank %d OK\n", name, tc_rank);
  return failures == 0 ? 0 : 1;
}

/* Byte i of the payload keyed by `key` (thread, message number...). */
static inline unsigned char tc_byte(unsigned key, size_t i) {
  return (unsigned char)((key * 131u + i * 7u + (i >> 8)) & 0xffu);
}
static inline void tc_fill(unsigned char *buf, size_t n, unsigned key) {
  for (size_t i = 0; i < n; ++i) buf[i] = tc_byte(key, i);
}
/* The first byte that differs, or -1. */
static inline long tc_first_bad(const unsigned char *buf, size_t n, unsigned key) {
  for (size_t i = 0; i < n; ++i)
    if (buf[i] != tc_byte(key, i)) return (long)i;
  return -1;
}

/* Runs fn(index) in `count` threads and joins them. */
static inline void tc_run_threads(int count, void *(*fn)(void *)) {
  pthread_t threads[16];
  for (long t = 0; t < count; ++t) pthread_create(&threads[t], NULL, fn, (void *)t);
  for (int t = 0; t < count; ++t) pthread_join(threads[t], NULL);
}

#endif
