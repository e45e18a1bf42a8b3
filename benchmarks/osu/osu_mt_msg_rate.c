/* osu_mt_msg_rate - multi-threaded message rate between two ranks. Each
 * rank runs -t threads (default 2); thread k of rank 0 streams windows of
 * -W nonblocking sends to thread k of rank 1, which acks each window with
 * 4 bytes, as osu_mbw_mr's pairs do but with the pairs as threads of one
 * process pair, told apart by tag (data k, ack OSU_MAX_THREADS + k). All
 * threads start the timed loop together; the aggregate rate counts every
 * message over the sending threads' span, from the first start to the
 * last end (not the slowest thread's own time: with more threads than
 * cores, threads that run one after another would each time only their
 * own turn). Needs MPI_THREAD_MULTIPLE. */
#include "osu_threads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct osu_spec spec = {
    "osu_mt_msg_rate", "Multi-threaded MPI Message Rate Test",
    OSU_KIND_BANDWIDTH, OSU_RANKS_TWO, 1, 0, 1};

enum { ACK_BYTES = 4 };

/* What the team shares: the options, the rank, and when each thread's
 * timed loop started and ended for the current size (slot k written by
 * thread k only, read by thread 0 after a team barrier). */
struct job {
    const struct osu_options *opt;
    int rank;
    double start[OSU_MAX_THREADS];
    double end[OSU_MAX_THREADS];
};

/* One window: the sender posts sends, the receiver receives, then acks. */
static void window(int sender, char *sbuf, char *rbuf, int count, int tag,
                   int width, MPI_Request *reqs)
{
    const int peer = sender ? 1 : 0;
    for (int w = 0; w < width; ++w) {
        if (sender)
            MPI_Isend(sbuf, count, MPI_CHAR, peer, tag, MPI_COMM_WORLD, &reqs[w]);
        else
            MPI_Irecv(rbuf, count, MPI_CHAR, peer, tag, MPI_COMM_WORLD, &reqs[w]);
    }
    MPI_Waitall(width, reqs, MPI_STATUSES_IGNORE);
    if (sender)
        MPI_Recv(rbuf, ACK_BYTES, MPI_CHAR, peer, OSU_MAX_THREADS + tag,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
        MPI_Send(sbuf, ACK_BYTES, MPI_CHAR, peer, OSU_MAX_THREADS + tag,
                 MPI_COMM_WORLD);
}

/* Thread 0 of each rank: the sending threads' span (rank 0), and on rank 0
 * the row. Rank 1's threads time too but do not count. */
static void report(struct job *job, int threads, size_t size, long iters)
{
    double first = job->start[0], last = job->end[0];
    for (int k = 1; k < threads; ++k) {
        if (job->start[k] < first)
            first = job->start[k];
        if (job->end[k] > last)
            last = job->end[k];
    }
    double span_here = job->rank == 0 ? last - first : 0.0, slowest = 0.0;
    MPI_Reduce(&span_here, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0,
               MPI_COMM_WORLD);
    if (job->rank == 0) {
        const double messages = (double)threads * (double)iters * job->opt->window;
        const double row[2] = {messages * (double)size / 1e6 / slowest,
                               messages / slowest};
        osu_print_row(size, 2, row);
    }
}

static void stream(struct osu_team *team, int id, void *arg)
{
    struct job *job = arg;
    const struct osu_options *opt = job->opt;
    const int sender = job->rank == 0;
    char *sbuf = osu_alloc(opt->max_size);
    char *rbuf = osu_alloc(opt->max_size);
    MPI_Request *reqs = malloc((size_t)opt->window * sizeof *reqs);
    if (reqs == NULL)
        MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
    for (size_t size = opt->min_size; size <= opt->max_size;
         size = osu_next_size(size)) {
        const long iters = osu_iterations(opt, size);
        const long skip = osu_skip(opt, size);
        memset(sbuf, 'a', size);
        osu_team_sync(team, id);
        for (long i = 0; i < skip; ++i)
            window(sender, sbuf, rbuf, (int)size, id, opt->window, reqs);
        osu_team_sync(team, id);
        job->start[id] = MPI_Wtime();
        for (long i = 0; i < iters; ++i)
            window(sender, sbuf, rbuf, (int)size, id, opt->window, reqs);
        job->end[id] = MPI_Wtime();
        osu_team_wait(team);
        if (id == 0)
            report(job, team->size, size, iters);
    }
    free(reqs);
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
        printf("# [ threads per rank: %d ] [ window size: %d ]\n", opt.threads,
               opt.window);
        osu_print_columns(2, (const char *const[]){"MB/s", "Messages/s"});
    }
    struct job job = {.opt = &opt, .rank = rank};
    struct osu_team team;
    osu_team_run(&team, opt.threads, stream, &job);
    MPI_Finalize();
    return EXIT_SUCCESS;
}
