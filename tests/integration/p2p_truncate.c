/* p2p_truncate: a message longer than the receive buffer, received by
 * MPI_Recv and by a matched probe (MPI_Mprobe + MPI_Mrecv). With argument
 * "return" the error comes back (MPI_ERR_TRUNCATE, the prefix delivered,
 * the message consumed) and the runtime keeps working; without it the
 * default handler stops the job with one line. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv) {
  int size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int returns = argc > 1 && strcmp(argv[1], "return") == 0;
  if (returns) MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int sizes[] = {10488, 100, 200000};
  unsigned char *buf = malloc(200000);
  for (int i = 0; i < 3; ++i) {
    int n = sizes[i];
    if (check_rank == 0) {
      fill_pattern(buf, (size_t)n, i);
      MPI_Send(buf, n, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
      MPI_Send(buf, 4, MPI_BYTE, 1, 8, MPI_COMM_WORLD); /* must still arrive */
    } else if (check_rank == 1) {
      MPI_Status st;
      st.MPI_ERROR = -7; /* a single completion leaves it: the error is the call's */
      memset(buf, 0, 200000);
      int rc = MPI_Recv(buf, n - 4, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &st);
      int cls = -1, count = -1;
      MPI_Error_class(rc, &cls);
      MPI_Get_count(&st, MPI_BYTE, &count);
      CHECK(cls == MPI_ERR_TRUNCATE && st.MPI_ERROR == -7, "size %d returned %d", n, rc);
      CHECK(count == n - 4 && pattern_ok(buf, (size_t)n - 4, i) && buf[n - 4] == 0, "size %d prefix", n);
      rc = MPI_Recv(buf, 4, MPI_BYTE, 0, 8, MPI_COMM_WORLD, &st);
      CHECK(rc == MPI_SUCCESS && pattern_ok(buf, 4, i), "message after truncation");
    }
  }
  /* The same through a matched probe: MPI_Mrecv reports and consumes it. */
  if (check_rank == 0) {
    fill_pattern(buf, 1000, 9);
    MPI_Send(buf, 1000, MPI_BYTE, 1, 9, MPI_COMM_WORLD);
    MPI_Send(buf, 4, MPI_BYTE, 1, 10, MPI_COMM_WORLD);
  } else if (check_rank == 1) {
    MPI_Message msg;
    MPI_Status st;
    memset(buf, 0, 200000);
    MPI_Mprobe(0, 9, MPI_COMM_WORLD, &msg, &st);
    st.MPI_ERROR = -7;
    int rc = MPI_Mrecv(buf, 996, MPI_BYTE, &msg, &st);
    int cls = -1, count = -1;
    MPI_Error_class(rc, &cls);
    MPI_Get_count(&st, MPI_BYTE, &count);
    CHECK(cls == MPI_ERR_TRUNCATE && st.MPI_ERROR == -7, "Mrecv returned %d", rc);
    CHECK(count == 996 && pattern_ok(buf, 996, 9) && buf[996] == 0 && msg == MPI_MESSAGE_NULL, "Mrecv prefix");
    rc = MPI_Recv(buf, 4, MPI_BYTE, 0, 10, MPI_COMM_WORLD, &st);
    CHECK(rc == MPI_SUCCESS && pattern_ok(buf, 4, 9), "message after Mrecv truncation");
  }
  /* A multiple completion (Waitall, then Waitsome) with one truncated
   * receive: MPI_ERR_IN_STATUS, that status says MPI_ERR_TRUNCATE, the
   * other MPI_SUCCESS (a Waitsome that completes it alone returns
   * MPI_SUCCESS and leaves the field: it starts as MPI_SUCCESS), every
   * handle freed. */
  for (int round = 0; round < 2; ++round) {
    if (check_rank == 0) {
      fill_pattern(buf, 64, 11);
      MPI_Send(buf, 8, MPI_BYTE, 1, 20, MPI_COMM_WORLD);
      MPI_Send(buf, 64, MPI_BYTE, 1, 21, MPI_COMM_WORLD);
    } else if (check_rank == 1) {
      MPI_Request reqs[2];
      MPI_Status st[2] = {{.MPI_ERROR = MPI_SUCCESS}, {.MPI_ERROR = -7}};
      MPI_Irecv(buf, 8, MPI_BYTE, 0, 20, MPI_COMM_WORLD, &reqs[0]);
      MPI_Irecv(buf + 100, 32, MPI_BYTE, 0, 21, MPI_COMM_WORLD, &reqs[1]);
      int rc = MPI_SUCCESS;
      if (round == 0) {
        rc = MPI_Waitall(2, reqs, st);
      } else {
        for (int done = 0; done < 2;) {
          int n = 0, indices[2];
          MPI_Status some[2] = {{.MPI_ERROR = MPI_SUCCESS}, {.MPI_ERROR = MPI_SUCCESS}};
          const int call_rc = MPI_Waitsome(2, reqs, &n, indices, some);
          if (call_rc != MPI_SUCCESS) rc = call_rc;
          for (int k = 0; k < n; ++k) st[indices[k]] = some[k];
          done += n;
        }
      }
      int cls = -1;
      MPI_Error_class(rc, &cls);
      CHECK(cls == MPI_ERR_IN_STATUS, "%s returned class %d", round == 0 ? "Waitall" : "Waitsome", cls);
      CHECK(st[0].MPI_ERROR == MPI_SUCCESS && st[1].MPI_ERROR == MPI_ERR_TRUNCATE, "%s statuses %d %d",
            round == 0 ? "Waitall" : "Waitsome", st[0].MPI_ERROR, st[1].MPI_ERROR);
      CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[1] == MPI_REQUEST_NULL, "handles freed");
    }
  }
  free(buf);
  int rc = check_report("p2p_truncate");
  MPI_Finalize();
  return rc;
}
