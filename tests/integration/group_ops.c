/* group_ops: MPI_Comm_group and every MPI_Group_* call on groups built
 * from MPI_COMM_WORLD (reversed, halves, ranges), MPI_GROUP_EMPTY, and the
 * error classes of invalid groups and ranks under MPI_ERRORS_RETURN.
 * Prints "group_ops: rank R OK" or FAIL lines. */
#include <stdlib.h>

#include "check.h"

static int rank, size;

static int group_size(MPI_Group g) {
  int n = -1;
  MPI_Group_size(g, &n);
  return n;
}

static void test_world_group(void) {
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int r = -1;
  MPI_Group_rank(world, &r);
  CHECK(r == rank && group_size(world) == size, "world group rank %d size %d", r, group_size(world));
  /* reversed = incl(size-1 .. 0) = range_incl(size-1, 0, -1) */
  int *order = malloc(sizeof(int) * (size_t)size);
  for (int i = 0; i < size; ++i) order[i] = size - 1 - i;
  MPI_Group rev, rev2;
  MPI_Group_incl(world, size, order, &rev);
  int range[1][3] = {{size - 1, 0, -1}};
  MPI_Group_range_incl(world, 1, range, &rev2);
  int result = -1;
  MPI_Group_compare(rev, rev2, &result);
  CHECK(result == MPI_IDENT, "incl vs range_incl compare %d", result);
  MPI_Group_compare(rev, world, &result);
  CHECK(result == (size == 1 ? MPI_IDENT : MPI_SIMILAR), "reversed vs world compare %d", result);
  MPI_Group_rank(rev, &r);
  CHECK(r == size - 1 - rank, "rank in reversed %d", r);
  /* translate world ranks into the reversed group, and MPI_PROC_NULL */
  int in[2] = {0, MPI_PROC_NULL}, out[2] = {-7, -7};
  MPI_Group_translate_ranks(world, 2, in, rev, out);
  CHECK(out[0] == size - 1 && out[1] == MPI_PROC_NULL, "translate gave %d %d", out[0], out[1]);
  /* even ranks by excl of the odd ones and by range_excl */
  int odd_n = size / 2;
  for (int i = 0; i < odd_n; ++i) order[i] = 2 * i + 1;
  MPI_Group even, even2, odd;
  MPI_Group_excl(world, odd_n, order, &even);
  MPI_Group_incl(world, odd_n, order, &odd);
  if (odd_n > 0) {
    int odd_range[1][3] = {{1, size - 1, 2}};
    MPI_Group_range_excl(world, 1, odd_range, &even2);
  } else {
    MPI_Group_excl(world, 0, order, &even2);
  }
  MPI_Group_compare(even, even2, &result);
  CHECK(result == MPI_IDENT, "excl vs range_excl %d", result);
  CHECK(group_size(even) == (size + 1) / 2, "even size %d", group_size(even));
  MPI_Group_rank(even, &r);
  CHECK(r == (rank % 2 == 0 ? rank / 2 : MPI_UNDEFINED), "rank in even %d", r);
  /* set algebra: even | odd = world (similar), even & odd = empty, world - odd = even */
  MPI_Group u, i2, d;
  MPI_Group_union(even, odd, &u);
  MPI_Group_compare(u, world, &result);
  CHECK(result == (size <= 2 ? MPI_IDENT : MPI_SIMILAR), "union vs world %d", result);
  MPI_Group_intersection(even, odd, &i2);
  CHECK(i2 == MPI_GROUP_EMPTY && group_size(i2) == 0, "intersection %d size %d", i2, group_size(i2));
  MPI_Group_difference(world, odd, &d);
  MPI_Group_compare(d, even, &result);
  CHECK(result == MPI_IDENT, "difference vs even %d", result);
  /* union order: first group's members, then the second's new ones */
  MPI_Group u2;
  MPI_Group_union(odd, world, &u2);
  int first = -1, zero = 0;
  if (odd_n > 0) {
    MPI_Group_translate_ranks(u2, 1, &zero, world, &first);
    CHECK(first == 1, "union(odd, world) starts with world rank %d", first);
  }
  MPI_Group groups[] = {world, rev, rev2, even, even2, odd, u, i2, d, u2};
  for (int k = 0; k < (int)(sizeof groups / sizeof groups[0]); ++k) {
    MPI_Group_free(&groups[k]);
    CHECK(groups[k] == MPI_GROUP_NULL, "free did not set MPI_GROUP_NULL");
  }
  free(order);
}

static void test_errors(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Group world, g = MPI_GROUP_NULL;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int n = 0, cls = -1;
  int rc = MPI_Group_size(MPI_GROUP_NULL, &n);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_GROUP, "size of MPI_GROUP_NULL gave class %d", cls);
  int bad = size; /* out of range */
  rc = MPI_Group_incl(world, 1, &bad, &g);
  CHECK(rc == MPI_ERR_RANK && g == MPI_GROUP_NULL, "incl of rank %d gave %d", bad, rc);
  int twice[2] = {0, 0};
  rc = MPI_Group_excl(world, 2, twice, &g);
  CHECK(rc == MPI_ERR_RANK, "excl naming 0 twice gave %d", rc);
  int zero_stride[1][3] = {{0, 0, 0}};
  rc = MPI_Group_range_incl(world, 1, zero_stride, &g);
  CHECK(rc == MPI_ERR_ARG, "range with stride 0 gave %d", rc);
  int out = 0;
  rc = MPI_Group_translate_ranks(world, 1, &bad, world, &out);
  CHECK(rc == MPI_ERR_RANK, "translate of rank %d gave %d", bad, rc);
  rc = MPI_Group_free(&g); /* still MPI_GROUP_NULL */
  CHECK(rc == MPI_ERR_GROUP, "free of MPI_GROUP_NULL gave %d", rc);
  rc = MPI_Comm_group(MPI_COMM_NULL, &g);
  CHECK(rc == MPI_ERR_COMM, "group of MPI_COMM_NULL gave %d", rc);
  MPI_Group empty = MPI_GROUP_EMPTY;
  CHECK(group_size(empty) == 0, "MPI_GROUP_EMPTY has size %d", group_size(empty));
  int r = 0;
  MPI_Group_rank(empty, &r);
  CHECK(r == MPI_UNDEFINED, "rank in MPI_GROUP_EMPTY %d", r);
  MPI_Group_free(&world);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* Handles through Fortran and back (MPI_*_c2f / _f2c) name the same
 * objects: the converted world and group still work. */
static void test_fortran_handles(void) {
  MPI_Comm world = MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_WORLD));
  int n = -1;
  MPI_Comm_size(world, &n);
  int size = -1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(world == MPI_COMM_WORLD && n == size, "MPI_Comm_f2c(c2f(world)): size %d", n);
  MPI_Group g;
  MPI_Comm_group(MPI_COMM_WORLD, &g);
  MPI_Group back = MPI_Group_f2c(MPI_Group_c2f(g));
  MPI_Group_size(back, &n);
  CHECK(back == g && n == size, "MPI_Group_f2c(c2f(group)): size %d", n);
  MPI_Group_free(&g);
  CHECK(MPI_Type_f2c(MPI_Type_c2f(MPI_DOUBLE)) == MPI_DOUBLE && MPI_Op_f2c(MPI_Op_c2f(MPI_SUM)) == MPI_SUM &&
            MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_NULL)) == MPI_INFO_NULL &&
            MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL &&
            MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRORS_RETURN)) == MPI_ERRORS_RETURN &&
            MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NULL)) == MPI_MESSAGE_NULL,
        "a predefined handle changed through Fortran");
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_rank = rank;
  test_world_group();
  test_errors();
  test_fortran_handles();
  const int rc = check_report("group_ops");
  MPI_Finalize();
  return rc;
}
