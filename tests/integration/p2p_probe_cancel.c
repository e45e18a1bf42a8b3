/* p2p_probe_cancel: Probe/Iprobe report source, tag and size without
 * receiving; matched probes (Mprobe/Improbe + Mrecv/Imrecv) take a message
 * out of matching; cancelled receives never match; PROC_NULL, self sends
 * and zero-count messages. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void probes(int rank, int size) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  const int sizes[3] = {3, 3000, 300000};
  unsigned char *buf = malloc(300000), *in = malloc(300000);
  MPI_Request reqs[3];
  for (int i = 0; i < 3; ++i) {
    fill_pattern(buf, 300000, rank);
    MPI_Isend(buf, sizes[i], MPI_BYTE, right, 20 + i, MPI_COMM_WORLD, &reqs[i]);
  }
  MPI_Status st;
  int count = -1, flag = 0;
  /* Probe for the largest first: tags are seen out of order. */
  MPI_Probe(left, 22, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_BYTE, &count);
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 22 && count == 300000, "Probe tag %d count %d", st.MPI_TAG, count);
  while (!flag) MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
  CHECK(st.MPI_TAG == 20, "Iprobe ANY_TAG must see the earliest (tag 20), saw %d", st.MPI_TAG);
  MPI_Message msg;
  MPI_Mprobe(left, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &st);
  CHECK(st.MPI_TAG == 20 && msg != MPI_MESSAGE_NULL, "Mprobe took tag %d", st.MPI_TAG);
  /* The matched message is invisible to a plain probe now. */
  MPI_Iprobe(left, 20, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  CHECK(!flag, "a matched-probed message was still visible");
  MPI_Message msg2;
  flag = 0;
  while (!flag) MPI_Improbe(left, 22, MPI_COMM_WORLD, &flag, &msg2, &st);
  MPI_Request r;
  MPI_Imrecv(in, 300000, MPI_BYTE, &msg2, &r);
  CHECK(msg2 == MPI_MESSAGE_NULL, "Imrecv must null the message");
  MPI_Wait(&r, &st);
  CHECK(pattern_ok(in, 300000, left) && st.MPI_TAG == 22, "Imrecv payload");
  MPI_Mrecv(in, 3, MPI_BYTE, &msg, &st);
  CHECK(pattern_ok(in, 3, left), "Mrecv payload");
  MPI_Recv(in, 3000, MPI_BYTE, left, 21, MPI_COMM_WORLD, &st);
  CHECK(pattern_ok(in, 3000, left), "Recv after probes");
  MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE);
  /* Matched probe of MPI_PROC_NULL. */
  MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st);
  CHECK(msg == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL, "Mprobe PROC_NULL");
  MPI_Mrecv(in, 10, MPI_BYTE, &msg, &st);
  MPI_Get_count(&st, MPI_BYTE, &count);
  CHECK(count == 0 && st.MPI_SOURCE == MPI_PROC_NULL, "Mrecv NO_PROC");
  free(buf);
  free(in);
}

static void cancels(int rank, int size) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int a = -1, b = -1, v = rank, flag = 0;
  MPI_Request r1, r2;
  MPI_Status st;
  MPI_Irecv(&a, 1, MPI_INT, left, 60, MPI_COMM_WORLD, &r1);
  MPI_Irecv(&b, 1, MPI_INT, left, 60, MPI_COMM_WORLD, &r2);
  MPI_Cancel(&r1);
  MPI_Wait(&r1, &st);
  MPI_Test_cancelled(&st, &flag);
  CHECK(flag, "receive was not cancelled");
  MPI_Barrier(MPI_COMM_WORLD); /* nobody sends before every rank cancelled */
  MPI_Send(&v, 1, MPI_INT, right, 60, MPI_COMM_WORLD);
  MPI_Wait(&r2, &st);
  MPI_Test_cancelled(&st, &flag);
  CHECK(!flag && b == left && a == -1, "the second receive gets the message (a=%d b=%d)", a, b);
}

static void special_peers(int rank) {
  MPI_Status st;
  int v = 5, count = -1;
  MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && count == 0 && v == 5, "PROC_NULL recv");
  /* Send to self: blocking eager, nonblocking rendezvous, zero count. */
  int self_in = -1, self_out = rank + 100;
  MPI_Send(&self_out, 1, MPI_INT, rank, 1, MPI_COMM_WORLD);
  MPI_Recv(&self_in, 1, MPI_INT, rank, 1, MPI_COMM_WORLD, &st);
  CHECK(self_in == rank + 100 && st.MPI_SOURCE == rank, "self send");
  size_t n = 1 << 20;
  unsigned char *out = malloc(n), *in = malloc(n);
  fill_pattern(out, n, 77);
  MPI_Request rs[2];
  MPI_Isend(out, (int)n, MPI_BYTE, rank, 2, MPI_COMM_WORLD, &rs[0]);
  MPI_Irecv(in, (int)n, MPI_BYTE, rank, 2, MPI_COMM_WORLD, &rs[1]);
  MPI_Waitall(2, rs, MPI_STATUSES_IGNORE);
  CHECK(pattern_ok(in, n, 77), "large self send");
  MPI_Send(NULL, 0, MPI_INT, rank, 3, MPI_COMM_WORLD);
  MPI_Recv(NULL, 0, MPI_INT, rank, 3, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == 0 && st.MPI_TAG == 3, "zero-count self message");
  free(out);
  free(in);
}

/* Calls that complete one message leave status.MPI_ERROR alone (MPI-4.1
 * 3.2.5; MPICH's threads/pt2pt mt_mprobe tests check it), an empty status
 * has MPI_SUCCESS there; calls that complete several set it, and with
 * MPI_ERR_IN_STATUS name the failed one. */
static void status_error_field(int rank, int size) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int out[4] = {1, 2, 3, 4}, in[4] = {0}, small[2];
  MPI_Request sends[5], reqs[2];
  for (int t = 0; t < 5; ++t) MPI_Isend(out, t < 2 ? 1 : 4, MPI_INT, right, 40 + t, MPI_COMM_WORLD, &sends[t]);
  const int kMark = -7;
  MPI_Status st;
  MPI_Message msg;
  st.MPI_ERROR = kMark;
  MPI_Probe(left, 40, MPI_COMM_WORLD, &st);
  CHECK(st.MPI_ERROR == kMark, "MPI_Probe wrote MPI_ERROR (%d)", st.MPI_ERROR);
  MPI_Recv(in, 1, MPI_INT, left, 40, MPI_COMM_WORLD, &st);
  CHECK(st.MPI_ERROR == kMark && in[0] == 1, "MPI_Recv wrote MPI_ERROR (%d)", st.MPI_ERROR);
  MPI_Mprobe(left, 41, MPI_COMM_WORLD, &msg, &st);
  CHECK(st.MPI_ERROR == kMark, "MPI_Mprobe wrote MPI_ERROR (%d)", st.MPI_ERROR);
  MPI_Mrecv(in, 1, MPI_INT, &msg, &st);
  CHECK(st.MPI_ERROR == kMark, "MPI_Mrecv wrote MPI_ERROR (%d)", st.MPI_ERROR);
  MPI_Irecv(in, 4, MPI_INT, left, 42, MPI_COMM_WORLD, &reqs[0]);
  MPI_Wait(&reqs[0], &st);
  CHECK(st.MPI_ERROR == kMark && in[3] == 4, "MPI_Wait wrote MPI_ERROR (%d)", st.MPI_ERROR);
  /* An empty status (a null request's) has one: MPI_SUCCESS. */
  MPI_Request null_request = MPI_REQUEST_NULL;
  st.MPI_ERROR = kMark;
  MPI_Wait(&null_request, &st);
  CHECK(st.MPI_ERROR == MPI_SUCCESS, "MPI_Wait on MPI_REQUEST_NULL: MPI_ERROR %d", st.MPI_ERROR);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Status sts[2] = {{.MPI_ERROR = kMark}, {.MPI_ERROR = kMark}};
  MPI_Irecv(small, 2, MPI_INT, left, 43, MPI_COMM_WORLD, &reqs[0]);  /* 4 ints come: truncated */
  MPI_Irecv(in, 4, MPI_INT, left, 44, MPI_COMM_WORLD, &reqs[1]);
  int rc = MPI_Waitall(2, reqs, sts);
  int truncate_class = -1;
  MPI_Error_class(sts[0].MPI_ERROR, &truncate_class);
  CHECK(rc == MPI_ERR_IN_STATUS && truncate_class == MPI_ERR_TRUNCATE && sts[1].MPI_ERROR == MPI_SUCCESS,
        "Waitall: rc %d, errors %d %d", rc, sts[0].MPI_ERROR, sts[1].MPI_ERROR);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Waitall(5, sends, MPI_STATUSES_IGNORE);
  /* A multiple completion that succeeds writes no error field either. */
  MPI_Isend(out, 1, MPI_INT, right, 45, MPI_COMM_WORLD, &sends[0]);
  MPI_Irecv(in, 1, MPI_INT, left, 45, MPI_COMM_WORLD, &reqs[0]);
  MPI_Status marked[2] = {{.MPI_ERROR = kMark}, {.MPI_ERROR = kMark}};
  reqs[1] = sends[0];
  MPI_Waitall(2, reqs, marked);
  CHECK(marked[0].MPI_ERROR == kMark && marked[1].MPI_ERROR == kMark, "a good Waitall wrote MPI_ERROR (%d %d)",
        marked[0].MPI_ERROR, marked[1].MPI_ERROR);
}

int main(int argc, char **argv) {
  int size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  probes(check_rank, size);
  MPI_Barrier(MPI_COMM_WORLD);
  cancels(check_rank, size);
  special_peers(check_rank);
  status_error_field(check_rank, size);
  int rc = check_report("p2p_probe_cancel");
  MPI_Finalize();
  return rc;
}
