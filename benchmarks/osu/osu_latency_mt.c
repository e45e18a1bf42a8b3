/* osu_latency_mt - ping-pong latency with several receiving threads, as
 * OMB's osu_latency_mt. Rank 0 (one thread) sends each message to rank 1
 * and waits for the reply; on rank 1, -t threads (default 2) all receive
 * from rank 0 with the same tag, so whichever thread matches a message
 * replies to it. The threads share the iterations round-robin, so each
 * size's messages are all consumed before the next size starts. Latency =
 * round-trip time / 2, averaged over the timed iterations. Needs
 * MPI_THREAD_MULTIPLE. */
#include "osu_threads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct osu_spec spec = {
    "osu_latency_mt", "Multi-threaded MPI Latency Test", OSU_KIND_LATENCY,
    OSU_RANKS_TWO, 0, 0, 1};

enum { TAG_PING = 1, TAG_PONG = 2 };

/* Rank 1, thread `id` of the team: its share of every size's iterations.
 * One osu_team_sync per size pairs with rank 0's MPI_Barrier. */
static void receive(struct osu_team *team, int id, void *arg)
{
    const struct osu_options *opt = arg;
    char *sbuf = osu_alloc(opt->max_size);
    char *rbuf = osu_alloc(opt->max_size);
    for (size_t size = opt->min_size; size <= opt->max_size;
         size = osu_next_size(size)) {
        const long rounds = osu_iterations(opt, size) + osu_skip(opt, size);
        const int count = (int)size;
        memset(sbuf, 'a', size);
        osu_team_sync(team, id);
        for (long i = id; i < rounds; i += team->size) {
            MPI_Recv(rbuf, count, MPI_CHAR, 0, TAG_PING, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Send(sbuf, count, MPI_CHAR, 0, TAG_PONG, MPI_COMM_WORLD);
        }
    }
    free(sbuf);
    free(rbuf);
}

/* Rank 0: times the ping-pongs and prints one row per size. */
static void send_and_time(const struct osu_options *opt)
{
    char *sbuf = osu_alloc(opt->max_size);
    char *rbuf = osu_alloc(opt->max_size);
    for (size_t size = opt->min_size; size <= opt->max_size;
         size = osu_next_size(size)) {
        const long iters = osu_iterations(opt, size);
        const long skip = osu_skip(opt, size);
        const int count = (int)size;
        memset(sbuf, 'a', size);
        MPI_Barrier(MPI_COMM_WORLD);
        double t_start = 0.0;
        for (long i = 0; i < iters + skip; ++i) {
            if (i == skip)
                t_start = MPI_Wtime();
            MPI_Send(sbuf, count, MPI_CHAR, 1, TAG_PING, MPI_COMM_WORLD);
            MPI_Recv(rbuf, count, MPI_CHAR, 1, TAG_PONG, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        }
        const double latency_us =
            (MPI_Wtime() - t_start) * 1e6 / (2.0 * (double)iters);
        osu_print_row(size, 1, &latency_us);
    }
    free(sbuf);
    free(rbuf);
}

int main(int argc, char **argv)
{
    struct osu_options opt;
    int rank, nranks;
    osu_init(&argc, &argv, &spec, &opt, &rank, &nranks);
    if (rank == 0) {
        osu_print_title(&spec);
        printf("# [ sender threads: 1 ] [ receiver threads: %d ]\n", opt.threads);
        osu_print_columns(1, (const char *const[]){"Latency (us)"});
        send_and_time(&opt);
    } else {
        struct osu_team team;
        osu_team_run(&team, opt.threads, receive, &opt);
    }
    MPI_Finalize();
    return EXIT_SUCCESS;
}
