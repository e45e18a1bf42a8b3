/* type_contiguous: derived contiguous datatypes. MPI_Type_size on
 * uncommitted types, send/recv of committed ones (count * size bytes,
 * MPI_Get_count in both the derived and the base type), reductions over
 * contiguous types (their base elements), nesting, freeing a type other
 * types were built from, a vector with gaps (no longer an error: see
 * type_ctors.c for non-contiguous types), and the errors: uncommitted use,
 * freeing predefined types. Prints "type_contiguous: rank R OK". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size, failures;

#define CHECK(cond, ...)                               \
  do {                                                 \
    if (!(cond) && failures++ < 10) {                  \
      printf("type_contiguous: FAIL rank %d: ", rank); \
      printf(__VA_ARGS__);                             \
      printf("\n");                                    \
    }                                                  \
  } while (0)

/* Names (MPI_Type_set_name/get_name) and the status setters generalized
 * requests use (MPI_Status_set_elements(_x), MPI_Status_set_cancelled). */
static void names_and_status(void) {
  char name[MPI_MAX_OBJECT_NAME];
  int len = -1;
  MPI_Type_get_name(MPI_DOUBLE, name, &len);
  CHECK(strcmp(name, "MPI_DOUBLE") == 0 && len == 10, "name of MPI_DOUBLE: '%s' (%d)", name, len);
  MPI_Type_get_name(MPI_CXX_DOUBLE_COMPLEX, name, &len);
  CHECK(strcmp(name, "MPI_CXX_DOUBLE_COMPLEX") == 0, "name of MPI_CXX_DOUBLE_COMPLEX: '%s'", name);
  /* The C++ types reduce as their C twins: std::complex<double> is two doubles, bool a byte. */
  double z[2] = {1.5, -2.0}, acc[2] = {0.25, 4.0};
  int err = MPI_Reduce_local(z, acc, 1, MPI_CXX_DOUBLE_COMPLEX, MPI_SUM);
  CHECK(err == MPI_SUCCESS && acc[0] == 1.75 && acc[1] == 2.0, "CXX_DOUBLE_COMPLEX sum: %d (%g, %g)", err, acc[0],
        acc[1]);
  unsigned char t[2] = {1, 0}, u[2] = {0, 0};
  err = MPI_Reduce_local(t, u, 2, MPI_CXX_BOOL, MPI_LOR);
  CHECK(err == MPI_SUCCESS && u[0] == 1 && u[1] == 0, "CXX_BOOL lor: %d (%d %d)", err, u[0], u[1]);
  /* Fortran's types named in C: LOGICAL is an int whose nonzero is .TRUE.,
   * INTEGER takes arithmetic but no logical operation, 2INTEGER pairs. */
  int l_in[2] = {5, 0}, l_acc[2] = {7, 7};
  err = MPI_Reduce_local(l_in, l_acc, 2, MPI_LOGICAL, MPI_LAND);
  CHECK(err == MPI_SUCCESS && l_acc[0] == 1 && l_acc[1] == 0, "LOGICAL land: %d (%d %d)", err, l_acc[0], l_acc[1]);
  int i_in[2] = {3, 4}, i_acc[2] = {10, 20};
  err = MPI_Reduce_local(i_in, i_acc, 2, MPI_INTEGER, MPI_SUM);
  CHECK(err == MPI_SUCCESS && i_acc[0] == 13 && i_acc[1] == 24, "INTEGER sum: %d", err);
  err = MPI_Reduce_local(i_in, i_acc, 2, MPI_INTEGER, MPI_LAND);
  CHECK(err == MPI_ERR_OP, "INTEGER land returned %d, not MPI_ERR_OP", err);
  int loc_in[2] = {9, 1}, loc_acc[2] = {4, 0}; /* value, index */
  err = MPI_Reduce_local(loc_in, loc_acc, 1, MPI_2INTEGER, MPI_MAXLOC);
  CHECK(err == MPI_SUCCESS && loc_acc[0] == 9 && loc_acc[1] == 1, "2INTEGER maxloc: %d", err);
  MPI_Type_get_name(MPI_DOUBLE_PRECISION, name, &len);
  int dp_size = 0;
  MPI_Type_size(MPI_DOUBLE_PRECISION, &dp_size);
  CHECK(strcmp(name, "MPI_DOUBLE_PRECISION") == 0 && dp_size == 8, "MPI_DOUBLE_PRECISION: '%s', %d bytes", name,
        dp_size);
  MPI_Datatype pair, dup;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_get_name(pair, name, &len);
  CHECK(name[0] == 0 && len == 0, "a new derived type is named '%s'", name);
  MPI_Type_set_name(pair, "int pair");
  MPI_Type_get_name(pair, name, &len);
  CHECK(strcmp(name, "int pair") == 0 && len == 8, "renamed type: '%s' (%d)", name, len);
  MPI_Type_dup(pair, &dup);
  MPI_Type_get_name(dup, name, &len);
  CHECK(len == 0, "a duplicate inherited the name '%s'", name);
  MPI_Type_free(&dup);

  /* A struct of an int and a double: 3 basic elements are one struct and
   * the int of the next, 16 bytes; MPI_Get_elements reads them back. */
  MPI_Datatype fields[2] = {MPI_INT, MPI_DOUBLE}, mixed;
  int lengths[2] = {1, 1};
  MPI_Aint at[2] = {0, 8};
  MPI_Type_create_struct(2, lengths, at, fields, &mixed);
  MPI_Type_commit(&mixed);
  MPI_Status st;
  int count = -1, elements = -1;
  MPI_Count elements_x = -1;
  MPI_Status_set_elements(&st, mixed, 3);
  MPI_Get_elements(&st, mixed, &elements);
  MPI_Get_count(&st, MPI_BYTE, &count);
  CHECK(elements == 3 && count == 16, "set_elements(3): %d elements, %d bytes", elements, count);
  MPI_Status_set_elements_x(&st, MPI_DOUBLE, (MPI_Count)5);
  MPI_Get_elements_x(&st, MPI_DOUBLE, &elements_x);
  MPI_Get_count(&st, MPI_DOUBLE, &count);
  CHECK(elements_x == 5 && count == 5, "set_elements_x(5 doubles): %lld elements, count %d", (long long)elements_x,
        count);
  const MPI_Count huge = (MPI_Count)0x7654321ff1234567LL; /* 63 bits: the status keeps them all */
  MPI_Status_set_elements_x(&st, MPI_BYTE, huge);
  MPI_Get_elements_x(&st, MPI_BYTE, &elements_x);
  CHECK(elements_x == huge, "set_elements_x(2^62 and more bytes): got %llx", (long long)elements_x);
  int cancelled = -1;
  MPI_Status_set_cancelled(&st, 1);
  MPI_Test_cancelled(&st, &cancelled);
  CHECK(cancelled == 1, "set_cancelled(1): %d", cancelled);
  MPI_Status_set_cancelled(&st, 0);
  MPI_Test_cancelled(&st, &cancelled);
  CHECK(cancelled == 0, "set_cancelled(0): %d", cancelled);
  MPI_Type_free(&mixed);
  MPI_Type_free(&pair);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  MPI_Datatype four, twelve, empty, pair3;
  int bytes = -1;
  MPI_Type_contiguous(4, MPI_INT, &four);
  MPI_Type_size(four, &bytes);
  CHECK(bytes == 16, "size of uncommitted contiguous(4, MPI_INT) = %d", bytes);
  int err = MPI_Send(&bytes, 1, four, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  CHECK(err == MPI_ERR_TYPE, "send with an uncommitted type returned %d", err);
  MPI_Type_commit(&four);
  MPI_Type_contiguous(3, four, &twelve);
  MPI_Type_commit(&twelve);
  MPI_Type_size(twelve, &bytes);
  CHECK(bytes == 48, "size of contiguous(3, contiguous(4, MPI_INT)) = %d", bytes);
  MPI_Type_free(&four); /* twelve must stay usable */
  CHECK(four == MPI_DATATYPE_NULL, "MPI_Type_free did not set MPI_DATATYPE_NULL");
  MPI_Type_contiguous(0, MPI_DOUBLE, &empty);
  MPI_Type_size(empty, &bytes);
  CHECK(bytes == 0, "size of contiguous(0, MPI_DOUBLE) = %d", bytes);
  MPI_Type_free(&empty);

  /* Send/recv: 2 x twelve = 24 ints, eager and large (rendezvous). */
  for (int big = 0; big < 2; ++big) {
    static int buf[12 * 3000];
    const int count = big ? 2900 : 2, capacity = big ? 3000 : 8;
    if (size >= 2 && rank < 2) {
      if (rank == 0) {
        for (int i = 0; i < 12 * count; ++i) buf[i] = i * 5 + big;
        MPI_Send(buf, count, twelve, 1, 9, MPI_COMM_WORLD);
      } else {
        MPI_Status st;
        int n = -1, ints = -1;
        memset(buf, 0xff, sizeof buf);
        MPI_Recv(buf, capacity, twelve, 0, 9, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, twelve, &n);
        MPI_Get_count(&st, MPI_INT, &ints);
        CHECK(n == count && ints == 12 * count, "received %d twelves, %d ints", n, ints);
        int bad = -1;
        for (int i = 0; i < 12 * count && bad < 0; ++i)
          if (buf[i] != i * 5 + big) bad = i;
        CHECK(bad < 0 && buf[12 * count] == -1, "payload wrong at %d (or overrun)", bad);
      }
    }
  }

  /* Reductions over contiguous types reduce their base elements. */
  MPI_Datatype triple;
  MPI_Type_vector(1, 3, 7, MPI_DOUBLE, &triple); /* one block: contiguous */
  MPI_Type_commit(&triple);
  double d[6], out[6];
  for (int i = 0; i < 6; ++i) d[i] = rank + i * 0.5;
  MPI_Allreduce(d, out, 2, triple, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < 6; ++i)
    CHECK(out[i] == size * (size - 1) / 2.0 + size * i * 0.5, "allreduce over triple [%d] = %g", i, out[i]);
  for (int root = 0; root < size; ++root) {
    memcpy(out, d, sizeof d);
    MPI_Reduce(rank == root ? MPI_IN_PLACE : d, out, 2, triple, MPI_MAX, root, MPI_COMM_WORLD);
    if (rank == root)
      for (int i = 0; i < 6; ++i) CHECK(out[i] == size - 1 + i * 0.5, "reduce max over triple [%d] = %g", i, out[i]);
  }
  MPI_Type_contiguous(3, MPI_2INT, &pair3);
  MPI_Type_commit(&pair3);
  struct { int v, i; } p[3], q[3];
  for (int k = 0; k < 3; ++k) p[k].v = (rank + k) % size, p[k].i = rank;
  MPI_Allreduce(p, q, 1, pair3, MPI_MAXLOC, MPI_COMM_WORLD);
  for (int k = 0; k < 3; ++k)
    CHECK(q[k].v == size - 1 && q[k].i == (size - 1 - k + size) % size, "maxloc over pair3 [%d] = (%d,%d)", k,
          q[k].v, q[k].i);
  err = MPI_Allreduce(p, q, 1, pair3, MPI_SUM, MPI_COMM_WORLD);
  CHECK(err == MPI_ERR_OP, "MPI_SUM over contiguous MPI_2INT returned %d", err);

  /* Errors. */
  MPI_Datatype t = MPI_DATATYPE_NULL, predefined = MPI_INT;
  err = MPI_Type_vector(3, 2, 4, MPI_INT, &t);
  MPI_Type_size(t, &bytes);
  CHECK(err == MPI_SUCCESS && bytes == 24, "vector with gaps returned %d, size %d", err, bytes);
  MPI_Type_free(&t);
  err = MPI_Type_vector(3, 2, 2, MPI_INT, &t); /* touching blocks: contiguous */
  MPI_Type_size(t, &bytes);
  CHECK(err == MPI_SUCCESS && bytes == 24, "vector(3, 2, 2) returned %d, size %d", err, bytes);
  MPI_Type_free(&t);
  err = MPI_Type_free(&predefined);
  CHECK(err == MPI_ERR_TYPE && predefined == MPI_INT, "freeing MPI_INT returned %d", err);
  err = MPI_Type_contiguous(-1, MPI_INT, &t);
  CHECK(err == MPI_ERR_COUNT, "contiguous(-1) returned %d", err);
  err = MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &t);
  CHECK(err == MPI_ERR_TYPE, "contiguous of MPI_DATATYPE_NULL returned %d", err);
  t = MPI_DATATYPE_NULL;
  err = MPI_Type_commit(&t);
  CHECK(err == MPI_ERR_TYPE, "committing MPI_DATATYPE_NULL returned %d", err);
  err = MPI_Type_size(12345, &bytes);
  CHECK(err == MPI_ERR_TYPE, "size of an invalid type returned %d", err);

  MPI_Type_free(&twelve);
  MPI_Type_free(&triple);
  MPI_Type_free(&pair3);
  names_and_status();
  if (failures == 0) printf("type_contiguous: rank %d OK\n", rank);
  MPI_Finalize();
  return failures != 0;
}
