/* osu_threads.h - a team of threads for the multi-threaded OSU-style
 * benchmarks (osu_latency_mt, osu_mt_msg_rate).
 *
 * osu_team_run() runs fn(team, id, arg) on `size` threads and joins them;
 * id 0 is the calling (main) thread, ids 1..size-1 are new threads. Thread
 * 0 alone makes the calls that involve the whole rank (MPI_Barrier,
 * MPI_Reduce, printing); every thread makes its own point-to-point calls,
 * hence MPI_THREAD_MULTIPLE. Any failure to start a thread aborts the job.
 */
#ifndef SHMPI_OSU_THREADS_H
#define SHMPI_OSU_THREADS_H

#include "osu_common.h"

#include <pthread.h>

struct osu_team {
    int size;                  /* threads in the team, >= 1 */
    pthread_barrier_t barrier; /* of the team's threads; valid during run */
};

typedef void (*osu_team_fn)(struct osu_team *team, int id, void *arg);

/* Runs fn on `size` threads (the caller is id 0) and joins them. */
void osu_team_run(struct osu_team *team, int size, osu_team_fn fn, void *arg);

/* Barrier of the team's threads only. */
void osu_team_wait(struct osu_team *team);

/* Barrier of every thread of every rank: the team waits, thread 0 calls
 * MPI_Barrier(MPI_COMM_WORLD), the team waits again. Every thread of every
 * rank must call it the same number of times. */
void osu_team_sync(struct osu_team *team, int id);

#endif
