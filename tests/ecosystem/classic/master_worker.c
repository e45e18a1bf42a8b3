/* master_worker: rank 0 hands out tasks; workers answer with a result whose
 * length depends on the task. The master takes answers in whatever order
 * they come (MPI_Probe with MPI_ANY_SOURCE, sized with MPI_Get_count), gives
 * the answering worker the next task, and stops each worker with tag STOP.
 * Results are printed in task order, so the output does not depend on
 * which worker did what. A task t's result is the Collatz sequence of t+1. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { TASK = 1, RESULT = 2, STOP = 3, MAX_LEN = 1000 };

static int collatz(long start, long *seq) {
  int len = 0;
  for (long x = start; len < MAX_LEN; x = x % 2 ? 3 * x + 1 : x / 2) {
    seq[len++] = x;
    if (x == 1) break;
  }
  return len;
}

static void worker(void) {
  long seq[MAX_LEN];
  for (;;) {
    int task;
    MPI_Status status;
    MPI_Recv(&task, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    if (status.MPI_TAG == STOP) return;
    int len = collatz(task + 1, seq);
    MPI_Send(seq, len, MPI_LONG, 0, RESULT, MPI_COMM_WORLD);
    MPI_Send(&task, 1, MPI_INT, 0, RESULT, MPI_COMM_WORLD);
  }
}

static void master(int workers, int tasks) {
  int *length = calloc((size_t)tasks, sizeof(int));
  long *peak = calloc((size_t)tasks, sizeof(long));
  long seq[MAX_LEN];
  int next = 0, done = 0;
  for (int w = 1; w <= workers; ++w) {
    if (next < tasks) {
      MPI_Send(&next, 1, MPI_INT, w, TASK, MPI_COMM_WORLD);
      ++next;
    } else {
      MPI_Send(&next, 0, MPI_INT, w, STOP, MPI_COMM_WORLD);
    }
  }
  while (done < tasks) {
    MPI_Status status;
    int len, task;
    MPI_Probe(MPI_ANY_SOURCE, RESULT, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, MPI_LONG, &len);
    MPI_Recv(seq, len, MPI_LONG, status.MPI_SOURCE, RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&task, 1, MPI_INT, status.MPI_SOURCE, RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    length[task] = len;
    for (int i = 0; i < len; ++i)
      if (seq[i] > peak[task]) peak[task] = seq[i];
    ++done;
    if (next < tasks) {
      MPI_Send(&next, 1, MPI_INT, status.MPI_SOURCE, TASK, MPI_COMM_WORLD);
      ++next;
    } else {
      MPI_Send(&next, 0, MPI_INT, status.MPI_SOURCE, STOP, MPI_COMM_WORLD);
    }
  }
  long total = 0;
  for (int t = 0; t < tasks; ++t) {
    if (t < 10 || t % 25 == 0) printf("task %3d: start %3d, length %3d, peak %ld\n", t, t + 1, length[t], peak[t]);
    total += length[t];
  }
  printf("master_worker: %d tasks on %d workers, %ld numbers in all\n", tasks, workers, total);
  free(length);
  free(peak);
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int tasks = argc > 1 ? atoi(argv[1]) : 200;
  if (size < 2) {
    printf("master_worker: needs at least 2 ranks\n");
  } else if (rank == 0) {
    master(size - 1, tasks);
  } else {
    worker();
  }
  MPI_Finalize();
  return size < 2;
}
