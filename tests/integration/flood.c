/* flood: every rank but 0 sends rank 0 `messages` messages of `bytes`
 * bytes (tags 0, 1, ...) with MPI_Send, and rank 0 takes them all with
 * MPI_ANY_SOURCE / MPI_ANY_TAG receives. Checks every sender was served
 * completely and in its own order (MPI's non-overtaking rule), every byte,
 * and each status. Prints "flood: rank R OK" per rank and a summary on
 * rank 0.
 *
 *   flood [messages [bytes]] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned char byte_of(int from, int seq, int i) { return (unsigned char)(from * 7 + seq * 13 + i); }

static int receive_all(int size, int messages, int bytes) {
  unsigned char *in = malloc(bytes > 0 ? bytes : 1);
  int *next = calloc(size, sizeof(int)), errors = 0;
  for (long n = 0; n < (long)(size - 1) * messages && errors == 0; ++n) {
    MPI_Status st;
    MPI_Recv(in, bytes, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    int count = -1, from = st.MPI_SOURCE;
    MPI_Get_count(&st, MPI_BYTE, &count);
    if (from <= 0 || from >= size || st.MPI_TAG != next[from] || count != bytes) {
      printf("flood: FAIL message %ld: source %d tag %d (expected %d) count %d\n", n, from, st.MPI_TAG,
             from > 0 && from < size ? next[from] : -1, count);
      ++errors;
      break;
    }
    for (int i = 0; i < bytes; ++i)
      if (in[i] != byte_of(from, st.MPI_TAG, i)) {
        printf("flood: FAIL message %d from rank %d: byte %d is %d\n", st.MPI_TAG, from, i, in[i]);
        ++errors;
        break;
      }
    ++next[from];
  }
  for (int r = 1; r < size && errors == 0; ++r)
    if (next[r] != messages) {
      printf("flood: FAIL rank %d was served %d of %d messages\n", r, next[r], messages);
      ++errors;
    }
  if (errors == 0)
    printf("flood: rank 0 took %d messages of %d bytes from each of %d senders, each in order: OK\n", messages,
           bytes, size - 1);
  free(next);
  free(in);
  return errors;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int messages = argc > 1 ? atoi(argv[1]) : 100, bytes = argc > 2 ? atoi(argv[2]) : 1024;
  int errors = 0;
  if (rank == 0) {
    errors = receive_all(size, messages, bytes);
  } else {
    unsigned char *out = malloc(bytes > 0 ? bytes : 1);
    for (int seq = 0; seq < messages; ++seq) {
      for (int i = 0; i < bytes; ++i) out[i] = byte_of(rank, seq, i);
      MPI_Send(out, bytes, MPI_BYTE, 0, seq, MPI_COMM_WORLD);
    }
    free(out);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (errors == 0) printf("flood: rank %d OK\n", rank);
  MPI_Finalize();
  return errors != 0;
}
