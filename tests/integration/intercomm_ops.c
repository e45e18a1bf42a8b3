/* intercomm_ops: an intercommunicator between the even and the odd world
 * ranks (MPI_Intercomm_create over MPI_COMM_WORLD), point-to-point across
 * it (with MPI_ANY_SOURCE and statuses naming remote ranks), its queries,
 * MPI_Barrier / MPI_Bcast / MPI_Reduce / MPI_Allreduce with MPI_ROOT and
 * MPI_PROC_NULL, MPI_Comm_dup of it, MPI_Comm_split and MPI_Comm_create on
 * it, MPI_Intercomm_merge both ways, and errors. Every other collective on
 * intercommunicators, and the nonblocking ones: intercomm_coll_ops.c.
 * Needs 2 or more ranks. Prints "intercomm_ops: rank R OK". */
#include "check.h"

static int rank, size;

static void test_p2p(MPI_Comm inter, int local_rank, int remote_size) {
  /* Each rank sends its world rank to remote rank (local_rank % remote_size). */
  const int to = local_rank % remote_size;
  MPI_Request req;
  MPI_Isend(&rank, 1, MPI_INT, to, 9, inter, &req);
  /* Remote ranks r with r % my_local_size == local_rank send to us. */
  int local_size;
  MPI_Comm_size(inter, &local_size);
  for (int r = local_rank; r < remote_size; r += local_size) {
    int got = -1;
    MPI_Status st;
    MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 9, inter, &st);
    /* remote rank s is world rank 2s + (1 - rank%2) */
    CHECK(got == 2 * st.MPI_SOURCE + (1 - rank % 2), "from remote %d got world %d", st.MPI_SOURCE, got);
  }
  MPI_Wait(&req, MPI_STATUS_IGNORE);
}

static void test_collectives(MPI_Comm inter, int local_rank, int remote_size) {
  const int even = rank % 2 == 0;
  MPI_Barrier(inter);
  /* Bcast from even local rank 0 to the odd group. */
  int value = even && local_rank == 0 ? 4242 : -1;
  const int root = even ? (local_rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
  MPI_Bcast(&value, 1, MPI_INT, root, inter);
  CHECK(even ? (local_rank == 0 ? value == 4242 : value == -1) : value == 4242, "bcast gave %d", value);
  /* Reduce the odd group's world ranks to even local rank 0. */
  int sum = -1;
  MPI_Reduce(&rank, &sum, 1, MPI_INT, MPI_SUM, root, inter);
  if (even && local_rank == 0) {
    int want = 0;
    for (int w = 1; w < size; w += 2) want += w;
    CHECK(sum == want, "intercomm reduce gave %d, want %d", sum, want);
  }
  /* Allreduce: each group gets the other's sum. */
  int other = -1, want = 0;
  MPI_Allreduce(&rank, &other, 1, MPI_INT, MPI_SUM, inter);
  for (int w = even ? 1 : 0; w < size; w += 2) want += w;
  CHECK(other == want, "intercomm allreduce gave %d, want %d", other, want);
  (void)remote_size;
}

/* The same three over a column of ints (a vector with stride 2): exact in
 * the column, the ints between its elements untouched. */
static void test_typed_collectives(MPI_Comm inter, int local_rank) {
  const int even = rank % 2 == 0, root = even ? (local_rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
  MPI_Datatype col;
  MPI_Type_vector(3, 1, 2, MPI_INT, &col);
  MPI_Type_commit(&col);
  int b[5], bad = 0;
  for (int i = 0; i < 5; ++i) b[i] = even && local_rank == 0 ? 10 + i : -1;
  MPI_Bcast(b, 1, col, root, inter);
  for (int i = 0; i < 5; ++i) {
    const int sender = even && local_rank == 0, receiver = !even;
    bad += b[i] != (sender || (receiver && i % 2 == 0) ? 10 + i : -1);
  }
  CHECK(bad == 0, "intercomm bcast over a column: %d ints wrong", bad);
  int s[5], r[5], want = 0;
  for (int i = 0; i < 5; ++i) s[i] = rank, r[i] = -1;
  MPI_Reduce(s, r, 1, col, MPI_SUM, root, inter);
  for (int w = 1; w < size; w += 2) want += w;
  bad = 0;
  for (int i = 0; i < 5; ++i) bad += r[i] != (even && local_rank == 0 && i % 2 == 0 ? want : -1);
  CHECK(bad == 0, "intercomm reduce over a column: %d ints wrong", bad);
  for (int i = 0; i < 5; ++i) r[i] = -1;
  MPI_Allreduce(s, r, 1, col, MPI_SUM, inter);
  want = 0;
  for (int w = even ? 1 : 0; w < size; w += 2) want += w;
  bad = 0;
  for (int i = 0; i < 5; ++i) bad += r[i] != (i % 2 == 0 ? want : -1);
  CHECK(bad == 0, "intercomm allreduce over a column: %d ints wrong", bad);
  MPI_Type_free(&col);
}

/* Split by local rank parity (reversed keys): parity p of each side pairs
 * with parity p of the other; a side without that parity gets MPI_COMM_NULL. */
static void test_split(MPI_Comm inter, int local_rank, int local_size, int remote_size) {
  const int p = local_rank % 2;
  MPI_Comm part;
  MPI_Comm_split(inter, p, -local_rank, &part);
  const int mine = (local_size + 1 - p) / 2, theirs = (remote_size + 1 - p) / 2;
  if (theirs == 0) {
    CHECK(part == MPI_COMM_NULL, "split without remote partners gave a communicator");
  } else {
    int r = -1, n = -1, rn = -1, flag = 0;
    MPI_Comm_rank(part, &r);
    MPI_Comm_size(part, &n);
    MPI_Comm_remote_size(part, &rn);
    MPI_Comm_test_inter(part, &flag);
    CHECK(flag && n == mine && rn == theirs && r == mine - 1 - local_rank / 2, "split part rank %d %d/%d", r, n, rn);
    int sum = -1, want = 0; /* the other side's world ranks with parity p */
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, part);
    for (int s = p; s < remote_size; s += 2) want += 2 * s + (1 - rank % 2);
    CHECK(sum == want, "allreduce over split part %d, want %d", sum, want);
    MPI_Comm_free(&part);
  }
  /* MPI_Comm_create with each side's local rank 0 only. */
  MPI_Group local, first;
  MPI_Comm_group(inter, &local);
  int zero = 0;
  MPI_Group_incl(local, 1, &zero, &first);
  MPI_Comm pair;
  MPI_Comm_create(inter, first, &pair);
  if (local_rank == 0) {
    int token = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, 0, 1, &token, 1, MPI_INT, 0, 1, pair, MPI_STATUS_IGNORE);
    CHECK(token == 1 - rank, "leaders' pair got %d", token);
    MPI_Comm_free(&pair);
  } else {
    CHECK(pair == MPI_COMM_NULL, "non-member got a communicator");
  }
  MPI_Group_free(&first);
  MPI_Group_free(&local);
}

static void test_merge(MPI_Comm inter) {
  const int even = rank % 2 == 0;
  for (int high_odd = 0; high_odd < 2; ++high_odd) {
    MPI_Comm merged;
    MPI_Intercomm_merge(inter, even ? !high_odd : high_odd, &merged);
    int r, n, flag = 1;
    MPI_Comm_rank(merged, &r);
    MPI_Comm_size(merged, &n);
    MPI_Comm_test_inter(merged, &flag);
    const int evens = (size + 1) / 2, odds = size / 2;
    int want = high_odd ? (even ? rank / 2 : evens + rank / 2) : (even ? odds + rank / 2 : rank / 2);
    CHECK(n == size && r == want && !flag, "merge(high_odd=%d): rank %d of %d, want %d", high_odd, r, n, want);
    int total = 0;
    MPI_Allreduce(&rank, &total, 1, MPI_INT, MPI_SUM, merged);
    CHECK(total == size * (size - 1) / 2, "allreduce over merged gave %d", total);
    MPI_Comm_free(&merged);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_rank = rank;
  MPI_Comm half, inter;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  /* Leaders: world 0 (even) and world 1 (odd). */
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 == 0 ? 1 : 0, 77, &inter);
  int flag = 0, local_rank = -1, local_size = -1, remote_size = -1;
  MPI_Comm_test_inter(inter, &flag);
  MPI_Comm_rank(inter, &local_rank);
  MPI_Comm_size(inter, &local_size);
  MPI_Comm_remote_size(inter, &remote_size);
  const int evens = (size + 1) / 2, odds = size / 2;
  CHECK(flag && local_rank == rank / 2, "test_inter %d, rank %d", flag, local_rank);
  CHECK(local_size == (rank % 2 ? odds : evens) && remote_size == (rank % 2 ? evens : odds), "sizes %d / %d",
        local_size, remote_size);
  MPI_Group remote;
  MPI_Comm_remote_group(inter, &remote);
  int zero = 0, world_of_remote0 = -1;
  MPI_Group wg;
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  MPI_Group_translate_ranks(remote, 1, &zero, wg, &world_of_remote0);
  CHECK(world_of_remote0 == (rank % 2 ? 0 : 1), "remote rank 0 is world %d", world_of_remote0);
  MPI_Group_free(&remote);
  MPI_Group_free(&wg);
  test_p2p(inter, local_rank, remote_size);
  test_collectives(inter, local_rank, remote_size);
  test_typed_collectives(inter, local_rank);
  MPI_Comm dup;
  MPI_Comm_dup(inter, &dup);
  int result = -1;
  MPI_Comm_compare(inter, dup, &result);
  CHECK(result == MPI_CONGRUENT, "compare(inter, dup) = %d", result);
  MPI_Comm_compare(inter, MPI_COMM_WORLD, &result);
  CHECK(result == MPI_UNEQUAL, "compare(inter, world) = %d", result);
  test_p2p(dup, local_rank, remote_size);
  test_split(dup, local_rank, local_size, remote_size);
  test_merge(dup);
  /* Errors: queries of an intracommunicator, an intercomm-only call, a bad root. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
  int n = 0;
  CHECK(MPI_Comm_remote_size(MPI_COMM_WORLD, &n) == MPI_ERR_COMM, "remote_size of world");
  MPI_Comm part = MPI_COMM_NULL;
  int rc = MPI_Comm_split_type(inter, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &part);
  CHECK(rc == MPI_ERR_UNSUPPORTED_OPERATION, "split_type of an intercommunicator gave %d", rc);
  rc = MPI_Bcast(&n, 1, MPI_INT, size + 5, inter);
  CHECK(rc == MPI_ERR_ROOT, "bcast with root %d gave %d", size + 5, rc);
  rc = MPI_Send(&n, 1, MPI_INT, remote_size, 0, inter);
  CHECK(rc == MPI_ERR_RANK, "send to remote rank %d gave %d", remote_size, rc);
  MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN);
  MPI_Comm bad = MPI_COMM_NULL;
  rc = MPI_Intercomm_create(half, local_size, MPI_COMM_WORLD, 0, 1, &bad);
  CHECK(rc == MPI_ERR_RANK && bad == MPI_COMM_NULL, "local_leader %d gave %d", local_size, rc);
  rc = MPI_Intercomm_create(inter, 0, MPI_COMM_WORLD, 0, 1, &bad);
  CHECK(rc == MPI_ERR_COMM, "an intercommunicator as local_comm gave %d", rc);
  if (local_rank == 0) { /* only the leaders look at peer_comm and remote_leader */
    rc = MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank, 1, &bad);
    CHECK(rc == MPI_ERR_RANK, "a remote leader in the local group gave %d", rc);
  }
  rc = MPI_Intercomm_merge(half, 0, &bad);
  CHECK(rc == MPI_ERR_COMM, "merging an intracommunicator gave %d", rc);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
  rc = check_report("intercomm_ops");
  MPI_Finalize();
  return rc;
}
