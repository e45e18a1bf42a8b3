/* comm_ops: MPI_Comm_split (odd/even with reversed keys, key ties,
 * MPI_UNDEFINED, nested splits), MPI_Comm_dup, MPI_Comm_compare,
 * MPI_Comm_free, and isolation: messages with the same tag on a duplicate,
 * a split and the parent never match each other, nor a collective's
 * internal messages. Each rank prints "comm_ops: rank R OK" or FAIL lines. */
#include <mpi.h>
#include <stdio.h>

static int rank, size, failures;

#define CHECK(cond, ...)                        \
  do {                                          \
    if (!(cond) && failures++ < 10) {           \
      printf("comm_ops: FAIL rank %d: ", rank); \
      printf(__VA_ARGS__);                      \
      printf("\n");                             \
    }                                           \
  } while (0)

static void test_split_odd_even(void) {
  MPI_Comm half;
  const int color = rank % 2;
  MPI_Comm_split(MPI_COMM_WORLD, color, -rank, &half); /* reversed order */
  int r, n;
  MPI_Comm_rank(half, &r);
  MPI_Comm_size(half, &n);
  const int members = (size + 1 - color) / 2;
  CHECK(n == members, "split size %d, want %d", n, members);
  CHECK(r == members - 1 - rank / 2, "split rank %d, want %d", r, members - 1 - rank / 2);
  /* Rank 0 of the half is its highest world rank. */
  int top = rank;
  MPI_Bcast(&top, 1, MPI_INT, 0, half);
  const int want_top = color + 2 * (members - 1);
  CHECK(top == want_top, "bcast from half rank 0 gave %d, want %d", top, want_top);
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half);
  int want = 0;
  for (int w = color; w < size; w += 2) want += w;
  CHECK(sum == want, "allreduce over half gave %d, want %d", sum, want);
  /* Point-to-point by half ranks: pass our world rank to the next. */
  if (n > 1) {
    int got = -1;
    MPI_Send(&rank, 1, MPI_INT, (r + 1) % n, 3, half); /* one int: eager, completes at once */
    MPI_Recv(&got, 1, MPI_INT, (r + n - 1) % n, 3, half, MPI_STATUS_IGNORE);
    const int prev_half_rank = (r + n - 1) % n;
    CHECK(got == color + 2 * (members - 1 - prev_half_rank), "ring on half got %d", got);
  }
  int result;
  MPI_Comm_compare(half, MPI_COMM_WORLD, &result);
  CHECK(result == (size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL), "compare(half, world) = %d", result);
  /* Nested: split the half again into singletons. */
  MPI_Comm single;
  MPI_Comm_split(half, r, 0, &single);
  MPI_Comm_size(single, &n);
  CHECK(n == 1, "nested split size %d", n);
  MPI_Comm_compare(single, MPI_COMM_SELF, &result);
  CHECK(result == MPI_CONGRUENT, "compare(single, self) = %d", result);
  MPI_Comm_free(&single);
  MPI_Comm_free(&half);
  CHECK(half == MPI_COMM_NULL && single == MPI_COMM_NULL, "MPI_Comm_free did not set MPI_COMM_NULL");
}

static void test_split_ties_and_undefined(void) {
  MPI_Comm same, none;
  MPI_Comm_split(MPI_COMM_WORLD, 5, 0, &same); /* all keys tie: parent order */
  int r, result;
  MPI_Comm_rank(same, &r);
  CHECK(r == rank, "tied keys: rank %d, want %d", r, rank);
  MPI_Comm_compare(same, MPI_COMM_WORLD, &result);
  CHECK(result == MPI_CONGRUENT, "compare(same order, world) = %d", result);
  MPI_Comm reversed;
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed);
  MPI_Comm_compare(reversed, MPI_COMM_WORLD, &result);
  CHECK(result == (size == 1 ? MPI_CONGRUENT : MPI_SIMILAR), "compare(reversed, world) = %d", result);
  MPI_Comm_compare(reversed, reversed, &result);
  CHECK(result == MPI_IDENT, "compare(c, c) = %d", result);
  MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, &result);
  CHECK(result == (size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL), "compare(world, self) = %d", result);
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 1, rank, &none);
  if (rank == 0) {
    CHECK(none == MPI_COMM_NULL, "MPI_UNDEFINED gave a communicator");
  } else {
    int n;
    MPI_Comm_size(none, &n);
    CHECK(n == size - 1, "split without rank 0 has %d ranks", n);
    MPI_Comm_free(&none);
  }
  MPI_Comm_free(&reversed);
  MPI_Comm_free(&same);
}

/* Same source, same tag, different communicators: a receive on one never
 * takes a message sent on another, even with wildcards. */
static void test_isolation(void) {
  MPI_Comm dup, split;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &split);
  int result;
  MPI_Comm_compare(dup, MPI_COMM_WORLD, &result);
  CHECK(result == MPI_CONGRUENT, "compare(dup, world) = %d", result);
  const int peer = rank ^ 1;
  if (peer < size) {
    if (rank % 2 == 0) {
      const int a = 111, b = 222, c = 333, d = 444;
      MPI_Send(&a, 1, MPI_INT, peer, 1, dup);
      MPI_Send(&b, 1, MPI_INT, peer, 1, split);
      MPI_Send(&c, 1, MPI_INT, peer, 1, MPI_COMM_WORLD); /* tag 1: the barrier's internal tag */
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Send(&d, 1, MPI_INT, peer, 1, MPI_COMM_WORLD);
    } else {
      int got[4] = {0, 0, 0, 0};
      MPI_Status st;
      MPI_Barrier(MPI_COMM_WORLD); /* must not take the user message with tag 1 */
      MPI_Recv(&got[0], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      MPI_Recv(&got[1], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      MPI_Recv(&got[2], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, split, &st);
      MPI_Recv(&got[3], 1, MPI_INT, peer, 1, dup, &st);
      CHECK(got[0] == 333 && got[1] == 444 && got[2] == 222 && got[3] == 111,
            "isolation: world got %d %d, split %d, dup %d", got[0], got[1], got[2], got[3]);
    }
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Comm_free(&dup);
  MPI_Comm_free(&split);
}

/* Many dup/free cycles: handles are reused, context ids keep growing, and
 * every new communicator still works. */
static void test_dup_free_cycles(void) {
  MPI_Comm base;
  MPI_Comm_dup(MPI_COMM_WORLD, &base);
  for (int i = 0; i < 200; ++i) {
    MPI_Comm c;
    MPI_Comm_dup(i % 2 ? base : MPI_COMM_WORLD, &c);
    int sum = 0;
    MPI_Allreduce(&i, &sum, 1, MPI_INT, MPI_SUM, c);
    if (sum != i * size) {
      CHECK(0, "dup cycle %d: allreduce gave %d", i, sum);
      break;
    }
    MPI_Comm_free(&c);
  }
  MPI_Comm_free(&base);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  test_split_odd_even();
  test_split_ties_and_undefined();
  test_isolation();
  test_dup_free_cycles();
  if (failures == 0) printf("comm_ops: rank %d OK\n", rank);
  MPI_Finalize();
  return failures != 0;
}
