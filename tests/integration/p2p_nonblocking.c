/* p2p_nonblocking: Isend/Irecv at sizes across every protocol boundary,
 * and every completion call: Wait, Waitall, Waitany, Waitsome, Test,
 * Testall, Testany, Testsome, Request_free, null requests. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* Sizes on and around every protocol boundary of the built-in profiles
 * (eager, rendezvous, split, route choice, claim-ahead window, reply
 * pipelining: docs/tunables/) and the ring slot, 4 and 16 KiB. */
static const size_t kSizes[] = {0, 1, 31, 32, 33, 255, 256, 257, 1023, 1024, 1025, 2047, 2048, 2049, 4095,
                                4096, 4097, 4159, 4160, 4161, 5631, 5632, 5633, 5695, 5696, 5697, 8191, 8192,
                                8193, 16383, 16384, 16385, 65535, 65536, 65537, 131071, 131072, 131073,
                                262144, 524287, 524288, 1 << 20, (1 << 22) + 3};
#define NSIZES (sizeof kSizes / sizeof kSizes[0])

int main(int argc, char **argv) {
  int size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rank = check_rank, right = (rank + 1) % size, left = (rank + size - 1) % size;
  size_t max = kSizes[NSIZES - 1];
  unsigned char *out = malloc(max * NSIZES), *in = malloc(max * NSIZES);

  /* All sizes in flight at once, both directions: Waitall. */
  MPI_Request reqs[2 * NSIZES];
  MPI_Status stats[2 * NSIZES];
  for (size_t s = 0; s < NSIZES; ++s) {
    fill_pattern(out + s * max, kSizes[s], rank * 100 + (int)s);
    MPI_Irecv(in + s * max, (int)kSizes[s], MPI_BYTE, left, (int)s, MPI_COMM_WORLD, &reqs[s]);
  }
  for (size_t s = 0; s < NSIZES; ++s)
    MPI_Isend(out + s * max, (int)kSizes[s], MPI_BYTE, right, (int)s, MPI_COMM_WORLD, &reqs[NSIZES + s]);
  CHECK(MPI_Waitall(2 * NSIZES, reqs, stats) == MPI_SUCCESS, "Waitall failed");
  for (size_t s = 0; s < NSIZES; ++s) {
    int count = -1;
    MPI_Get_count(&stats[s], MPI_BYTE, &count);
    CHECK(count == (int)kSizes[s] && stats[s].MPI_SOURCE == left && stats[s].MPI_TAG == (int)s,
          "size %zu: count %d source %d tag %d", kSizes[s], count, stats[s].MPI_SOURCE, stats[s].MPI_TAG);
    CHECK(pattern_ok(in + s * max, kSizes[s], left * 100 + (int)s), "size %zu corrupted", kSizes[s]);
    CHECK(reqs[s] == MPI_REQUEST_NULL, "Waitall must set handles to MPI_REQUEST_NULL");
  }

  /* Waitany / Waitsome / Testany / Testsome drain a batch. */
  enum { K = 8 };
  int vals[K], got[K];
  MPI_Request r[K];
  for (int round = 0; round < 4; ++round) {
    for (int i = 0; i < K; ++i) MPI_Irecv(&got[i], 1, MPI_INT, left, 50 + i, MPI_COMM_WORLD, &r[i]);
    for (int i = K - 1; i >= 0; --i) {
      vals[i] = rank * 1000 + i;
      MPI_Send(&vals[i], 1, MPI_INT, right, 50 + i, MPI_COMM_WORLD);
    }
    int done = 0, seen[K] = {0};
    while (done < K) {
      int index = -1, flag = 0, out_count = 0, indices[K];
      MPI_Status st, sts[K];
      switch (round) {
        case 0:
          MPI_Waitany(K, r, &index, &st);
          CHECK(index >= 0 && !seen[index] && st.MPI_TAG == 50 + index, "Waitany index %d", index);
          seen[index] = 1, ++done;
          break;
        case 1:
          MPI_Waitsome(K, r, &out_count, indices, sts);
          CHECK(out_count >= 1, "Waitsome returned %d", out_count);
          for (int k = 0; k < out_count; ++k) seen[indices[k]] = 1, ++done;
          break;
        case 2:
          MPI_Testany(K, r, &index, &flag, &st);
          if (flag && index != MPI_UNDEFINED) seen[index] = 1, ++done;
          break;
        default:
          MPI_Testsome(K, r, &out_count, indices, MPI_STATUSES_IGNORE);
          CHECK(out_count != MPI_UNDEFINED || done == K, "Testsome said none active too early");
          for (int k = 0; k < out_count && out_count != MPI_UNDEFINED; ++k) seen[indices[k]] = 1, ++done;
          break;
      }
    }
    for (int i = 0; i < K; ++i) CHECK(got[i] == left * 1000 + i && r[i] == MPI_REQUEST_NULL, "round %d item %d", round, i);
    /* All null now: the "none active" answers. */
    int index = 0, flag = 0, out_count = 0;
    MPI_Waitany(K, r, &index, MPI_STATUS_IGNORE);
    CHECK(index == MPI_UNDEFINED, "Waitany on null requests gave %d", index);
    MPI_Testany(K, r, &index, &flag, MPI_STATUS_IGNORE);
    CHECK(flag == 1 && index == MPI_UNDEFINED, "Testany on null requests");
    MPI_Waitsome(K, r, &out_count, NULL, MPI_STATUSES_IGNORE);
    CHECK(out_count == MPI_UNDEFINED, "Waitsome on null requests gave %d", out_count);
  }

  /* Test loop and Testall. */
  int token = rank, back = -1, flag = 0;
  MPI_Request tr[2];
  MPI_Irecv(&back, 1, MPI_INT, left, 99, MPI_COMM_WORLD, &tr[0]);
  MPI_Isend(&token, 1, MPI_INT, right, 99, MPI_COMM_WORLD, &tr[1]);
  while (!flag) MPI_Testall(2, tr, &flag, MPI_STATUSES_IGNORE);
  CHECK(back == left, "Testall payload %d", back);
  MPI_Irecv(&back, 1, MPI_INT, left, 98, MPI_COMM_WORLD, &tr[0]);
  MPI_Send(&token, 1, MPI_INT, right, 98, MPI_COMM_WORLD);
  flag = 0;
  MPI_Status st;
  while (!flag) MPI_Test(&tr[0], &flag, &st);
  CHECK(st.MPI_SOURCE == left && tr[0] == MPI_REQUEST_NULL, "Test status");

  /* Wait on MPI_REQUEST_NULL gives an empty status. */
  MPI_Request null_req = MPI_REQUEST_NULL;
  MPI_Wait(&null_req, &st);
  CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG, "empty status");

  /* A freed active send still goes out. */
  MPI_Request freed;
  memset(out, 7, 100000);
  MPI_Isend(out, 100000, MPI_BYTE, right, 97, MPI_COMM_WORLD, &freed);
  MPI_Request_free(&freed);
  CHECK(freed == MPI_REQUEST_NULL, "Request_free must null the handle");
  MPI_Recv(in, 100000, MPI_BYTE, left, 97, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(in[0] == 7 && in[99999] == 7, "freed send's data");
  MPI_Barrier(MPI_COMM_WORLD);

  free(out);
  free(in);
  int rc = check_report("p2p_nonblocking");
  MPI_Finalize();
  return rc;
}
