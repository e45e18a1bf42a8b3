/* any_source: every rank but 0 sends K messages to rank 0, which receives
 * them all with MPI_ANY_SOURCE / MPI_ANY_TAG and checks that each sender's
 * messages arrive in order and that statuses name the right sender. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int rank, size, k = argc > 1 ? atoi(argv[1]) : 200, bad = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank != 0) {
    for (int i = 0; i < k; ++i) {
      int msg[2] = {rank, i};
      MPI_Send(msg, 2, MPI_INT, 0, rank * 1000 + i % 10, MPI_COMM_WORLD);
    }
  } else {
    int *next = calloc((size_t)size, sizeof(int));
    for (int m = 0; m < k * (size - 1); ++m) {
      int msg[2];
      MPI_Status st;
      MPI_Recv(msg, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      int src = st.MPI_SOURCE;
      if (src < 1 || src >= size || msg[0] != src || msg[1] != next[src] ||
          st.MPI_TAG != src * 1000 + next[src] % 10) {
        if (!bad) printf("any_source: bad message %d/%d from status source %d tag %d\n", msg[0], msg[1], src, st.MPI_TAG);
        bad = 1;
      } else {
        next[src]++;
      }
    }
    for (int r = 1; r < size; ++r) bad |= next[r] != k;
    printf("any_source: %d messages from %d senders %s\n", k * (size - 1), size - 1, bad ? "WRONG" : "OK");
    free(next);
  }
  MPI_Finalize();
  return bad;
}
