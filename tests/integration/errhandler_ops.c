/* errhandler_ops: user error handlers (called with the communicator and
 * the code, the call then returns the code), MPI_Comm_call_errhandler,
 * MPI_Add_error_class / code / string with MPI_Error_class, MPI_Error_string
 * and MPI_LASTUSEDCODE, MPI_Remove_error_*, MPI_Alloc_mem / MPI_Free_mem.
 * With an argument: "call-fatal" calls MPI_Comm_call_errhandler under
 * MPI_ERRORS_ARE_FATAL, "inter-split" calls MPI_Comm_split_type on an
 * intercommunicator (not supported): both must stop the job with one line naming the call.
 * Prints "errhandler_ops: rank R OK" or FAIL lines. */
#include <string.h>

#include "check.h"

static int rank, size;
static int calls, last_code;
static MPI_Comm last_comm;

static void handler(MPI_Comm *comm, int *code, ...) {
  ++calls;
  last_code = *code;
  last_comm = *comm;
}

static void test_user_handler(void) {
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Errhandler eh, got;
  MPI_Comm_create_errhandler(handler, &eh);
  MPI_Comm_set_errhandler(c, eh);
  MPI_Comm_get_errhandler(c, &got);
  CHECK(got == eh, "get_errhandler %d, set %d", got, eh);
  int rc = MPI_Send(&rank, 1, MPI_INT, size, 0, c); /* invalid rank */
  CHECK(rc == MPI_ERR_RANK && calls == 1 && last_code == MPI_ERR_RANK && last_comm == c,
        "handler: rc %d calls %d code %d", rc, calls, last_code);
  rc = MPI_Comm_call_errhandler(c, MPI_ERR_OTHER);
  CHECK(rc == MPI_SUCCESS && calls == 2 && last_code == MPI_ERR_OTHER, "call_errhandler %d %d", rc, calls);
  MPI_Comm d; /* a duplicate inherits the handler */
  MPI_Comm_dup(c, &d);
  MPI_Comm_call_errhandler(d, MPI_ERR_ARG);
  CHECK(calls == 3 && last_comm == d, "inherited handler: calls %d", calls);
  MPI_Errhandler_free(&eh);
  CHECK(eh == MPI_ERRHANDLER_NULL, "errhandler_free");
  MPI_Comm_call_errhandler(c, MPI_ERR_ARG); /* still attached to c */
  CHECK(calls == 4, "freed handler still in use: calls %d", calls);
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  rc = MPI_Comm_call_errhandler(c, MPI_ERR_ARG);
  CHECK(rc == MPI_SUCCESS && calls == 4, "MPI_ERRORS_RETURN: rc %d calls %d", rc, calls);
  MPI_Comm_free(&d);
  MPI_Comm_free(&c);
}

static void test_error_classes(void) {
  int cls = -1, code = -1, code2 = -1, got = -1, len = 0, flag = 0;
  int *last = NULL;
  MPI_Add_error_class(&cls);
  CHECK(cls > MPI_ERR_LASTCODE, "new class %d", cls);
  MPI_Add_error_code(cls, &code);
  MPI_Add_error_code(MPI_ERR_ARG, &code2);
  MPI_Error_class(code, &got);
  CHECK(got == cls, "class of new code %d", got);
  MPI_Error_class(code2, &got);
  CHECK(got == MPI_ERR_ARG, "class of a code of MPI_ERR_ARG %d", got);
  MPI_Add_error_string(code, "solver diverged");
  char text[MPI_MAX_ERROR_STRING];
  MPI_Error_string(code, text, &len);
  CHECK(strcmp(text, "solver diverged") == 0 && len == 15, "error string %s", text);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
  CHECK(flag && *last == code2, "MPI_LASTUSEDCODE %d, want %d", flag ? *last : -1, code2);
  MPI_Error_string(MPI_ERR_UNSUPPORTED_OPERATION, text, &len);
  CHECK(strncmp(text, "MPI_ERR_UNSUPPORTED_OPERATION", 29) == 0, "string %s", text);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rc = MPI_Remove_error_class(cls); /* still has a code */
  CHECK(rc == MPI_ERR_ARG, "removing a class with codes gave %d", rc);
  MPI_Remove_error_string(code);
  MPI_Remove_error_code(code);
  rc = MPI_Remove_error_class(cls);
  CHECK(rc == MPI_SUCCESS, "remove class gave %d", rc);
  rc = MPI_Error_class(code, &got);
  CHECK(rc == MPI_ERR_ARG, "class of a removed code gave %d", rc);
  rc = MPI_Add_error_code(12345, &code);
  CHECK(rc == MPI_ERR_ARG, "code of an unknown class gave %d", rc);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void test_alloc_mem(void) {
  double *p = NULL;
  MPI_Alloc_mem(1000 * sizeof(double), MPI_INFO_NULL, &p);
  CHECK(p != NULL, "alloc_mem");
  for (int i = 0; i < 1000; ++i) p[i] = i;
  int peer = rank ^ 1;
  if (peer < size) { /* memory from MPI_Alloc_mem works as a buffer */
    double in[1000];
    MPI_Sendrecv(p, 1000, MPI_DOUBLE, peer, 0, in, 1000, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(in[999] == 999.0, "received %f", in[999]);
  }
  MPI_Free_mem(p);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int local = 0;
  int rc = MPI_Free_mem(&local);
  CHECK(rc == MPI_ERR_BASE, "freeing a stack address gave %d", rc);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_rank = rank;
  if (argc > 1 && strcmp(argv[1], "call-fatal") == 0) {
    if (rank == 1) MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("errhandler_ops: rank %d survived\n", rank);
  } else if (argc > 1 && strcmp(argv[1], "inter-split") == 0) {
    MPI_Comm half, inter, part;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 == 0 ? 1 : 0, 0, &inter);
    MPI_Comm_split_type(inter, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &part);
    printf("errhandler_ops: rank %d survived\n", rank);
  } else {
    test_user_handler();
    test_error_classes();
    test_alloc_mem();
  }
  const int rc = check_report("errhandler_ops");
  MPI_Finalize();
  return rc;
}
