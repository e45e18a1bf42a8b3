/* Known traffic for the run report (report_cases.cmake), whose counts the
 * cases assert exactly.
 *
 *   report_traffic pattern N M K L U S E P R   (2 ranks)
 *     rank 0 sends N messages of S bytes, M of E, K of P, L of R to rank 1,
 *     each answered by a 0-byte message (a ping-pong: at most one message
 *     is ever unexpected), then U messages of S bytes that rank 1 takes only
 *     after a later one: rank 1's unexpected queue is U deep, once. Rank 1
 *     answers once more before and once after the burst, so that rank 0
 *     enters MPI_Finalize (whose report gather sends) only once rank 1 has
 *     taken every message: early gather messages would queue up with them.
 *   report_traffic matrix                      (3 ranks or more)
 *     rank r sends r+1 messages of 100*(r+1) bytes to rank r+1 (mod n);
 *     rank 0 also sends itself one message of 50 bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { kTagData = 1, kTagAnswer = 2, kTagBurst = 3, kTagGo = 4 };

static unsigned char *buffer;

/* One phase of the ping-pong: `count` messages of `bytes`. */
static void phase(int rank, int count, int bytes, int seed) {
  for (int i = 0; i < count; ++i) {
    if (rank == 0) {
      fill_pattern(buffer, (size_t)bytes, seed + i);
      MPI_Send(buffer, bytes, MPI_BYTE, 1, kTagData, MPI_COMM_WORLD);
      MPI_Recv(NULL, 0, MPI_BYTE, 1, kTagAnswer, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      memset(buffer, 0, (size_t)bytes);
      MPI_Recv(buffer, bytes, MPI_BYTE, 0, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(pattern_ok(buffer, (size_t)bytes, seed + i), "message %d of %d bytes", i, bytes);
      MPI_Send(NULL, 0, MPI_BYTE, 0, kTagAnswer, MPI_COMM_WORLD);
    }
  }
}

static void pattern(int rank, int size, char **argv) {
  int n[5], bytes[4];
  for (int i = 0; i < 5; ++i) n[i] = atoi(argv[2 + i]);
  for (int i = 0; i < 4; ++i) bytes[i] = atoi(argv[7 + i]);
  CHECK(size == 2, "needs 2 ranks, has %d", size);
  int largest = 0;
  for (int i = 0; i < 4; ++i) largest = bytes[i] > largest ? bytes[i] : largest;
  buffer = malloc((size_t)largest);
  for (int p = 0; p < 4; ++p) phase(rank, n[p], bytes[p], 100 * p);
  /* The burst: rank 1's receive of the go message is posted before rank 0
   * starts (the last answer says so), so only the burst is unexpected. */
  MPI_Request go;
  if (rank == 1) {
    MPI_Irecv(NULL, 0, MPI_BYTE, 0, kTagGo, MPI_COMM_WORLD, &go);
    MPI_Send(NULL, 0, MPI_BYTE, 0, kTagAnswer, MPI_COMM_WORLD);
    MPI_Wait(&go, MPI_STATUS_IGNORE);
    for (int i = 0; i < n[4]; ++i) {
      MPI_Recv(buffer, bytes[0], MPI_BYTE, 0, kTagBurst, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(pattern_ok(buffer, (size_t)bytes[0], 900 + i), "burst message %d", i);
    }
    MPI_Send(NULL, 0, MPI_BYTE, 0, kTagAnswer, MPI_COMM_WORLD);
  } else {
    MPI_Recv(NULL, 0, MPI_BYTE, 1, kTagAnswer, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < n[4]; ++i) {
      fill_pattern(buffer, (size_t)bytes[0], 900 + i);
      MPI_Send(buffer, bytes[0], MPI_BYTE, 1, kTagBurst, MPI_COMM_WORLD);
    }
    MPI_Send(NULL, 0, MPI_BYTE, 1, kTagGo, MPI_COMM_WORLD);
    MPI_Recv(NULL, 0, MPI_BYTE, 1, kTagAnswer, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  free(buffer);
}

static void matrix(int rank, int size) {
  unsigned char data[300 * 3];
  const int to = (rank + 1) % size, from = (rank + size - 1) % size;
  CHECK(size >= 3, "needs 3 ranks or more, has %d", size);
  for (int i = 0; i < rank + 1; ++i) {
    fill_pattern(data, (size_t)(100 * (rank + 1)), rank * 10 + i);
    MPI_Send(data, 100 * (rank + 1), MPI_BYTE, to, kTagData, MPI_COMM_WORLD);
  }
  for (int i = 0; i < from + 1; ++i) {
    MPI_Recv(data, (int)sizeof data, MPI_BYTE, from, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(pattern_ok(data, (size_t)(100 * (from + 1)), from * 10 + i), "message %d from rank %d", i, from);
  }
  if (rank == 0) {
    MPI_Request self;
    unsigned char mine[50], got[50];
    fill_pattern(mine, sizeof mine, 77);
    MPI_Isend(mine, 50, MPI_BYTE, 0, kTagData, MPI_COMM_WORLD, &self);
    MPI_Recv(got, 50, MPI_BYTE, 0, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&self, MPI_STATUS_IGNORE);
    CHECK(pattern_ok(got, sizeof got, 77), "message to self");
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc == 11 && strcmp(argv[1], "pattern") == 0) {
    pattern(check_rank, size, argv);
  } else if (argc == 2 && strcmp(argv[1], "matrix") == 0) {
    matrix(check_rank, size);
  } else {
    CHECK(0, "usage: report_traffic pattern N M K L U S E P R | matrix");
  }
  const int rc = check_report("report_traffic");
  MPI_Finalize();
  return rc;
}
