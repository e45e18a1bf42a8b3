/* handle_reuse: a send names the communicator, destination and datatype of
 * the one before it after those handles were freed and now name another
 * communicator or datatype (MPI_Send remembers what the last three resolved
 * to; freeing must make it forget).
 *
 * World rank 0 sends to rank 1 of a communicator in which that is the last
 * world rank, frees it, creates one with the same handle and the world's
 * order, and sends to rank 1 again: with a stale target the message would go
 * to the last world rank again. The same with a contiguous type of 2 ints, freed
 * and replaced by one of 4 ints under the same handle: with a stale element
 * size only half of the message would travel. The communicator part needs
 * 3 or more ranks. */
#include <string.h>

#include "check.h"

enum { TAG = 5 };

/* Comm rank 0 sends one element of `type` (the first `ints` ints of
 * {11, 22, 33, 44}) to comm rank 1, which is world rank `target_world`: the
 * receiver checks the size and the payload. */
static void send_and_check(MPI_Comm comm, int comm_rank, int world_rank, int target_world, MPI_Datatype type,
                           int ints) {
  const int data[4] = {11, 22, 33, 44};
  if (comm_rank == 0) {
    MPI_Send(data, 1, type, 1, TAG, comm);
  } else if (world_rank == target_world) {
    int got[4] = {0, 0, 0, 0};
    MPI_Status st;
    MPI_Recv(got, 4, MPI_INT, 0, TAG, comm, &st);
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == ints, "received %d ints, expected %d", count, ints);
    CHECK(memcmp(got, data, (size_t)ints * sizeof(int)) == 0, "payload differs");
  }
}

int main(int argc, char **argv) {
  int size, rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  rank = check_rank;

  if (size >= 3) {
    /* World rank 0 first, then the others backwards: comm rank 1 is the
     * last world rank. */
    MPI_Comm backwards;
    MPI_Comm_split(MPI_COMM_WORLD, 0, rank == 0 ? 0 : size - rank, &backwards);
    int brank;
    MPI_Comm_rank(backwards, &brank);
    send_and_check(backwards, brank, rank, size - 1, MPI_INT, 1);
    MPI_Comm first = backwards;
    MPI_Comm_free(&backwards);
    MPI_Comm forwards;
    MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &forwards);
    CHECK(forwards == first, "the freed handle %d was not reused (got %d): the test proves nothing", first,
          forwards);
    int frank;
    MPI_Comm_rank(forwards, &frank);
    /* World rank 0 sends to rank 1 again, with the same (communicator
     * handle, destination, datatype): now world rank 1. */
    send_and_check(forwards, frank, rank, 1, MPI_INT, 1);
    MPI_Comm_free(&forwards);
  }

  if (size >= 2) {
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    send_and_check(MPI_COMM_WORLD, rank, rank, 1, pair, 2);
    MPI_Datatype first = pair;
    MPI_Type_free(&pair);
    MPI_Datatype quad;
    MPI_Type_contiguous(4, MPI_INT, &quad);
    MPI_Type_commit(&quad);
    CHECK(quad == first, "the freed type handle %d was not reused (got %d): the test proves nothing", first, quad);
    send_and_check(MPI_COMM_WORLD, rank, rank, 1, quad, 4);
    MPI_Type_free(&quad);
  }

  MPI_Finalize();
  return check_report("handle_reuse");
}
