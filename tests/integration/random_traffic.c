/* random_traffic: a seeded soak of mixed point-to-point traffic, every
 * message checked.
 *
 *   random_traffic SEED ROUNDS
 *
 * Every rank derives the whole job's schedule from SEED. In each round every
 * rank starts nonblocking sends (MPI_Isend, MPI_Issend, MPI_Ibsend) of a
 * random number of messages to random ranks, itself included, with random
 * tags and sizes drawn across every protocol: 0 B, the fast box, eager,
 * fragmented, rendezvous and split single copies, each default threshold
 * -1 / 0 / +1, and log-uniform sizes up to 2 MiB; some send requests are
 * freed at once (MPI_Request_free). Then it receives what the schedule sends
 * it, in one of three ways chosen at random per round:
 *
 *  - posted: MPI_Irecv for every message, each naming its source and either
 *    the tag or MPI_ANY_TAG, completed by MPI_Waitall, MPI_Waitany,
 *    MPI_Waitsome, MPI_Testsome, MPI_Testany, MPI_Testall or MPI_Wait in
 *    reverse order, with a receive nothing matches posted among them and
 *    cancelled in half the rounds;
 *  - blocking: MPI_Recv one at a time, some after MPI_Probe or MPI_Iprobe,
 *    or MPI_Improbe + MPI_Mrecv, or MPI_Mprobe + MPI_Imrecv;
 *  - any source: MPI_Recv from MPI_ANY_SOURCE with MPI_ANY_TAG or a tag.
 *
 * Messages travel on MPI_COMM_WORLD, a duplicate, and a split that numbers
 * the ranks in reverse. With the source named, MPI's matching rules fix
 * which message each receive gets (each source's messages match in the
 * order they were sent), so the test predicts it and checks status source,
 * tag, count and every byte; with MPI_ANY_SOURCE it checks the message is
 * the earliest one of the sender the status names that the receive could
 * match. A barrier ends each round, so no receive can take a later round's
 * message.
 *
 * Prints "random_traffic: rank R OK (M messages, B bytes)". */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { MAX_PER_ROUND = 8, NUM_TAGS = 4, MAX_RANKS = 64 };
enum { SEND_PLAIN, SEND_SYNC, SEND_BUFFERED };

typedef struct {
  int dst, tag, mode, comm; /* dst: world rank; comm: index into comms */
  size_t size;
} Message;

typedef struct {
  int count;
  Message msgs[MAX_PER_ROUND];
} Outbox;

/* A receive's prediction: the message (sender, index in the sender's outbox). */
typedef struct {
  int src, index;
  int want_src, want_tag, comm;
  size_t capacity;
} Planned;

/* Messages travel on MPI_COMM_WORLD, a duplicate of it, and a split of it
 * that numbers the ranks in reverse, so contexts must keep them apart and
 * ranks must be translated. */
enum { NUM_COMMS = 3 };
static MPI_Comm comms[NUM_COMMS];
static int world_size;

/* Rank in comms[c] of world rank `rank`, and back (the map is its own inverse). */
static int rank_in(int c, int rank) { return c == 2 ? world_size - 1 - rank : rank; }

static uint64_t splitmix(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static int below(uint64_t *state, int n) { return (int)(splitmix(state) % (uint64_t)n); }

/* Sizes at the default protocol boundaries and the ones tests shrink them to. */
static const size_t kBoundaries[] = {
    0,     1,     7,     8,     9,     12,     20,     21,     63,     64,     65,     1023,  1024,
    4095,  4096,  4097,  8191,  8192,  8193,   16383,  16384,  16385,  65535,  65536,  65537,
    131071, 131072, 131073, 262143, 262144, 262145, 1048579};

static size_t draw_size(uint64_t *state) {
  const int kind = below(state, 20);
  if (kind < 8) return kBoundaries[below(state, (int)(sizeof kBoundaries / sizeof kBoundaries[0]))];
  const int bits = kind == 19 ? 21 : 18; /* one in twenty up to 2 MiB, the rest up to 256 KiB */
  const int exponent = below(state, bits + 1);
  const size_t top = (size_t)1 << exponent;
  return (size_t)splitmix(state) % (top + 1);
}

/* The whole job's sends of one round, the same on every rank. */
static void plan_round(uint64_t seed, int round, int ranks, Outbox *out) {
  uint64_t state = seed * 1000003u + (uint64_t)round;
  for (int s = 0; s < ranks; ++s) {
    out[s].count = below(&state, MAX_PER_ROUND + 1);
    for (int i = 0; i < out[s].count; ++i) {
      Message *m = &out[s].msgs[i];
      m->dst = below(&state, ranks);
      m->tag = below(&state, NUM_TAGS);
      m->comm = below(&state, NUM_COMMS);
      m->size = draw_size(&state);
      m->mode = below(&state, 4) == 0 ? SEND_SYNC : SEND_PLAIN;
      if (m->size <= 4096 && below(&state, 4) == 0) m->mode = SEND_BUFFERED;
    }
  }
}

static int content_seed(int round, int src, int index) { return round * 977 + src * 31 + index * 7; }

/* The receiver's view: for each sender, which of its messages to us are
 * still unreceived, in the order they were sent. */
typedef struct {
  int count[MAX_RANKS];
  int index[MAX_RANKS][MAX_PER_ROUND];
} Pending;

static void pending_of(const Outbox *out, int ranks, int me, Pending *p) {
  for (int s = 0; s < ranks; ++s) {
    p->count[s] = 0;
    for (int i = 0; i < out[s].count; ++i)
      if (out[s].msgs[i].dst == me) p->index[s][p->count[s]++] = i;
  }
}

static int pending_total(const Pending *p, int ranks) {
  int total = 0;
  for (int s = 0; s < ranks; ++s) total += p->count[s];
  return total;
}

/* Removes and returns the earliest pending message of `src` on `comm` with
 * `tag` (or any tag); -1 if none. */
static int take(Pending *p, const Outbox *out, int src, int tag, int comm) {
  for (int k = 0; k < p->count[src]; ++k) {
    const int i = p->index[src][k];
    if (out[src].msgs[i].comm != comm || (tag != MPI_ANY_TAG && out[src].msgs[i].tag != tag)) continue;
    memmove(&p->index[src][k], &p->index[src][k + 1], (size_t)(p->count[src] - k - 1) * sizeof(int));
    --p->count[src];
    return i;
  }
  return -1;
}

/* A random message still owed to us: its sender and index. */
static int some_pending(const Pending *p, int ranks, uint64_t *state, int *src) {
  do *src = below(state, ranks);
  while (p->count[*src] == 0);
  return p->index[*src][below(state, p->count[*src])];
}

/* A receive for some pending message: names its sender and communicator,
 * and its tag or MPI_ANY_TAG; predicts the match. */
static Planned plan_receive(Pending *p, const Outbox *out, int ranks, uint64_t *state) {
  int src;
  const int some = some_pending(p, ranks, state, &src);
  Planned r;
  r.src = src;
  r.comm = out[src].msgs[some].comm;
  r.want_src = rank_in(r.comm, src);
  r.want_tag = below(state, 2) == 0 ? MPI_ANY_TAG : out[src].msgs[some].tag;
  r.index = take(p, out, src, r.want_tag, r.comm);
  r.capacity = out[src].msgs[r.index].size + (size_t)below(state, 3) * 40;
  return r;
}

static long long messages_checked = 0, bytes_checked = 0;

/* Checks that a receive's or a probe's status describes message `index` of
 * rank `src`; true if its count is that message's size. */
static int check_status(const Outbox *out, int round, int src, int index, const MPI_Status *st, const char *how) {
  const Message *m = &out[src].msgs[index];
  int count = -1;
  MPI_Get_count(st, MPI_BYTE, &count);
  CHECK(st->MPI_SOURCE == rank_in(m->comm, src) && st->MPI_TAG == m->tag && count == (int)m->size,
        "round %d %s: expected message %d of rank %d (comm %d, tag %d, %zu bytes), status says source %d tag %d "
        "count %d",
        round, how, index, src, m->comm, m->tag, m->size, st->MPI_SOURCE, st->MPI_TAG, count);
  return count == (int)m->size;
}

static void check_received(const Outbox *out, int round, int me, int src, int index, const MPI_Status *st,
                           const unsigned char *buf, const char *how) {
  const Message *m = &out[src].msgs[index];
  if (check_status(out, round, src, index, st, how))
    CHECK(pattern_ok(buf, m->size, content_seed(round, src, index)),
          "round %d %s: bytes of message %d of rank %d (%zu bytes) to rank %d differ", round, how, index, src,
          m->size, me);
  ++messages_checked;
  bytes_checked += (long long)m->size;
}

static unsigned char *slot_buffer(unsigned char **slots, int k, size_t bytes) {
  slots[k] = realloc(slots[k], bytes == 0 ? 1 : bytes);
  return slots[k];
}

/* A receive posted among the others that no message matches, then cancelled. */
static void cancel_decoy(MPI_Request *decoy, int round) {
  if (*decoy == MPI_REQUEST_NULL) return;
  MPI_Status st;
  int cancelled = 0;
  MPI_Cancel(decoy);
  MPI_Wait(decoy, &st);
  MPI_Test_cancelled(&st, &cancelled);
  CHECK(cancelled && *decoy == MPI_REQUEST_NULL, "round %d: a receive no message matches was not cancelled", round);
}

/* Posted: one MPI_Irecv per message, completed in a random way; in half the
 * rounds a receive nothing matches is posted among them and cancelled. */
static void receive_posted(const Outbox *out, Pending *p, int ranks, int round, int me, uint64_t *state,
                           unsigned char **slots) {
  enum { kDecoyTag = NUM_TAGS + 95 };
  const int n = pending_total(p, ranks);
  Planned plans[MAX_RANKS * MAX_PER_ROUND];
  MPI_Request requests[MAX_RANKS * MAX_PER_ROUND];
  MPI_Status statuses[MAX_RANKS * MAX_PER_ROUND];
  int indices[MAX_RANKS * MAX_PER_ROUND];
  const int decoy_at = below(state, 2) == 0 ? below(state, n + 1) : -1;
  MPI_Request decoy = MPI_REQUEST_NULL;
  unsigned char decoy_buffer[8];
  for (int k = 0; k <= n; ++k) {
    if (k == decoy_at)
      MPI_Irecv(decoy_buffer, (int)sizeof decoy_buffer, MPI_BYTE, below(state, ranks), kDecoyTag,
                comms[below(state, NUM_COMMS)], &decoy);
    if (k == n) break;
    plans[k] = plan_receive(p, out, ranks, state);
    MPI_Irecv(slot_buffer(slots, k, plans[k].capacity), (int)plans[k].capacity, MPI_BYTE, plans[k].want_src,
              plans[k].want_tag, comms[plans[k].comm], &requests[k]);
  }
  cancel_decoy(&decoy, round);
  const int how = below(state, 7);
  static const char *const kHow[] = {"Waitall", "Waitany", "Waitsome", "Testsome", "Wait reversed", "Testany",
                                     "Testall"};
  if (how == 0) {
    MPI_Waitall(n, requests, statuses);
  } else if (how == 4) {
    for (int k = n - 1; k >= 0; --k) MPI_Wait(&requests[k], &statuses[k]);
  } else if (how == 6) {
    int flag = 0;
    while (!flag) MPI_Testall(n, requests, &flag, statuses);
  } else {
    int done = 0;
    while (done < n) {
      int got = 0;
      if (how == 1) {
        MPI_Status st;
        MPI_Waitany(n, requests, &indices[0], &st);
        got = indices[0] == MPI_UNDEFINED ? MPI_UNDEFINED : 1;
        if (got == 1) statuses[indices[0]] = st;
      } else if (how == 5) {
        MPI_Status st;
        int flag = 0;
        MPI_Testany(n, requests, &indices[0], &flag, &st);
        got = !flag ? 0 : indices[0] == MPI_UNDEFINED ? MPI_UNDEFINED : 1;
        if (got == 1) statuses[indices[0]] = st;
      } else {
        MPI_Status some[MAX_RANKS * MAX_PER_ROUND];
        if (how == 2)
          MPI_Waitsome(n, requests, &got, indices, some);
        else
          MPI_Testsome(n, requests, &got, indices, some);
        for (int j = 0; j < got; ++j) statuses[indices[j]] = some[j];
      }
      CHECK(got != MPI_UNDEFINED, "round %d %s: no active requests with %d of %d done", round, kHow[how], done, n);
      if (got == MPI_UNDEFINED) break;
      done += got;
    }
  }
  for (int k = 0; k < n; ++k) {
    CHECK(requests[k] == MPI_REQUEST_NULL, "round %d %s: request %d not freed", round, kHow[how], k);
    check_received(out, round, me, plans[k].src, plans[k].index, &statuses[k], slots[k], kHow[how]);
  }
}

/* Blocking: MPI_Recv one message at a time, some after a probe. */
static void receive_blocking(const Outbox *out, Pending *p, int ranks, int round, int me, uint64_t *state,
                             unsigned char **slots) {
  static const char *const kHow[] = {"Recv", "Probe+Recv", "Iprobe+Recv", "Improbe+Mrecv", "Mprobe+Imrecv"};
  while (pending_total(p, ranks) != 0) {
    const Planned r = plan_receive(p, out, ranks, state);
    unsigned char *buf = slot_buffer(slots, 0, r.capacity);
    const int how = below(state, 5);
    MPI_Status st;
    if (how == 1 || how == 2) {
      int flag = 0;
      if (how == 1) {
        MPI_Probe(r.want_src, r.want_tag, comms[r.comm], &st);
      } else {
        while (!flag) MPI_Iprobe(r.want_src, r.want_tag, comms[r.comm], &flag, &st);
      }
      check_status(out, round, r.src, r.index, &st, kHow[how]);
    }
    if (how == 3) {
      int flag = 0;
      MPI_Message message = MPI_MESSAGE_NULL;
      while (!flag) MPI_Improbe(r.want_src, r.want_tag, comms[r.comm], &flag, &message, &st);
      MPI_Mrecv(buf, (int)r.capacity, MPI_BYTE, &message, &st);
    } else if (how == 4) {
      MPI_Message message = MPI_MESSAGE_NULL;
      MPI_Request request = MPI_REQUEST_NULL;
      MPI_Mprobe(r.want_src, r.want_tag, comms[r.comm], &message, &st);
      MPI_Imrecv(buf, (int)r.capacity, MPI_BYTE, &message, &request);
      CHECK(message == MPI_MESSAGE_NULL, "round %d Mprobe+Imrecv: message handle not consumed", round);
      MPI_Wait(&request, &st);
    } else {
      MPI_Recv(buf, (int)r.capacity, MPI_BYTE, r.want_src, r.want_tag, comms[r.comm], &st);
    }
    check_received(out, round, me, r.src, r.index, &st, buf, kHow[how]);
  }
}

/* Any source: MPI_Recv from MPI_ANY_SOURCE on the communicator of a message
 * still owed, with MPI_ANY_TAG or that message's tag; the status names the
 * sender. */
static void receive_any_source(const Outbox *out, Pending *p, int ranks, int round, int me, uint64_t *state,
                               unsigned char **slots) {
  size_t largest = 1;
  for (int s = 0; s < ranks; ++s)
    for (int k = 0; k < p->count[s]; ++k)
      if (out[s].msgs[p->index[s][k]].size > largest) largest = out[s].msgs[p->index[s][k]].size;
  unsigned char *buf = slot_buffer(slots, 0, largest);
  while (pending_total(p, ranks) != 0) {
    int some_src;
    const int some_index = some_pending(p, ranks, state, &some_src);
    const Message *some = &out[some_src].msgs[some_index];
    const int comm = some->comm;
    const int tag = below(state, 2) == 0 ? MPI_ANY_TAG : some->tag;
    MPI_Status st;
    MPI_Recv(buf, (int)largest, MPI_BYTE, MPI_ANY_SOURCE, tag, comms[comm], &st);
    const int src = st.MPI_SOURCE >= 0 && st.MPI_SOURCE < ranks ? rank_in(comm, st.MPI_SOURCE) : -1;
    const int index = src >= 0 ? take(p, out, src, tag, comm) : -1;
    CHECK(index >= 0, "round %d any source: status source %d tag %d (asked %d, comm %d) names no message owed",
          round, st.MPI_SOURCE, st.MPI_TAG, tag, comm);
    if (index < 0) return;
    check_received(out, round, me, src, index, &st, buf, tag == MPI_ANY_TAG ? "any source, any tag" : "any source");
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  world_size = ranks;
  if (argc != 3 || ranks > MAX_RANKS) {
    if (check_rank == 0) fprintf(stderr, "usage: random_traffic SEED ROUNDS (at most %d ranks)\n", MAX_RANKS);
    MPI_Finalize();
    return 2;
  }
  const uint64_t seed = strtoull(argv[1], NULL, 10);
  const int rounds = atoi(argv[2]);
  const int me = check_rank;
  comms[0] = MPI_COMM_WORLD;
  MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]);
  MPI_Comm_split(MPI_COMM_WORLD, 0, ranks - me, &comms[2]);

  const int bsend_bytes = MAX_PER_ROUND * (4096 + MPI_BSEND_OVERHEAD);
  void *bsend_buffer = malloc((size_t)bsend_bytes);
  MPI_Buffer_attach(bsend_buffer, bsend_bytes);

  Outbox *out = calloc((size_t)ranks, sizeof *out);
  unsigned char *send_bufs[MAX_PER_ROUND] = {0};
  unsigned char **slots = calloc((size_t)ranks * MAX_PER_ROUND, sizeof *slots);
  static const char *const kWays[] = {"posted", "blocking", "any source"};
  for (int round = 0; round < rounds; ++round) {
    plan_round(seed, round, ranks, out);
    MPI_Request sends[MAX_PER_ROUND];
    const Outbox *mine = &out[me];
    uint64_t state = seed ^ ((uint64_t)(me + 1) << 40) ^ ((uint64_t)round << 8);
    for (int i = 0; i < mine->count; ++i) {
      const Message *m = &mine->msgs[i];
      send_bufs[i] = realloc(send_bufs[i], m->size == 0 ? 1 : m->size);
      fill_pattern(send_bufs[i], m->size, content_seed(round, me, i));
      int (*const start)(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *) =
          m->mode == SEND_BUFFERED ? MPI_Ibsend : m->mode == SEND_SYNC ? MPI_Issend : MPI_Isend;
      start(send_bufs[i], (int)m->size, MPI_BYTE, rank_in(m->comm, m->dst), m->tag, comms[m->comm], &sends[i]);
      /* Some sends are let go: the buffer is reused only after the barrier,
       * by when the message has been received. */
      if (below(&state, 8) == 0) MPI_Request_free(&sends[i]);
    }

    Pending pending;
    pending_of(out, ranks, me, &pending);
    const int way = below(&state, 3);
    if (way == 0) receive_posted(out, &pending, ranks, round, me, &state, slots);
    if (way == 1) receive_blocking(out, &pending, ranks, round, me, &state, slots);
    if (way == 2) receive_any_source(out, &pending, ranks, round, me, &state, slots);

    MPI_Status statuses[MAX_PER_ROUND];
    MPI_Waitall(mine->count, sends, statuses);
    for (int i = 0; i < mine->count; ++i)
      CHECK(sends[i] == MPI_REQUEST_NULL, "round %d: send %d not freed", round, i);
    if (check_failures != 0) {
      /* A wrong match leaves later receives waiting for messages already
       * taken: stop the job rather than hang it. */
      printf("random_traffic: rank %d failed in round %d (%s receives), seed %llu\n", me, round, kWays[way],
             (unsigned long long)seed);
      fflush(stdout);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }

  void *detached = NULL;
  int detached_bytes = 0;
  MPI_Buffer_detach(&detached, &detached_bytes);
  free(bsend_buffer);
  for (int i = 0; i < MAX_PER_ROUND; ++i) free(send_bufs[i]);
  for (int k = 0; k < ranks * MAX_PER_ROUND; ++k) free(slots[k]);
  free(slots);
  free(out);
  MPI_Comm_free(&comms[1]);
  MPI_Comm_free(&comms[2]);
  if (check_failures == 0)
    printf("random_traffic: rank %d OK (%lld messages, %lld bytes)\n", me, messages_checked, bytes_checked);
  MPI_Finalize();
  return check_failures == 0 ? 0 : 1;
}
