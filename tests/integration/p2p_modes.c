/* p2p_modes: synchronous sends complete only once matched; ready and
 * buffered modes; MPI_Buffer_attach/detach; Sendrecv and
 * Sendrecv_replace around a ring. Needs at least 2 ranks for the pair
 * tests; every rank takes part in the ring tests. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void synchronous_is_synchronous(int rank, size_t n) {
  unsigned char *buf = malloc(n + 1);
  int go = 1;
  if (rank == 0) {
    fill_pattern(buf, n, 5);
    MPI_Request req;
    int flag = 0;
    MPI_Issend(buf, (int)n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &req);
    /* Rank 1 cannot have matched yet: it first waits for our "go". */
    for (int i = 0; i < 2000 && !flag; ++i) MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    CHECK(!flag, "Issend of %zu bytes completed before the receive was posted", n);
    MPI_Send(&go, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    /* Blocking Ssend returns, and the data is right. */
    MPI_Ssend(buf, (int)n, MPI_BYTE, 1, 3, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(&go, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(buf, (int)n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(pattern_ok(buf, n, 5), "Issend payload of %zu bytes", n);
    memset(buf, 0, n);
    MPI_Recv(buf, (int)n, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(pattern_ok(buf, n, 5), "Ssend payload of %zu bytes", n);
  }
  free(buf);
}

static void buffered(int rank, int size) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int bytes = 10 * (1000 + MPI_BSEND_OVERHEAD) + 100000 + MPI_BSEND_OVERHEAD;
  char *space = malloc((size_t)bytes);
  MPI_Buffer_attach(space, bytes);
  int msgs[10][250];
  for (int i = 0; i < 10; ++i) {
    for (int k = 0; k < 250; ++k) msgs[i][k] = rank * 10000 + i * 250 + k;
    MPI_Bsend(msgs[i], 250, MPI_INT, right, 10 + i, MPI_COMM_WORLD);
    memset(msgs[i], 0, sizeof msgs[i]); /* the buffer is ours again at once */
  }
  unsigned char *big = malloc(100000);
  fill_pattern(big, 100000, rank);
  MPI_Request req;
  MPI_Ibsend(big, 100000, MPI_BYTE, right, 30, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  memset(big, 0, 100000);
  /* Receive in reverse tag order: the buffered sends do not need us. */
  for (int i = 9; i >= 0; --i) {
    int got[250];
    MPI_Recv(got, 250, MPI_INT, left, 10 + i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(got[0] == left * 10000 + i * 250 && got[249] == left * 10000 + i * 250 + 249, "Bsend %d payload", i);
  }
  MPI_Recv(big, 100000, MPI_BYTE, left, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(pattern_ok(big, 100000, left), "Ibsend payload");
  void *back = NULL;
  int back_size = 0;
  MPI_Buffer_detach(&back, &back_size);
  CHECK(back == space && back_size == bytes, "Buffer_detach returned %p/%d", back, back_size);

  /* Without a buffer, MPI_Bsend fails with MPI_ERR_BUFFER. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int v = 1, rc = MPI_Bsend(&v, 1, MPI_INT, right, 40, MPI_COMM_WORLD), cls = -1;
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_BUFFER, "Bsend without buffer returned %d", rc);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  free(space);
  free(big);
}

static void sendrecv_ring(int rank, int size) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (size_t n = 1; n <= (size_t)1 << 21; n *= 16) {
    unsigned char *out = malloc(n), *in = malloc(n);
    fill_pattern(out, n, rank);
    MPI_Status st;
    MPI_Sendrecv(out, (int)n, MPI_BYTE, right, 7, in, (int)n, MPI_BYTE, left, 7, MPI_COMM_WORLD, &st);
    CHECK(pattern_ok(in, n, left) && st.MPI_SOURCE == left, "Sendrecv %zu", n);
    MPI_Sendrecv_replace(out, (int)n, MPI_BYTE, right, 8, left, 8, MPI_COMM_WORLD, &st);
    CHECK(pattern_ok(out, n, left), "Sendrecv_replace %zu", n);
    free(out);
    free(in);
  }
  int v = rank;
  MPI_Rsend(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  /* Rsend: the receive is posted before the sender starts (barrier). */
  int got = -1;
  MPI_Request req;
  MPI_Irecv(&got, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &req);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Rsend(&v, 1, MPI_INT, right, 9, MPI_COMM_WORLD);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  CHECK(got == left, "Rsend payload %d", got);
}

int main(int argc, char **argv) {
  int size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size >= 2) {
    synchronous_is_synchronous(check_rank, 8);       /* eager */
    synchronous_is_synchronous(check_rank, 10000);   /* pipelined */
    synchronous_is_synchronous(check_rank, 200000);  /* rendezvous */
  }
  buffered(check_rank, size);
  sendrecv_ring(check_rank, size);
  int rc = check_report("p2p_modes");
  MPI_Finalize();
  return rc;
}
