/* errors_return: with MPI_ERRORS_RETURN every invalid argument comes back
 * as its error class, nothing is printed, and the runtime keeps working.
 * Also: handler get/set/free, inheritance by new communicators, and
 * MPI_Error_class / MPI_Error_string. Prints "errors_return: rank R OK". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size, failures;

#define EXPECT(call, want)                                                                          \
  do {                                                                                              \
    int rc_ = (call);                                                                               \
    if (rc_ != (want) && failures++ < 20)                                                           \
      printf("errors_return: FAIL rank %d: %s returned %d, want %s\n", rank, #call, rc_, #want);   \
  } while (0)
#define CHECK(cond, ...)                             \
  do {                                               \
    if (!(cond) && failures++ < 20) {                \
      printf("errors_return: FAIL rank %d: ", rank); \
      printf(__VA_ARGS__);                           \
      printf("\n");                                  \
    }                                                \
  } while (0)

/* The runtime still works: a ring exchange and an allreduce on `comm`. */
static void still_works(MPI_Comm comm, int round) {
  int r, n, got = -1, sum = 0;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &n);
  EXPECT(MPI_Send(&r, 1, MPI_INT, (r + 1) % n, round, comm), MPI_SUCCESS); /* eager */
  EXPECT(MPI_Recv(&got, 1, MPI_INT, (r + n - 1) % n, round, comm, MPI_STATUS_IGNORE), MPI_SUCCESS);
  CHECK(got == (r + n - 1) % n, "round %d: ring got %d", round, got);
  EXPECT(MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, comm), MPI_SUCCESS);
  CHECK(sum == n * (n - 1) / 2, "round %d: allreduce gave %d", round, sum);
}

static void bad_arguments(MPI_Comm comm) {
  int v = 0, w = 0;
  float f = 1.0f, g = 0.0f;
  EXPECT(MPI_Send(&v, 1, MPI_INT, size, 0, comm), MPI_ERR_RANK);
  EXPECT(MPI_Send(&v, 1, MPI_INT, -5, 0, comm), MPI_ERR_RANK);
  EXPECT(MPI_Recv(&v, 1, MPI_INT, size + 1, 0, comm, MPI_STATUS_IGNORE), MPI_ERR_RANK);
  EXPECT(MPI_Send(&v, 1, MPI_INT, 0, -3, comm), MPI_ERR_TAG);
  EXPECT(MPI_Send(&v, -1, MPI_INT, 0, 0, comm), MPI_ERR_COUNT);
  EXPECT(MPI_Send(&v, 1, 9999, 0, 0, comm), MPI_ERR_TYPE);
  EXPECT(MPI_Send(&v, 1, MPI_DATATYPE_NULL, 0, 0, comm), MPI_ERR_TYPE);
  EXPECT(MPI_Send(NULL, 4, MPI_INT, 0, 0, comm), MPI_ERR_BUFFER);
  EXPECT(MPI_Bcast(&v, 1, MPI_INT, size, comm), MPI_ERR_ROOT);
  EXPECT(MPI_Bcast(&v, 1, MPI_INT, -1, comm), MPI_ERR_ROOT);
  EXPECT(MPI_Reduce(&v, &w, 1, MPI_INT, MPI_SUM, size + 2, comm), MPI_ERR_ROOT);
  EXPECT(MPI_Bcast(&v, -2, MPI_INT, 0, comm), MPI_ERR_COUNT);
  EXPECT(MPI_Reduce(&f, &g, 1, MPI_FLOAT, MPI_BAND, 0, comm), MPI_ERR_OP);
  EXPECT(MPI_Allreduce(&f, &g, 1, MPI_FLOAT, MPI_BXOR, comm), MPI_ERR_OP);
  EXPECT(MPI_Allreduce(&v, &w, 1, MPI_INT, 99, comm), MPI_ERR_OP);
  EXPECT(MPI_Allreduce(&v, &w, 1, MPI_INT, MPI_OP_NULL, comm), MPI_ERR_OP);
  EXPECT(MPI_Allreduce(&v, &w, 1, MPI_INT, MPI_REPLACE, comm), MPI_ERR_OP);
  EXPECT(MPI_Allreduce(&v, &w, 1, MPI_INT, MPI_MAXLOC, comm), MPI_ERR_OP);
  EXPECT(MPI_Allreduce(&v, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, comm), MPI_ERR_BUFFER);
  EXPECT(MPI_Allreduce(&v, &v, 1, MPI_INT, MPI_SUM, comm), MPI_ERR_BUFFER);
  EXPECT(MPI_Comm_split(comm, -5, 0, &(MPI_Comm){0}), MPI_ERR_ARG);
}

/* An invalid communicator has no handler of its own: MPI_COMM_WORLD's. */
static void bad_communicators(void) {
  int v = 0;
  EXPECT(MPI_Send(&v, 1, MPI_INT, 0, 0, 777), MPI_ERR_COMM);
  EXPECT(MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
  EXPECT(MPI_Bcast(&v, 1, MPI_INT, 0, -4), MPI_ERR_COMM);
  EXPECT(MPI_Comm_dup(123456, &(MPI_Comm){0}), MPI_ERR_COMM);
  EXPECT(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_NULL, &v), MPI_ERR_COMM);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
  CHECK(eh == MPI_ERRORS_ARE_FATAL, "default handler is %d", eh);
  EXPECT(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), MPI_SUCCESS);
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
  CHECK(eh == MPI_ERRORS_RETURN, "handler after set is %d", eh);
  EXPECT(MPI_Errhandler_free(&eh), MPI_SUCCESS);
  CHECK(eh == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free left %d", eh);
  EXPECT(MPI_Comm_set_errhandler(MPI_COMM_WORLD, 42), MPI_ERR_ARG);

  bad_arguments(MPI_COMM_WORLD);
  bad_communicators();
  still_works(MPI_COMM_WORLD, 1);

  /* A duplicate inherits MPI_ERRORS_RETURN, and keeps it when the parent
   * goes back to fatal; a duplicate made then is fatal. */
  MPI_Comm dup, fatal_dup, world = MPI_COMM_WORLD, self = MPI_COMM_SELF;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_get_errhandler(dup, &eh);
  CHECK(eh == MPI_ERRORS_RETURN, "dup's handler is %d", eh);
  EXPECT(MPI_Comm_free(&world), MPI_ERR_COMM);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN); /* raised on MPI_COMM_SELF itself */
  EXPECT(MPI_Comm_free(&self), MPI_ERR_COMM);
  CHECK(world == MPI_COMM_WORLD && self == MPI_COMM_SELF, "failed free changed the handle");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Comm_dup(MPI_COMM_WORLD, &fatal_dup);
  MPI_Comm_get_errhandler(fatal_dup, &eh);
  CHECK(eh == MPI_ERRORS_ARE_FATAL, "dup of a fatal communicator has handler %d", eh);
  bad_arguments(dup);
  still_works(dup, 2);
  still_works(fatal_dup, 3);

  int cls = -1, len = 0;
  char text[MPI_MAX_ERROR_STRING];
  MPI_Error_class(MPI_ERR_RANK, &cls);
  CHECK(cls == MPI_ERR_RANK, "MPI_Error_class(MPI_ERR_RANK) = %d", cls);
  MPI_Error_string(MPI_ERR_OP, text, &len);
  CHECK(strcmp(text, "MPI_ERR_OP: invalid reduce operation") == 0 && len == (int)strlen(text),
        "MPI_Error_string(MPI_ERR_OP) = '%s'", text);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  EXPECT(MPI_Error_class(9999, &cls), MPI_ERR_ARG);
  EXPECT(MPI_Error_string(-4, text, &len), MPI_ERR_ARG);

  MPI_Comm_free(&dup);
  MPI_Comm_free(&fatal_dup);
  still_works(MPI_COMM_WORLD, 4);
  if (failures == 0) printf("errors_return: rank %d OK\n", rank);
  MPI_Finalize();
  return failures != 0;
}
