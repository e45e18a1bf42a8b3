/* Tiny assertion helpers shared by the multi-process test programs. Each
 * program prints "<name>: rank R OK" at the end when nothing failed. */
#ifndef SHMPI_TESTS_CHECK_H
#define SHMPI_TESTS_CHECK_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int check_rank = -1;
static int check_failures = 0;

#define CHECK(cond, ...)                                                  \
  do {                                                                    \
    if (!(cond)) {                                                        \
      printf("FAIL rank %d line %d: %s: ", check_rank, __LINE__, #cond); \
      printf(__VA_ARGS__);                                                \
      printf("\n");                                                       \
      fflush(stdout);                                                     \
      ++check_failures;                                                   \
    }                                                                     \
  } while (0)

/* Prints the verdict and returns the exit code. */
static inline int check_report(const char *name) {
  if (check_failures == 0) printf("%s: rank %d OK\n", name, check_rank);
  return check_failures == 0 ? 0 : 1;
}

static inline void fill_pattern(unsigned char *buf, size_t n, int seed) {
  for (size_t i = 0; i < n; ++i) buf[i] = (unsigned char)((seed * 29 + i * 7 + (i >> 9)) & 0xff);
}

static inline int pattern_ok(const unsigned char *buf, size_t n, int seed) {
  for (size_t i = 0; i < n; ++i)
    if (buf[i] != (unsigned char)((seed * 29 + i * 7 + (i >> 9)) & 0xff)) return 0;
  return 1;
}

/* order[0..n) = a permutation of 0..n-1 drawn from *seed (rand_r). */
static inline void shuffled_order(int *order, int n, unsigned *seed) {
  for (int i = 0; i < n; ++i) order[i] = i;
  for (int i = n - 1; i > 0; --i) {
    int j = (int)(rand_r(seed) % (unsigned)(i + 1)), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}

#endif
