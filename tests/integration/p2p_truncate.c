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
      memset(buf, 0, 200000);
      int rc = MPI_Recv(buf, n - 4, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &st);
      int cls = -1, count = -1;
      MPI_Error_class(rc, &cls);
      MPI_Get_count(&st, MPI_BYTE, &count);
      CHECK(cls == MPI_ERR_TRUNCATE && st.MPI_ERROR == MPI_ERR_TRUNCATE, "size %d returned %d", n, rc);
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
    int rc = MPI_Mrecv(buf, 996, MPI_BYTE, &msg, &st);
    int cls = -1, count = -1;
    MPI_Error_class(rc, &cls);
    MPI_Get_count(&st, MPI_BYTE, &count);
    CHECK(cls == MPI_ERR_TRUNCATE && st.MPI_ERROR == MPI_ERR_TRUNCATE, "Mrecv returned %d", rc);
    CHECK(count == 996 && pattern_ok(buf, 996, 9) && buf[996] == 0 && msg == MPI_MESSAGE_NULL, "Mrecv prefix");
    rc = MPI_Recv(buf, 4, MPI_BYTE, 0, 10, MPI_COMM_WORLD, &st);
    CHECK(rc == MPI_SUCCESS && pattern_ok(buf, 4, 9), "message after Mrecv truncation");
  }
  free(buf);
  int rc = check_report("p2p_truncate");
  MPI_Finalize();
  return rc;
}
