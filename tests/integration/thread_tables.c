/* thread_tables: the handle tables grow while other threads wait
 * (MPI_THREAD_MULTIPLE, 2 ranks, 4 threads). On each rank threads 1..3
 * block in MPI_Recv on their own communicator with their own derived
 * datatype; meanwhile thread 0 makes thousands of datatypes, communicators
 * (past the 4096 the communicator table once reserved), groups, infos,
 * keyvals, reduction ops and pending requests, checks them, and only then
 * sends the other rank's waiting threads their messages. A table that
 * moved its entries would pull the waiting calls' datatype or communicator
 * from under them; the payloads and statuses show it.
 * Usage: thread_tables [SCALE]  (SCALE 1: the full counts; larger divides) */
#include <string.h>

#include "thread_check.h"

#define THREADS 4
#define BLOCKS 24
static int types_n = 3000, comms_n = 4200, objects_n = 1000, requests_n = 1000;
static MPI_Comm base[THREADS];
static MPI_Datatype strided[THREADS];  /* BLOCKS ints, every other one */
static pthread_barrier_t start;

static int value_of(int rank, long t, int i) { return rank * 100000 + (int)t * 1000 + i; }

static void *waiter(long t) {
  int got[2 * BLOCKS];
  for (int i = 0; i < 2 * BLOCKS; ++i) got[i] = -1;
  pthread_barrier_wait(&start);
  MPI_Status st;
  MPI_Recv(got, 1, strided[t], 1 - tc_rank, 1, base[t], &st);
  int count = -1;
  MPI_Get_count(&st, MPI_INT, &count);
  TCHECK(st.MPI_SOURCE == 1 - tc_rank && count == BLOCKS, "thread %ld: source %d count %d", t, st.MPI_SOURCE, count);
  for (int i = 0; i < BLOCKS; ++i) {
    TCHECK(got[2 * i] == value_of(1 - tc_rank, t, i), "thread %ld: block %d is %d", t, i, got[2 * i]);
    TCHECK(got[2 * i + 1] == -1, "thread %ld: gap %d written (%d)", t, i, got[2 * i + 1]);
  }
  return NULL;
}

static void sum_op(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)type;
  for (int i = 0; i < *len; ++i) ((int *)inout)[i] += ((int *)in)[i];
}

/* Types and communicators: made, checked after all are made, freed. */
static void grow_types_and_comms(void) {
  MPI_Datatype *types = malloc(sizeof *types * (size_t)types_n);
  for (int i = 0; i < types_n; ++i) {
    MPI_Type_contiguous(i % 50 + 1, MPI_INT, &types[i]);
    MPI_Type_commit(&types[i]);
  }
  for (int i = 0; i < types_n; i += 97) {
    int size = -1;
    MPI_Type_size(types[i], &size);
    TCHECK(size == (int)sizeof(int) * (i % 50 + 1), "type %d: size %d", i, size);
  }
  for (int i = 0; i < types_n; ++i) MPI_Type_free(&types[i]);
  free(types);
  MPI_Comm *comms = malloc(sizeof *comms * (size_t)comms_n);
  for (int i = 0; i < comms_n; ++i) MPI_Comm_dup(MPI_COMM_SELF, &comms[i]);
  for (int i = 0; i < comms_n; i += 211) {
    int size = -1, got = -1;
    MPI_Comm_size(comms[i], &size);
    MPI_Sendrecv(&i, 1, MPI_INT, 0, 3, &got, 1, MPI_INT, 0, 3, comms[i], MPI_STATUS_IGNORE);
    TCHECK(size == 1 && got == i, "self dup %d: size %d, sent %d got %d", i, size, i, got);
  }
  for (int i = 0; i < comms_n; ++i) MPI_Comm_free(&comms[i]);
  free(comms);
}

/* Groups, infos, keyvals, ops and pending requests, likewise. */
static void grow_objects(void) {
  MPI_Group world, *groups = malloc(sizeof *groups * (size_t)objects_n);
  MPI_Info *infos = malloc(sizeof *infos * (size_t)objects_n);
  int *keyvals = malloc(sizeof *keyvals * (size_t)objects_n);
  MPI_Op *ops = malloc(sizeof *ops * (size_t)objects_n);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  for (int i = 0; i < objects_n; ++i) {
    const int member = i % 2;
    MPI_Group_incl(world, 1, &member, &groups[i]);
    MPI_Info_create(&infos[i]);
    MPI_Info_set(infos[i], "index", i % 2 ? "odd" : "even");
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyvals[i], NULL);
    MPI_Op_create(sum_op, 1, &ops[i]);
  }
  int total = 1, flag = 0, rank = -1;
  char value[8] = "";
  MPI_Group_rank(groups[objects_n - 1], &rank);
  MPI_Info_get(infos[objects_n - 1], "index", sizeof value - 1, value, &flag);
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT, ops[objects_n - 1], MPI_COMM_SELF);
  const int last = objects_n - 1;
  TCHECK(rank == (tc_rank == last % 2 ? 0 : MPI_UNDEFINED) && flag && strcmp(value, last % 2 ? "odd" : "even") == 0 &&
             total == 1,
         "last objects: group rank %d, info %d '%s', op %d", rank, flag, value, total);
  for (int i = 0; i < objects_n; ++i) {
    MPI_Group_free(&groups[i]);
    MPI_Info_free(&infos[i]);
    MPI_Comm_free_keyval(&keyvals[i]);
    MPI_Op_free(&ops[i]);
  }
  MPI_Group_free(&world);
  free(groups), free(infos), free(keyvals), free(ops);
}

static void grow_requests(void) {
  MPI_Request *requests = malloc(sizeof *requests * 2 * (size_t)requests_n);
  int *in = malloc(sizeof *in * (size_t)requests_n), *out = malloc(sizeof *out * (size_t)requests_n);
  for (int i = 0; i < requests_n; ++i) MPI_Irecv(&in[i], 1, MPI_INT, 0, i, MPI_COMM_SELF, &requests[i]);
  for (int i = 0; i < requests_n; ++i) {
    out[i] = i * 3;
    MPI_Isend(&out[i], 1, MPI_INT, 0, i, MPI_COMM_SELF, &requests[requests_n + i]);
  }
  MPI_Waitall(2 * requests_n, requests, MPI_STATUSES_IGNORE);
  for (int i = 0; i < requests_n; ++i) TCHECK(in[i] == i * 3, "self request %d: got %d", i, in[i]);
  free(requests), free(in), free(out);
}

static void *maker(void) {
  pthread_barrier_wait(&start);
  grow_types_and_comms();
  grow_objects();
  grow_requests();
  int payload[BLOCKS];
  for (long t = 1; t < THREADS; ++t) {
    for (int i = 0; i < BLOCKS; ++i) payload[i] = value_of(tc_rank, t, i);
    MPI_Send(payload, BLOCKS, MPI_INT, 1 - tc_rank, 1, base[t]);
  }
  return NULL;
}

static void *thread_main(void *arg) {
  const long t = (long)arg;
  return t == 0 ? maker() : waiter(t);
}

int main(int argc, char **argv) {
  tc_init(&argc, &argv);
  if (argc > 1) {
    const int scale = atoi(argv[1]);
    types_n /= scale, comms_n /= scale, objects_n /= scale, requests_n /= scale;
  }
  for (int t = 0; t < THREADS; ++t) {
    MPI_Comm_dup(MPI_COMM_WORLD, &base[t]);
    MPI_Type_vector(BLOCKS, 1, 2, MPI_INT, &strided[t]);
    MPI_Type_commit(&strided[t]);
  }
  pthread_barrier_init(&start, NULL, THREADS);
  tc_run_threads(THREADS, thread_main);
  pthread_barrier_destroy(&start);
  for (int t = 0; t < THREADS; ++t) {
    MPI_Type_free(&strided[t]);
    MPI_Comm_free(&base[t]);
  }
  MPI_Finalize();
  return tc_report("thread_tables");
}
