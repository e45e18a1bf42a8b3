/* osu_threads.c - the thread team of the multi-threaded benchmarks.
 * See osu_threads.h for the contract. */
#include "osu_threads.h"

#include <stdio.h>
#include <stdlib.h>

/* What a new thread needs to call fn: one slot per thread, owned by
 * osu_team_run's stack frame, which outlives the threads (it joins). */
struct member {
    struct osu_team *team;
    osu_team_fn fn;
    void *arg;
    int id;
};

static void *member_main(void *p)
{
    struct member *m = p;
    m->fn(m->team, m->id, m->arg);
    return NULL;
}

static void die(const char *what, int err)
{
    fprintf(stderr, "osu: %s failed (error %d)\n", what, err);
    MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
}

void osu_team_run(struct osu_team *team, int size, osu_team_fn fn, void *arg)
{
    struct member members[OSU_MAX_THREADS];
    pthread_t tids[OSU_MAX_THREADS];
    if (size < 1 || size > OSU_MAX_THREADS)
        die("thread count check", size);
    team->size = size;
    int err = pthread_barrier_init(&team->barrier, NULL, (unsigned)size);
    if (err != 0)
        die("pthread_barrier_init", err);
    for (int id = 0; id < size; ++id)
        members[id] = (struct member){team, fn, arg, id};
    for (int id = 1; id < size; ++id) {
        err = pthread_create(&tids[id], NULL, member_main, &members[id]);
        if (err != 0)
            die("pthread_create", err);
    }
    fn(team, 0, arg);
    for (int id = 1; id < size; ++id)
        pthread_join(tids[id], NULL);
    pthread_barrier_destroy(&team->barrier);
}

void osu_team_wait(struct osu_team *team)
{
    pthread_barrier_wait(&team->barrier);
}

void osu_team_sync(struct osu_team *team, int id)
{
    osu_team_wait(team);
    if (id == 0)
        MPI_Barrier(MPI_COMM_WORLD);
    osu_team_wait(team);
}
