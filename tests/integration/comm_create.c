/* comm_create: MPI_Comm_create (even ranks; mismatched groups detected),
 * MPI_Comm_create_group (odd ranks only, the even ones carry on; random
 * overlapping groups in a row, outsiders running ahead), and
 * traffic on the results; MPI_Comm_split_type with MPI_COMM_TYPE_SHARED,
 * HW_GUIDED ("mpi_shared_memory", an unknown resource), HW_UNGUIDED and
 * MPI_UNDEFINED; MPI_Comm_idup; names; MPI_Comm_get_parent.
 * Prints "comm_create: rank R OK" or FAIL lines. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

static MPI_Group world_group(void) {
  MPI_Group g;
  MPI_Comm_group(MPI_COMM_WORLD, &g);
  return g;
}

static void test_comm_create(void) {
  MPI_Group world = world_group(), even;
  int range[1][3] = {{0, size - 1, 2}};
  MPI_Group_range_incl(world, 1, range, &even);
  MPI_Comm c;
  MPI_Comm_create(MPI_COMM_WORLD, even, &c);
  if (rank % 2) {
    CHECK(c == MPI_COMM_NULL, "odd rank got a communicator");
  } else {
    int r, n, sum = 0;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    CHECK(r == rank / 2 && n == (size + 1) / 2, "even comm rank %d size %d", r, n);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
    int want = 0;
    for (int w = 0; w < size; w += 2) want += w;
    CHECK(sum == want, "allreduce over even comm %d", sum);
    MPI_Comm_free(&c);
  }
  /* Mismatch: rank 0 passes the world group, the others the even one. */
  if (size > 2) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Comm_create(MPI_COMM_WORLD, rank == 0 ? world : even, &c);
    CHECK(rc == MPI_ERR_GROUP, "mismatched groups gave %d", rc);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  }
  MPI_Group_free(&even);
  MPI_Group_free(&world);
}

static void test_create_group(void) {
  MPI_Group world = world_group(), odd;
  int range[1][3] = {{1, size - 1, 2}};
  if (size > 1)
    MPI_Group_range_incl(world, 1, range, &odd);
  else
    odd = MPI_GROUP_EMPTY;
  if (rank % 2) { /* only the members call */
    MPI_Comm c;
    MPI_Comm_create_group(MPI_COMM_WORLD, odd, 5, &c);
    int r, n, token = -1;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    CHECK(r == rank / 2 && n == size / 2, "odd comm rank %d size %d", r, n);
    MPI_Sendrecv(&rank, 1, MPI_INT, (r + 1) % n, 0, &token, 1, MPI_INT, (r + n - 1) % n, 0, c, MPI_STATUS_IGNORE);
    CHECK(token == 2 * ((r + n - 1) % n) + 1, "ring on odd comm got %d", token);
    MPI_Comm_free(&c);
  }
  if (odd != MPI_GROUP_EMPTY) MPI_Group_free(&odd);
  MPI_Group_free(&world);
  MPI_Barrier(MPI_COMM_WORLD);
}

static int comm_size(MPI_Comm c) {
  int n = -1;
  MPI_Comm_size(c, &n);
  return n;
}

/* MPI_Comm_create_group over a new pseudo-random group each round (the
 * same sequence on every rank), all with tag 0: the ranks outside a round's
 * group run ahead into later rounds, so agreements of overlapping groups
 * are in flight at once. Every member must end on the same communicator:
 * a barrier and an allreduce over it give the group's sum. */
static void test_create_group_overlapping(void) {
  enum { kRounds = 100 };
  MPI_Group world = world_group();
  int *ranks = malloc(sizeof(int) * (size_t)size);
  unsigned state = 12345u;
  for (int round = 0; round < kRounds; ++round) {
    int n = 0, want = 0, mine = 0;
    for (int w = 0; w < size; ++w) {
      state = state * 1103515245u + 12345u;
      if ((state >> 16) & 1u) continue;
      ranks[n++] = w;
      want += w;
      mine |= w == rank;
    }
    if (!mine) continue;
    MPI_Group g;
    MPI_Comm c;
    MPI_Group_incl(world, n, ranks, &g);
    MPI_Comm_create_group(MPI_COMM_WORLD, g, 0, &c);
    MPI_Barrier(c);
    int sum = -1;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
    CHECK(comm_size(c) == n && sum == want, "round %d: size %d of %d, allreduce %d, want %d", round, comm_size(c), n,
          sum, want);
    MPI_Comm_free(&c);
    MPI_Group_free(&g);
  }
  free(ranks);
  MPI_Group_free(&world);
  MPI_Barrier(MPI_COMM_WORLD);
}

static void test_split_type(void) {
  MPI_Comm shared, guided, none, unguided, undefined;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, -rank, MPI_INFO_NULL, &shared);
  int r = -1;
  MPI_Comm_rank(shared, &r);
  CHECK(comm_size(shared) == size && r == size - 1 - rank, "shared size %d rank %d", comm_size(shared), r);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_hw_resource_type", "mpi_shared_memory");
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &guided);
  CHECK(comm_size(guided) == size, "guided shared memory size %d", comm_size(guided));
  MPI_Info used;
  char value[64];
  int flag = 0;
  MPI_Comm_get_info(guided, &used);
  MPI_Info_get(used, "mpi_hw_resource_type", 63, value, &flag);
  CHECK(flag && strcmp(value, "mpi_shared_memory") == 0, "resource type hint %s", flag ? value : "(none)");
  MPI_Info_free(&used);
  MPI_Info_set(info, "mpi_hw_resource_type", "no such thing");
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &none);
  CHECK(none == MPI_COMM_NULL, "unknown resource gave a communicator");
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0, MPI_INFO_NULL, &unguided);
  CHECK(unguided == MPI_COMM_NULL || comm_size(unguided) < size, "unguided is not a strict subset");
  if (unguided != MPI_COMM_NULL) MPI_Comm_free(&unguided);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &undefined);
  CHECK(undefined == MPI_COMM_NULL, "MPI_UNDEFINED gave a communicator");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rc = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, MPI_INFO_NULL, &none);
  CHECK(rc == MPI_ERR_INFO_NOKEY, "HW_GUIDED without the key gave %d", rc);
  rc = MPI_Comm_split_type(MPI_COMM_WORLD, 99, 0, MPI_INFO_NULL, &none);
  CHECK(rc == MPI_ERR_ARG, "split_type 99 gave %d", rc);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Info_free(&info);
  MPI_Comm_free(&guided);
  MPI_Comm_free(&shared);
}

static void test_idup_names_parent(void) {
  MPI_Comm c;
  MPI_Request req;
  MPI_Comm_idup(MPI_COMM_WORLD, &c, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  CHECK(req == MPI_REQUEST_NULL && comm_size(c) == size, "idup");
  char name[MPI_MAX_OBJECT_NAME];
  int len = -1;
  MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
  CHECK(strcmp(name, "MPI_COMM_WORLD") == 0 && len == 14, "world is named %s", name);
  MPI_Comm_get_name(c, name, &len);
  CHECK(len == 0 && name[0] == '\0', "unnamed communicator is called %s", name);
  MPI_Comm_set_name(c, "solver");
  MPI_Comm_get_name(c, name, &len);
  CHECK(strcmp(name, "solver") == 0 && len == 6, "named %s", name);
  MPI_Comm parent = MPI_COMM_WORLD;
  MPI_Comm_get_parent(&parent);
  CHECK(parent == MPI_COMM_NULL, "parent %d", parent);
  MPI_Comm_free(&c);
}

/* Ranks whose next free context ids differ (rank 0 made communicators of
 * its own) still agree on one for a duplicate, and traffic on it works. */
static void test_uneven_contexts(void) {
  MPI_Comm own[3] = {MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL};
  if (rank == 0)
    for (int i = 0; i < 3; ++i) MPI_Comm_dup(MPI_COMM_SELF, &own[i]);
  MPI_Comm dup, dup2;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_dup_with_info(dup, MPI_INFO_NULL, &dup2);
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup2);
  CHECK(sum == size * (size - 1) / 2, "allreduce over a dup after uneven contexts gave %d", sum);
  int token = -1;
  MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0, &token, 1, MPI_INT, (rank + size - 1) % size, 0, dup,
               MPI_STATUS_IGNORE);
  CHECK(token == (rank + size - 1) % size, "ring on dup got %d", token);
  MPI_Comm_free(&dup2);
  MPI_Comm_free(&dup);
  if (rank == 0)
    for (int i = 0; i < 3; ++i) MPI_Comm_free(&own[i]);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_rank = rank;
  test_comm_create();
  test_create_group();
  test_create_group_overlapping();
  test_split_type();
  test_idup_names_parent();
  test_uneven_contexts();
  const int rc = check_report("comm_create");
  MPI_Finalize();
  return rc;
}
