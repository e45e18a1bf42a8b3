/* many_ranks: a job of many ranks (more than cores) starts, passes a token
 * around the ring, exchanges small messages between every pair (point to
 * point, then MPI_Alltoall), checks every byte and finalizes. Prints
 * "many_ranks: rank R OK" per rank and a summary line on rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { kInts = 4 }; /* 16-byte messages: the small-message path */

static int value(int from, int to, int i) { return from * 65537 + to * 31 + i; }

/* Token around the ring: each rank adds its rank; rank 0 checks the sum. */
static int ring(int rank, int size, int laps) {
  int token = 0;
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  for (int lap = 0; lap < laps; ++lap) {
    if (rank == 0) {
      MPI_Send(&token, 1, MPI_INT, next, lap, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_INT, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&token, 1, MPI_INT, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      token += rank;
      MPI_Send(&token, 1, MPI_INT, next, lap, MPI_COMM_WORLD);
    }
  }
  const int expected = laps * (size - 1) * size / 2;
  if (rank == 0 && token != expected) {
    printf("many_ranks: FAIL ring token %d, expected %d\n", token, expected);
    return 1;
  }
  return 0;
}

/* Every pair, both ways, with nonblocking point-to-point messages. */
static int pairs(int rank, int size) {
  int *out = malloc(sizeof(int) * kInts * size), *in = malloc(sizeof(int) * kInts * size);
  MPI_Request *req = malloc(sizeof(MPI_Request) * 2 * size);
  int n = 0, errors = 0;
  for (int peer = 0; peer < size; ++peer) {
    if (peer == rank) continue;
    for (int i = 0; i < kInts; ++i) out[peer * kInts + i] = value(rank, peer, i);
    MPI_Irecv(in + peer * kInts, kInts, MPI_INT, peer, 7, MPI_COMM_WORLD, &req[n++]);
    MPI_Isend(out + peer * kInts, kInts, MPI_INT, peer, 7, MPI_COMM_WORLD, &req[n++]);
  }
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
  for (int peer = 0; peer < size && errors == 0; ++peer)
    for (int i = 0; i < kInts && peer != rank; ++i)
      if (in[peer * kInts + i] != value(peer, rank, i)) {
        printf("many_ranks: FAIL rank %d: int %d from rank %d is %d\n", rank, i, peer, in[peer * kInts + i]);
        errors = 1;
        break;
      }
  free(out);
  free(in);
  free(req);
  return errors;
}

/* MPI_Alltoall of kInts ints per pair. */
static int alltoall(int rank, int size) {
  int *out = malloc(sizeof(int) * kInts * size), *in = malloc(sizeof(int) * kInts * size);
  for (int peer = 0; peer < size; ++peer)
    for (int i = 0; i < kInts; ++i) out[peer * kInts + i] = value(rank, peer, i) + 1;
  MPI_Alltoall(out, kInts, MPI_INT, in, kInts, MPI_INT, MPI_COMM_WORLD);
  int errors = 0;
  for (int peer = 0; peer < size && errors == 0; ++peer)
    for (int i = 0; i < kInts; ++i)
      if (in[peer * kInts + i] != value(peer, rank, i) + 1) {
        printf("many_ranks: FAIL rank %d: MPI_Alltoall int %d from rank %d is %d\n", rank, i, peer,
               in[peer * kInts + i]);
        errors = 1;
        break;
      }
  free(out);
  free(in);
  return errors;
}

int main(int argc, char **argv) {
  const int laps = argc > 1 ? atoi(argv[1]) : 3;
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int errors = ring(rank, size, laps);
  errors += pairs(rank, size);
  errors += alltoall(rank, size);
  int total = 0;
  MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (errors == 0) printf("many_ranks: rank %d OK\n", rank);
  if (rank == 0)
    printf("many_ranks: %d ranks, %d ring laps, all pairs and MPI_Alltoall of %d bytes: %s\n", size, laps,
           (int)(kInts * sizeof(int)), total == 0 ? "OK" : "FAILED");
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
