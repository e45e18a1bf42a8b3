/* comm_idup: MPI_Comm_idup and MPI_Comm_idup_with_info are nonblocking.
 * Ranks > 0 start an idup and then MPI_Ssend to rank 0, which receives
 * from all of them before it starts its own (a blocking agreement would
 * deadlock); the same on an intercommunicator; several idups on one parent
 * and on overlapping parents in flight at once, with a nonblocking barrier
 * between them; an idup in flight while rank 0 makes communicators of its
 * own, which the agreement must not reuse (traffic on each would cross);
 * attributes copied and hints given. Every new communicator is checked by
 * traffic on it. Prints "comm_idup: rank R OK" or FAIL lines. */
#include <string.h>

#include "check.h"

static int rank, size;

/* An allreduce and a ring on `c` (our rank `r` of `n`), with `salt` in
 * every value so traffic of another communicator would show. */
static void check_traffic(MPI_Comm c, int salt, const char *what) {
  int r = -1, n = -1, sum = -1, token = -1;
  MPI_Comm_rank(c, &r);
  MPI_Comm_size(c, &n);
  int mine = salt * 1000 + r;
  MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, c);
  CHECK(sum == salt * 1000 * n + n * (n - 1) / 2, "%s: allreduce gave %d", what, sum);
  MPI_Sendrecv(&mine, 1, MPI_INT, (r + 1) % n, 0, &token, 1, MPI_INT, (r + n - 1) % n, MPI_ANY_TAG, c,
               MPI_STATUS_IGNORE);
  CHECK(token == salt * 1000 + (r + n - 1) % n, "%s: ring got %d", what, token);
}

/* Rank 0 starts its idup only after every other rank has started theirs
 * and sent it a synchronous message. */
static void test_idup_does_not_block(void) {
  MPI_Comm dup;
  MPI_Request req;
  int value = -1;
  if (rank == 0) {
    for (int r = 1; r < size; ++r) {
      MPI_Recv(&value, 1, MPI_INT, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(value == r, "message from %d carried %d", r, value);
    }
    MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req);
  } else {
    MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req);
    MPI_Ssend(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  CHECK(req == MPI_REQUEST_NULL, "idup request not freed");
  check_traffic(dup, 1, "idup");
  MPI_Comm_free(&dup);
}

/* The same between the groups of an intercommunicator (even and odd
 * ranks), whose groups have used different numbers of context ids. */
static void test_idup_intercomm(void) {
  if (size < 2) return;
  MPI_Comm local, inter, dup;
  MPI_Request req;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rank == 0 ? 1 : 0, 7, &inter);
  /* The odd group has used two more ids: its proposal lies inside the
   * four the even group claims for the idup. */
  MPI_Comm stagger = MPI_COMM_NULL;
  if (rank % 2) MPI_Comm_dup(local, &stagger);
  int lrank = -1, rsize = -1, value = -1, flag = 0;
  MPI_Comm_rank(inter, &lrank);
  MPI_Comm_remote_size(inter, &rsize);
  if (lrank == 0) {
    for (int r = 1; r < rsize; ++r) MPI_Recv(&value, 1, MPI_INT, r, 0, inter, MPI_STATUS_IGNORE);
    MPI_Comm_idup(inter, &dup, &req);
  } else {
    MPI_Comm_idup(inter, &dup, &req);
    MPI_Ssend(&lrank, 1, MPI_INT, 0, 0, inter);
  }
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Comm_test_inter(dup, &flag);
  int sum = -1, rsize_dup = -1;
  MPI_Comm_remote_size(dup, &rsize_dup);
  MPI_Allreduce(&lrank, &sum, 1, MPI_INT, MPI_SUM, dup); /* the remote group's sum */
  CHECK(flag && rsize_dup == rsize && sum == rsize * (rsize - 1) / 2, "inter idup: inter %d remote size %d sum %d",
        flag, rsize_dup, sum);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&inter);
  if (stagger != MPI_COMM_NULL) MPI_Comm_free(&stagger);
  MPI_Comm_free(&local);
}

/* Four idups of the world and one of a half, with an Ibarrier on the world
 * among them, all completed by one Waitall (in reverse on odd ranks). */
static void test_idups_in_flight(void) {
  enum { kDups = 4 };
  MPI_Comm half, dups[kDups], half_dup;
  MPI_Request reqs[kDups + 2];
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  for (int i = 0; i < kDups; ++i) {
    MPI_Comm_idup(MPI_COMM_WORLD, &dups[i], &reqs[i]);
    if (i == 1) MPI_Ibarrier(MPI_COMM_WORLD, &reqs[kDups]);
  }
  MPI_Comm_idup(half, &half_dup, &reqs[kDups + 1]);
  if (rank % 2) {
    for (int i = kDups + 1; i >= 0; --i) MPI_Wait(&reqs[i], MPI_STATUS_IGNORE);
  } else {
    MPI_Waitall(kDups + 2, reqs, MPI_STATUSES_IGNORE);
  }
  for (int i = 0; i < kDups; ++i) check_traffic(dups[i], 10 + i, "one of several idups");
  check_traffic(half_dup, 20, "idup of a half");
  for (int i = 0; i < kDups; ++i) MPI_Comm_free(&dups[i]);
  MPI_Comm_free(&half_dup);
  MPI_Comm_free(&half);
}

/* Each rank is in the pair (r, r+1) and (r-1, r): it starts an idup of
 * both before waiting (a blocking dup would deadlock around the ring). At
 * two ranks both pairs are {0, 1}, started in crossed orders. */
static void test_overlapping_idups(void) {
  if (size < 2) return;
  MPI_Comm up = MPI_COMM_NULL, down = MPI_COMM_NULL, dups[2];
  MPI_Request reqs[2];
  for (int i = 0; i < size; ++i) {
    MPI_Comm c;
    const int in_pair = rank == i || rank == (i + 1) % size;
    MPI_Comm_split(MPI_COMM_WORLD, in_pair ? 0 : MPI_UNDEFINED, rank == i ? 0 : 1, &c);
    if (rank == i)
      up = c;
    else if (in_pair)
      down = c;
  }
  MPI_Comm_idup(up, &dups[0], &reqs[0]);
  MPI_Comm_idup(down, &dups[1], &reqs[1]);
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  /* Traffic pair by pair in order (pair i is ranks i and i+1). */
  const int up_salt = 30 + rank, down_salt = 30 + (rank + size - 1) % size;
  if (rank == 0) {
    check_traffic(dups[0], up_salt, "idup of the upper pair");
    check_traffic(dups[1], down_salt, "idup of the lower pair");
  } else {
    check_traffic(dups[1], down_salt, "idup of the lower pair");
    check_traffic(dups[0], up_salt, "idup of the upper pair");
  }
  for (int i = 0; i < 2; ++i) MPI_Comm_free(&dups[i]);
  MPI_Comm_free(&up);
  MPI_Comm_free(&down);
}

/* The other ranks have used more context ids than rank 0, so the
 * agreement lands on ids rank 0 had free when it started; while the idup
 * is in flight rank 0 takes them for communicators of its own. Messages
 * rank 0 receives with MPI_ANY_SOURCE on those must not be the idup's. */
static void test_ids_taken_meanwhile(void) {
  enum { kOwn = 3 };
  MPI_Comm used[kOwn], own[kOwn], dup;
  MPI_Request req, recvs[kOwn];
  int got[kOwn];
  if (rank != 0)
    for (int i = 0; i < kOwn; ++i) MPI_Comm_dup(MPI_COMM_SELF, &used[i]);
  MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req);
  if (rank == 0) {
    for (int i = 0; i < kOwn; ++i) {
      MPI_Comm_dup(MPI_COMM_SELF, &own[i]);
      MPI_Irecv(&got[i], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, own[i], &recvs[i]);
    }
  }
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  if (rank == 0) {
    int value = -1;
    for (int r = 1; r < size; ++r) {
      MPI_Recv(&value, 1, MPI_INT, r, 0, dup, MPI_STATUS_IGNORE);
      CHECK(value == 40000 + r, "idup message from %d carried %d", r, value);
    }
    for (int i = 0; i < kOwn; ++i) {
      const int mine = 50000 + i;
      MPI_Send(&mine, 1, MPI_INT, 0, 0, own[i]);
      MPI_Wait(&recvs[i], MPI_STATUS_IGNORE);
      CHECK(got[i] == mine, "own communicator %d received %d", i, got[i]);
      MPI_Comm_free(&own[i]);
    }
  } else {
    const int mine = 40000 + rank;
    MPI_Send(&mine, 1, MPI_INT, 0, 0, dup);
    for (int i = 0; i < kOwn; ++i) MPI_Comm_free(&used[i]);
  }
  check_traffic(dup, 41, "idup while ids were taken");
  MPI_Comm_free(&dup);
}

static int copies = 0;
static int copy_attr(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag) {
  (void)comm, (void)keyval, (void)extra;
  ++copies;
  *(void **)out = (char *)in + 1;
  *flag = 1;
  return MPI_SUCCESS;
}

/* MPI_Comm_idup_with_info: the hints of `info` (not the parent's), the
 * attributes as the copy callback hands them out. */
static void test_idup_with_info(void) {
  MPI_Comm parent, dup;
  MPI_Request req;
  MPI_Info info, used;
  int keyval, flag = 0;
  static char base[2];
  MPI_Comm_dup(MPI_COMM_WORLD, &parent);
  MPI_Comm_create_keyval(copy_attr, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
  MPI_Comm_set_attr(parent, keyval, base);
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
  MPI_Comm_idup_with_info(parent, info, &dup, &req);
  MPI_Info_free(&info);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  void *value = NULL;
  MPI_Comm_get_attr(dup, keyval, &value, &flag);
  CHECK(flag && value == base + 1 && copies == 1, "attribute on idup: flag %d copies %d", flag, copies);
  char hint[16] = "";
  MPI_Comm_get_info(dup, &used);
  MPI_Info_get(used, "mpi_assert_no_any_tag", 15, hint, &flag);
  CHECK(flag && strcmp(hint, "true") == 0, "hint on idup_with_info: %s", flag ? hint : "(none)");
  MPI_Info_free(&used);
  check_traffic(dup, 60, "idup_with_info");
  MPI_Comm_free(&dup);
  MPI_Comm_free(&parent);
  MPI_Comm_free_keyval(&keyval);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_rank = rank;
  test_idup_does_not_block();
  test_idup_intercomm();
  test_idups_in_flight();
  test_overlapping_idups();
  test_ids_taken_meanwhile();
  test_idup_with_info();
  const int rc = check_report("comm_idup");
  MPI_Finalize();
  return rc;
}
