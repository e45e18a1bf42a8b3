/* rndv_routes: rendezvous messages from 128 KiB to 512 KiB, whose route
 * (single copy or streamed) the receiver chooses per epoch and tries both
 * ways: lone ping-pongs (one message per epoch) and windows of 16 (one
 * epoch each), every message checked byte for byte, under the default and
 * under a truncating receive. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const size_t kSizes[] = {131072, 131073, 200000, 262143, 262144, 300001, 524287};
#define NSIZES (sizeof kSizes / sizeof kSizes[0])
enum { kPingPongs = 24, kWindows = 4, kWindow = 16 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
  const int peer = 1 - check_rank;
  unsigned char *out = malloc(kWindow * 524288), *in = malloc(kWindow * 524288);
  int seed = 0;

  for (size_t s = 0; s < NSIZES; ++s) {
    const size_t n = kSizes[s];
    /* Ping-pong: each message its own epoch. */
    for (int i = 0; i < kPingPongs; ++i, ++seed) {
      if (check_rank == 0) {
        fill_pattern(out, n, seed);
        MPI_Send(out, (int)n, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
        MPI_Recv(in, (int)n, MPI_BYTE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(pattern_ok(in, n, seed + 1000), "pong of %zu bytes, round %d", n, i);
      } else {
        MPI_Recv(in, (int)n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(pattern_ok(in, n, seed), "ping of %zu bytes, round %d", n, i);
        fill_pattern(out, n, seed + 1000);
        MPI_Send(out, (int)n, MPI_BYTE, peer, 2, MPI_COMM_WORLD);
      }
    }
    /* Windows: rank 0 sends 16 at once, rank 1 receives them. */
    for (int w = 0; w < kWindows; ++w, seed += kWindow) {
      MPI_Request reqs[kWindow];
      for (int k = 0; k < kWindow; ++k) {
        if (check_rank == 0) {
          fill_pattern(out + k * n, n, seed + k);
          MPI_Isend(out + k * n, (int)n, MPI_BYTE, peer, 3, MPI_COMM_WORLD, &reqs[k]);
        } else {
          MPI_Irecv(in + k * n, (int)n, MPI_BYTE, peer, 3, MPI_COMM_WORLD, &reqs[k]);
        }
      }
      MPI_Waitall(kWindow, reqs, MPI_STATUSES_IGNORE);
      for (int k = 0; k < kWindow && check_rank == 1; ++k)
        CHECK(pattern_ok(in + k * n, n, seed + k), "window %d message %d of %zu bytes", w, k, n);
      MPI_Barrier(MPI_COMM_WORLD);
    }
  }

  /* A truncating receive keeps the prefix whichever route is taken. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  for (int i = 0; i < kPingPongs; ++i) {
    const size_t n = 262144, cap = 140000;
    if (check_rank == 0) {
      fill_pattern(out, n, 77 + i);
      MPI_Send(out, (int)n, MPI_BYTE, peer, 4, MPI_COMM_WORLD);
    } else {
      memset(in + cap, 0xAB, 16);
      MPI_Status st;
      const int rc = MPI_Recv(in, (int)cap, MPI_BYTE, peer, 4, MPI_COMM_WORLD, &st);
      CHECK(rc == MPI_ERR_TRUNCATE || st.MPI_ERROR == MPI_ERR_TRUNCATE, "round %d: truncation not reported", i);
      CHECK(pattern_ok(in, cap, 77 + i), "round %d: prefix corrupted", i);
      CHECK(in[cap] == 0xAB && in[cap + 15] == 0xAB, "round %d: wrote past the buffer", i);
    }
  }

  free(out);
  free(in);
  const int rc = check_report("rndv_routes");
  MPI_Finalize();
  return rc;
}
