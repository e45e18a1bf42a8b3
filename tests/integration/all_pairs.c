/* all_pairs: every pair of ranks exchanges messages of every size from 0 B
 * to 16 MiB (powers of two and one byte either side), checked byte for
 * byte, with status source, tag and count. Prints "all_pairs: OK". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char expected_byte(int src, int dst, size_t size, size_t i) {
  return (unsigned char)((src * 31 + dst * 17 + size * 7 + i * 13 + (i >> 10)) & 0xff);
}

static void fill(unsigned char *buf, int src, int dst, size_t size) {
  for (size_t i = 0; i < size; ++i) buf[i] = expected_byte(src, dst, size, i);
}

static int check(const unsigned char *buf, int src, int dst, size_t size, const MPI_Status *st, int tag) {
  int count = -1;
  MPI_Get_count(st, MPI_BYTE, &count);
  if (st->MPI_SOURCE != src || st->MPI_TAG != tag || (size_t)count != size) {
    printf("rank %d: bad status from %d size %zu: source %d tag %d count %d\n", dst, src, size,
           st->MPI_SOURCE, st->MPI_TAG, count);
    return 1;
  }
  for (size_t i = 0; i < size; ++i) {
    if (buf[i] != expected_byte(src, dst, size, i)) {
      printf("rank %d: byte %zu of %zu from rank %d is wrong\n", dst, i, size, src);
      return 1;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  int rank, size, errors = 0;
  size_t max = argc > 1 ? (size_t)atol(argv[1]) : (size_t)16 << 20;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  unsigned char *out = malloc(max + 1), *in = malloc(max + 1);
  size_t sizes[80];
  int nsizes = 0;
  sizes[nsizes++] = 0;
  for (size_t p = 1; p <= max; p <<= 1) {
    if (p > 2) sizes[nsizes++] = p - 1;
    sizes[nsizes++] = p;
    if (p + 1 <= max && p > 1) sizes[nsizes++] = p + 1;
  }
  for (int s = 0; s < nsizes; ++s) {
    size_t n = sizes[s];
    for (int distance = 1; distance < size; ++distance) {
      int to = (rank + distance) % size, from = (rank - distance + size) % size;
      MPI_Status st;
      fill(out, rank, to, n);
      memset(in, 0xee, n);
      int tag = s * 100 + distance;
      /* Ordered so that it is correct MPI without buffering. */
      if (rank < to) {
        MPI_Send(out, (int)n, MPI_BYTE, to, tag, MPI_COMM_WORLD);
        MPI_Recv(in, (int)n, MPI_BYTE, from, tag, MPI_COMM_WORLD, &st);
      } else {
        MPI_Recv(in, (int)n, MPI_BYTE, from, tag, MPI_COMM_WORLD, &st);
        MPI_Send(out, (int)n, MPI_BYTE, to, tag, MPI_COMM_WORLD);
      }
      errors += check(in, from, rank, n, &st, tag);
    }
  }
  free(out);
  free(in);
  int total = errors;
  if (rank != 0) {
    MPI_Send(&errors, 1, MPI_INT, 0, 999, MPI_COMM_WORLD);
  } else {
    for (int r = 1; r < size; ++r) {
      int e;
      MPI_Recv(&e, 1, MPI_INT, r, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      total += e;
    }
    printf("all_pairs: %d ranks, %d sizes up to %zu bytes: %s\n", size, nsizes, max, total ? "FAILED" : "OK");
  }
  MPI_Finalize();
  return errors ? 1 : 0;
}
