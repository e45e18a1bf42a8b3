/* send_cancel: MPI_Cancel on sends that have left (pml/withdrawal.cpp).
 * Rank 0 sends, rank 1 receives; ranks beyond 1 only join the barriers.
 * - unmatched: Isend / Issend of every size, cancelled while rank 1 sits
 *   in a barrier: each is cancelled (Test_cancelled true), rank 1 never
 *   sees it, and gets the next message on the same tag intact;
 * - racing: a receive posted before or just after the send; whichever
 *   way it goes, both sides agree: cancelled and the receive takes the
 *   next message, or not cancelled and the receive has the data intact;
 * - many: hundreds of cancels in batches leave nothing queued (the run
 *   report's deepest unexpected queue, asserted by the case, stays small);
 * - in order: of 30 messages on one tag every third is cancelled unmatched;
 *   rank 1 then gets the other 20, intact and in their order (a withdrawn
 *   message leaves no gap that holds back the ones after it);
 * - Ibsend: complete as soon as the copy is made, so never cancelled, and
 *   delivered; persistent sends: cancelled or delivered, consistently.
 * Sizes cross the box, eager, pipelined and rendezvous limits of every
 * configuration the cases run (argument 1: rounds of the racing part). */
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { kCtrl = 999, kRaceTag = 500, kManyTag = 600, kBufTag = 700, kPersistTag = 800, kOrderTag = 900 };
static const int kSizes[] = {0, 8, 40, 100, 1000, 5000, 20000, 70000, 300000};
enum { kNumSizes = sizeof kSizes / sizeof kSizes[0] };

static unsigned char *out_buf, *next_buf, *in_buf;

/* Completes `req` and tells whether it was cancelled. */
static int cancelled_after_wait(MPI_Request *req) {
  MPI_Status st;
  int flag = -1;
  MPI_Wait(req, &st);
  MPI_Test_cancelled(&st, &flag);
  return flag;
}

static void expect_message(int tag, int bytes, int seed, const char *what) {
  MPI_Status st;
  int count = -1;
  memset(in_buf, 0xEE, (size_t)bytes + 1);
  MPI_Recv(in_buf, bytes + 1, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_BYTE, &count);
  CHECK(count == bytes && pattern_ok(in_buf, (size_t)bytes, seed), "%s: %d bytes, tag %d: got %d bytes%s", what,
        bytes, tag, count, count == bytes ? ", wrong data" : "");
}

/* Nothing left on `tag` (rank 0 may be sending on the next phase's tags). */
static void expect_queue_empty(int tag, const char *what) {
  int found = 1;
  MPI_Status st;
  MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &found, &st);
  CHECK(!found, "%s: a message is pending (tag %d)", what, found ? st.MPI_TAG : -1);
}

static void unmatched(int rank) {
  MPI_Request next[2 * kNumSizes];
  if (rank == 0) {
    for (int i = 0; i < 2 * kNumSizes; ++i) {
      const int bytes = kSizes[i % kNumSizes], sync = i >= kNumSizes;
      MPI_Request req;
      fill_pattern(out_buf, (size_t)bytes, i);
      (sync ? MPI_Issend : MPI_Isend)(out_buf, bytes, MPI_BYTE, 1, i, MPI_COMM_WORLD, &req);
      MPI_Cancel(&req);
      CHECK(cancelled_after_wait(&req) == 1, "unmatched %s of %d bytes not cancelled", sync ? "Issend" : "Isend",
            bytes);
      fill_pattern(next_buf + (size_t)i * 300001, (size_t)bytes, i + 100);
      MPI_Isend(next_buf + (size_t)i * 300001, bytes, MPI_BYTE, 1, i, MPI_COMM_WORLD, &next[i]);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1)
    for (int i = 0; i < 2 * kNumSizes; ++i) expect_message(i, kSizes[i % kNumSizes], i + 100, "after a cancel");
  if (rank == 0) MPI_Waitall(2 * kNumSizes, next, MPI_STATUSES_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) expect_queue_empty(MPI_ANY_TAG, "unmatched");
}

/* One round: the outcome is either; rank 0 says which, rank 1 checks it. */
static void race_round(int rank, int round, int *cancels) {
  const int bytes = kSizes[round % kNumSizes], sync = round % 4 == 3, post_first = round % 5 == 0;
  MPI_Request recv, send, next;
  if (rank == 1 && post_first) MPI_Irecv(in_buf, bytes + 1, MPI_BYTE, 0, kRaceTag, MPI_COMM_WORLD, &recv);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    fill_pattern(out_buf, (size_t)bytes, round);
    (sync ? MPI_Issend : MPI_Isend)(out_buf, bytes, MPI_BYTE, 1, kRaceTag, MPI_COMM_WORLD, &send);
    for (volatile int spin = 0; spin < (round % 7) * 300; ++spin) {
    }
    MPI_Cancel(&send);
    int flag = cancelled_after_wait(&send);
    *cancels += flag;
    MPI_Send(&flag, 1, MPI_INT, 1, kCtrl, MPI_COMM_WORLD);
    fill_pattern(next_buf, (size_t)bytes, round + 1000);
    MPI_Isend(next_buf, bytes, MPI_BYTE, 1, kRaceTag, MPI_COMM_WORLD, &next);
    MPI_Wait(&next, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    if (!post_first) {
      /* Sometimes late, and sometimes after a round of progress that may
       * have seen both the message and its withdrawal: either outcome. */
      for (volatile int spin = 0; spin < (round % 3) * 3000; ++spin) {
      }
      int seen = 0;
      if (round % 2 == 1) MPI_Iprobe(0, kCtrl + 1, MPI_COMM_WORLD, &seen, MPI_STATUS_IGNORE);
      MPI_Irecv(in_buf, bytes + 1, MPI_BYTE, 0, kRaceTag, MPI_COMM_WORLD, &recv);
    }
    int flag = -1, count = -1;
    MPI_Status st;
    MPI_Recv(&flag, 1, MPI_INT, 0, kCtrl, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(!(flag && post_first), "round %d: cancelled though the receive was posted first", round);
    MPI_Wait(&recv, &st);
    MPI_Get_count(&st, MPI_BYTE, &count);
    const int seed = flag ? round + 1000 : round;  /* cancelled: the receive takes the next message */
    CHECK(count == bytes && pattern_ok(in_buf, (size_t)bytes, seed), "round %d (%d bytes, %s): got %d bytes",
          round, bytes, flag ? "cancelled" : "not cancelled", count);
    if (!flag) expect_message(kRaceTag, bytes, round + 1000, "the message after an uncancelled one");
  }
}

static void racing(int rank, int rounds) {
  int cancels = 0;
  for (int round = 0; round < rounds; ++round) race_round(rank, round, &cancels);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) expect_queue_empty(kRaceTag, "racing");
  if (rank == 0) printf("send_cancel: %d of %d racing sends cancelled\n", cancels, rounds);
}

static void many(int rank) {
  if (rank == 0) {
    for (int batch = 0; batch < 100; ++batch) {
      MPI_Request reqs[8];
      for (int k = 0; k < 8; ++k) {
        const int bytes = kSizes[(batch + k) % 6];
        (k % 2 ? MPI_Issend : MPI_Isend)(out_buf, bytes, MPI_BYTE, 1, kManyTag, MPI_COMM_WORLD, &reqs[k]);
      }
      for (int k = 0; k < 8; ++k) MPI_Cancel(&reqs[k]);
      for (int k = 0; k < 8; ++k) CHECK(cancelled_after_wait(&reqs[k]) == 1, "batch %d send %d not cancelled", batch, k);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) expect_queue_empty(kManyTag, "many");
}

static void in_order(int rank) {
  enum { kMessages = 30 };
  if (rank == 0) {
    unsigned char *bufs = malloc((size_t)kMessages * 300001);
    MPI_Request reqs[kMessages];
    for (int k = 0; k < kMessages; ++k) {
      const int bytes = kSizes[k % kNumSizes];
      unsigned char *buf = bufs + (size_t)k * 300001;
      fill_pattern(buf, (size_t)bytes, k + 2000);
      (k % 4 == 3 ? MPI_Issend : MPI_Isend)(buf, bytes, MPI_BYTE, 1, kOrderTag, MPI_COMM_WORLD, &reqs[k]);
      if (k % 3 == 1) {
        MPI_Cancel(&reqs[k]);
        CHECK(cancelled_after_wait(&reqs[k]) == 1, "in order: message %d (%d bytes) not cancelled", k, bytes);
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < kMessages; ++k)
      if (k % 3 != 1) MPI_Wait(&reqs[k], MPI_STATUS_IGNORE);
    free(bufs);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
      for (int k = 0; k < kMessages; ++k)
        if (k % 3 != 1) expect_message(kOrderTag, kSizes[k % kNumSizes], k + 2000, "in order");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) expect_queue_empty(kOrderTag, "in order");
}

static void buffered_and_persistent(int rank) {
  static unsigned char attached[4096 + MPI_BSEND_OVERHEAD];
  if (rank == 0) {
    MPI_Buffer_attach(attached, sizeof attached);
    MPI_Request req;
    fill_pattern(out_buf, 100, 7);
    MPI_Ibsend(out_buf, 100, MPI_BYTE, 1, kBufTag, MPI_COMM_WORLD, &req);
    MPI_Cancel(&req);
    CHECK(cancelled_after_wait(&req) == 0, "an Ibsend (complete at once) was cancelled");
    for (int i = 0; i < kNumSizes; ++i) {
      const int bytes = kSizes[i];
      fill_pattern(out_buf, (size_t)bytes, i + 300);
      (i % 2 ? MPI_Ssend_init : MPI_Send_init)(out_buf, bytes, MPI_BYTE, 1, kPersistTag, MPI_COMM_WORLD, &req);
      MPI_Start(&req);
      MPI_Cancel(&req);
      int flag = cancelled_after_wait(&req);
      MPI_Request_free(&req);
      MPI_Send(&flag, 1, MPI_INT, 1, kCtrl, MPI_COMM_WORLD);
    }
  } else if (rank == 1) {
    expect_message(kBufTag, 100, 7, "Ibsend");
    for (int i = 0; i < kNumSizes; ++i) {
      int flag = -1;
      MPI_Recv(&flag, 1, MPI_INT, 0, kCtrl, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (!flag) expect_message(kPersistTag, kSizes[i], i + 300, "persistent send not cancelled");
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) expect_queue_empty(MPI_ANY_TAG, "persistent");
  if (rank == 0) {
    void *base;
    int size;
    MPI_Buffer_detach(&base, &size);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
  const int rounds = argc > 1 ? atoi(argv[1]) : 100;
  out_buf = malloc(300001);
  next_buf = malloc((size_t)2 * kNumSizes * 300001);
  in_buf = malloc(300002);
  unmatched(check_rank);
  racing(check_rank, rounds);
  many(check_rank);
  in_order(check_rank);
  buffered_and_persistent(check_rank);
  free(out_buf);
  free(next_buf);
  free(in_buf);
  const int rc = check_report("send_cancel");
  MPI_Finalize();
  return rc;
}
