/* coll_slots: the small blocking collectives that go through the shared
 * collective slots (runtime/shm_collectives.hpp), on several communicators
 * used in turn, so each rank's few slots are reused across communicators
 * and calls, and broadcast roots run ahead of their readers.
 *
 * Each round, on one of: the world, a dup of it, the world in reverse
 * order (comm ranks differ from world ranks), and the odd/even halves:
 *   bcast of a size that crosses the slot size (8 KiB) from a rotating root,
 *   and one of 32 KiB or more (single copy from the root's buffer);
 *   reduce and allreduce (MPI_SUM of doubles whose sum depends on the
 *   order of the additions: every rank must get the same bits), in place
 *   on some rounds;
 *   gather, allgather and alltoall of rank-and-round stamped ints, in
 *   place on some rounds; and a barrier.
 * Every received byte is checked against what its sender put there.
 *
 * Usage: coll_slots [rounds] [threads] [mixed]. With threads > 1
 * (MPI_THREAD_MULTIPLE) each thread runs the rounds on communicators of its
 * own, all at once. With "mixed", world rank 0 (PMIX_RANK) alone asks for
 * MPI_THREAD_MULTIPLE and one thread runs: every communicator it is in must
 * take the trees on every member, the others may take the slots.
 * Prints "coll_slots: rank R OK" or FAIL lines. */
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxInts = 2100 }; /* 8400 bytes: past the 8 KiB slot */

static int world_rank;
static int failures;
static pthread_mutex_t failures_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what, int round, int at, long got, long want) {
  pthread_mutex_lock(&failures_lock);
  if (failures++ < 10)
    printf("coll_slots: FAIL rank %d round %d: %s at %d: got %ld, want %ld\n", world_rank, round, what, at, got,
           want);
  pthread_mutex_unlock(&failures_lock);
}

static int value(int round, int rank, int i) { return round * 7919 + rank * 104729 + i * 31; }

/* A double per rank whose sum in different orders differs in the last bits. */
static double part(int round, int rank) { return rank % 2 == 0 ? 1e16 / (rank + 1 + round % 3) : 1.0 + rank * 0.1; }

static int sizes[] = {0, 1, 2, 15, 64, 255, 1024, 2047, 2048, 2049, kMaxInts};

static void one_round(MPI_Comm comm, int round) {
  int rank, n;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &n);
  const int count = sizes[round % (int)(sizeof sizes / sizeof sizes[0])];
  const int root = round % n;
  const int in_place = round % 3 == 1;
  int *buf = malloc(sizeof(int) * kMaxInts);
  int *all = malloc(sizeof(int) * (size_t)n * kMaxInts);
  int *out = malloc(sizeof(int) * (size_t)n * kMaxInts);

  /* bcast */
  for (int i = 0; i < count; ++i) buf[i] = rank == root ? value(round, root, i) : -1;
  MPI_Bcast(buf, count, MPI_INT, root, comm);
  for (int i = 0; i < count; ++i)
    if (buf[i] != value(round, root, i)) fail("bcast", round, i, buf[i], value(round, root, i));

  /* a large bcast: by single copy from the root's buffer from 32 KiB */
  static const int big_counts[] = {8191, 8192, 40000, 100};
  const int big = big_counts[round % 4];
  int *large = malloc(sizeof(int) * 40000);
  for (int i = 0; i < big; ++i) large[i] = rank == root ? value(round, root, i) : -1;
  MPI_Bcast(large, big, MPI_INT, root, comm);
  for (int i = 0; i < big; ++i)
    if (large[i] != value(round, root, i)) {
      fail("large bcast", round, i, large[i], value(round, root, i));
      break;
    }
  free(large);

  /* allreduce and reduce of order-sensitive doubles: all ranks alike */
  double mine = part(round, rank), sum = 0.0, *sums = malloc(sizeof(double) * (size_t)n);
  if (in_place) {
    sum = mine;
    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
  } else {
    MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
  }
  MPI_Allgather(&sum, 1, MPI_DOUBLE, sums, 1, MPI_DOUBLE, comm);
  for (int r = 0; r < n; ++r)
    if (memcmp(&sums[r], &sum, sizeof sum) != 0) fail("allreduce bits differ from rank", round, r, 0, 1);
  free(sums);

  /* integer sums, exact: allreduce in place, reduce in place at the root on some rounds */
  const int small = count < 1000 ? count : 1000;
  for (int i = 0; i < small; ++i) buf[i] = value(round, rank, i);
  MPI_Allreduce(MPI_IN_PLACE, buf, small, MPI_INT, MPI_SUM, comm);
  for (int i = 0; i < small; ++i) {
    long want = 0;
    for (int r = 0; r < n; ++r) want += value(round, r, i);
    if (buf[i] != (int)want) fail("allreduce int", round, i, buf[i], (int)want);
  }
  for (int i = 0; i < small; ++i) buf[i] = value(round, rank, i) ^ 5, out[i] = -1;
  if (rank == root && in_place)
    MPI_Reduce(MPI_IN_PLACE, buf, small, MPI_INT, MPI_SUM, root, comm);
  else
    MPI_Reduce(buf, out, small, MPI_INT, MPI_SUM, root, comm);
  const int *reduced = in_place ? buf : out;
  for (int i = 0; rank == root && i < small; ++i) {
    long want = 0;
    for (int r = 0; r < n; ++r) want += value(round, r, i) ^ 5;
    if (reduced[i] != (int)want) fail("reduce int", round, i, reduced[i], (int)want);
  }

  /* gather, allgather, alltoall of a smaller block (alltoall publishes n of them) */
  const int block = count / n;
  for (int i = 0; i < block; ++i) buf[i] = value(round, rank, i);
  for (int i = 0; i < n * block; ++i) all[i] = -1;
  if (in_place && rank == root) {
    memcpy(all + (size_t)root * block, buf, sizeof(int) * (size_t)block);
    MPI_Gather(MPI_IN_PLACE, block, MPI_INT, all, block, MPI_INT, root, comm);
  } else {
    MPI_Gather(buf, block, MPI_INT, all, block, MPI_INT, root, comm);
  }
  if (rank == root)
    for (int r = 0; r < n; ++r)
      for (int i = 0; i < block; ++i)
        if (all[r * block + i] != value(round, r, i)) fail("gather", round, r * block + i, all[r * block + i], value(round, r, i));
  for (int i = 0; i < n * block; ++i) all[i] = -1;
  if (in_place) {
    memcpy(all + (size_t)rank * block, buf, sizeof(int) * (size_t)block);
    MPI_Allgather(MPI_IN_PLACE, block, MPI_INT, all, block, MPI_INT, comm);
  } else {
    MPI_Allgather(buf, block, MPI_INT, all, block, MPI_INT, comm);
  }
  for (int r = 0; r < n; ++r)
    for (int i = 0; i < block; ++i)
      if (all[r * block + i] != value(round, r, i)) fail("allgather", round, r * block + i, all[r * block + i], value(round, r, i));
  const int each = block / n;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < each; ++i) all[j * each + i] = value(round, rank, j * 1000 + i);
  if (in_place) {
    memcpy(out, all, sizeof(int) * (size_t)n * each);
    MPI_Alltoall(MPI_IN_PLACE, each, MPI_INT, out, each, MPI_INT, comm);
  } else {
    MPI_Alltoall(all, each, MPI_INT, out, each, MPI_INT, comm);
  }
  for (int r = 0; r < n; ++r)
    for (int i = 0; i < each; ++i)
      if (out[r * each + i] != value(round, r, rank * 1000 + i))
        fail("alltoall", round, r * each + i, out[r * each + i], value(round, r, rank * 1000 + i));

  MPI_Barrier(comm);
  free(buf);
  free(all);
  free(out);
}

typedef struct {
  MPI_Comm comms[5];
  int rounds;
} Work;

static void *run(void *arg) {
  Work *w = arg;
  for (int round = 0; round < w->rounds; ++round) {
    MPI_Comm comm = w->comms[round % 5];
    if (comm != MPI_COMM_NULL) one_round(comm, round);
  }
  return NULL;
}

static void make_comms(Work *w, int rounds) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  w->rounds = rounds;
  MPI_Comm_dup(MPI_COMM_WORLD, &w->comms[0]);
  MPI_Comm_dup(MPI_COMM_WORLD, &w->comms[1]);
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - world_rank, &w->comms[2]); /* reversed */
  MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &w->comms[3]);
  MPI_Comm_dup(w->comms[2], &w->comms[4]);
}

static void free_comms(Work *w) {
  for (int i = 0; i < 5; ++i) MPI_Comm_free(&w->comms[i]);
}

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? atoi(argv[1]) : 200;
  const int threads = argc > 2 ? atoi(argv[2]) : 1;
  const char *launch_rank = getenv("PMIX_RANK");
  const int mixed = argc > 3 && strcmp(argv[3], "mixed") == 0 && launch_rank != NULL && strcmp(launch_rank, "0") == 0;
  if (threads > 1 || mixed) {
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided != MPI_THREAD_MULTIPLE) {
      printf("coll_slots: FAIL MPI_THREAD_MULTIPLE not provided\n");
      return 1;
    }
  } else {
    MPI_Init(&argc, &argv);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  enum { kMaxThreads = 8 };
  Work work[kMaxThreads];
  const int t = threads < 1 ? 1 : threads > kMaxThreads ? kMaxThreads : threads;
  for (int i = 0; i < t; ++i) make_comms(&work[i], rounds);
  if (t == 1) {
    run(&work[0]);
  } else {
    pthread_t ids[kMaxThreads];
    for (int i = 0; i < t; ++i) pthread_create(&ids[i], NULL, run, &work[i]);
    for (int i = 0; i < t; ++i) pthread_join(ids[i], NULL);
  }
  for (int i = 0; i < t; ++i) free_comms(&work[i]);
  /* The world itself, last: every rank's calls on it are numbered alike. */
  one_round(MPI_COMM_WORLD, rounds);
  if (failures == 0) printf("coll_slots: rank %d OK\n", world_rank);
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
