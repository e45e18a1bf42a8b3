/* pingpong: nonblocking ping-pong between ranks 0 and 1. Each round both
 * post MPI_Irecv and MPI_Isend and complete them with one MPI_Waitall; the
 * buffer travels back and forth and every rank adds 1 to each element it
 * receives. Rank 0 prints a checksum per message size. Other ranks only
 * take part in the final barrier. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    if (rank == 0) printf("pingpong: needs at least 2 ranks\n");
    MPI_Finalize();
    return 1;
  }
  const int sizes[] = {0, 1, 100, 1000, 8192, 65536, 1 << 20};
  const int rounds = 20;
  if (rank == 0) printf("pingpong: %d rounds per size\n", rounds);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    int n = sizes[s];
    if (rank > 1) continue;
    int *out = malloc(sizeof(int) * (size_t)(n + 1)), *in = malloc(sizeof(int) * (size_t)(n + 1));
    for (int i = 0; i < n; ++i) out[i] = rank == 0 ? i : 0;
    int peer = 1 - rank;
    for (int round = 0; round < rounds; ++round) {
      MPI_Request requests[2];
      MPI_Status statuses[2];
      MPI_Irecv(in, n, MPI_INT, peer, round, MPI_COMM_WORLD, &requests[0]);
      MPI_Isend(out, n, MPI_INT, peer, round, MPI_COMM_WORLD, &requests[1]);
      MPI_Waitall(2, requests, statuses);
      int count;
      MPI_Get_count(&statuses[0], MPI_INT, &count);
      if (count != n || statuses[0].MPI_SOURCE != peer || statuses[0].MPI_TAG != round) {
        printf("rank %d: bad status in round %d of size %d\n", rank, round, n);
        MPI_Abort(MPI_COMM_WORLD, 2);
      }
      for (int i = 0; i < n; ++i) out[i] = in[i] + 1;
    }
    if (rank == 0) {
      long long checksum = 0;
      for (int i = 0; i < n; ++i) checksum += (long long)out[i] * (i % 7 + 1);
      printf("%8d ints: checksum %lld\n", n, checksum);
    }
    free(out);
    free(in);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("pingpong: done\n");
  MPI_Finalize();
  return 0;
}
