/* osu_latency_persistent - ping-pong latency between rank 0 and rank 1
 * with nonblocking requests made each time (MPI_Irecv + MPI_Isend) and,
 * beside it in the same run, with persistent requests made once
 * (MPI_Recv_init + MPI_Send_init, then MPI_Start each time). Both loops do
 * the same: rank 0 posts its receive, starts its send and waits for both;
 * rank 1 posts its receive, waits for it, then sends and waits.
 * Latency = round-trip time / 2, averaged over the timed iterations. */
#include "osu_common.h"

#include <stdlib.h>
#include <string.h>

static const struct osu_spec spec = {
    "osu_latency_persistent", "MPI Persistent Latency Test",
    OSU_KIND_LATENCY, OSU_RANKS_TWO, 0, 0, 0};

enum { TAG = 1 };

/* One ping-pong; req[0] receives, req[1] sends. */
static void round_trip(int rank, MPI_Request req[2], int persistent,
                       char *sbuf, char *rbuf, int count, int peer)
{
    if (persistent)
        MPI_Start(&req[0]);
    else
        MPI_Irecv(rbuf, count, MPI_CHAR, peer, TAG, MPI_COMM_WORLD, &req[0]);
    if (rank == 1)
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    if (persistent)
        MPI_Start(&req[1]);
    else
        MPI_Isend(sbuf, count, MPI_CHAR, peer, TAG, MPI_COMM_WORLD, &req[1]);
    if (rank == 0)
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    else
        MPI_Wait(&req[1], MPI_STATUS_IGNORE);
}

/* Average one-way latency in microseconds (meaningful on rank 0). */
static double measure(int rank, int persistent, char *sbuf, char *rbuf,
                      size_t size, long iters, long skip)
{
    const int count = (int)size, peer = 1 - rank;
    MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    if (persistent) {
        MPI_Recv_init(rbuf, count, MPI_CHAR, peer, TAG, MPI_COMM_WORLD, &req[0]);
        MPI_Send_init(sbuf, count, MPI_CHAR, peer, TAG, MPI_COMM_WORLD, &req[1]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t_start = 0.0;
    for (long i = 0; i < iters + skip; ++i) {
        if (i == skip)
            t_start = MPI_Wtime();
        round_trip(rank, req, persistent, sbuf, rbuf, count, peer);
    }
    const double elapsed = MPI_Wtime() - t_start;
    if (persistent) {
        MPI_Request_free(&req[0]);
        MPI_Request_free(&req[1]);
    }
    return elapsed * 1e6 / (2.0 * (double)iters);
}

int main(int argc, char **argv)
{
    struct osu_options opt;
    int rank, nranks;
    osu_init(&argc, &argv, &spec, &opt, &rank, &nranks);
    char *sbuf = osu_alloc(opt.max_size);
    char *rbuf = osu_alloc(opt.max_size);

    if (rank == 0) {
        osu_print_title(&spec);
        osu_print_columns(2, (const char *const[]){"Nonblocking (us)",
                                                  "Persistent (us)"});
    }
    for (size_t size = opt.min_size; size <= opt.max_size;
         size = osu_next_size(size)) {
        const long iters = osu_iterations(&opt, size);
        const long skip = osu_skip(&opt, size);
        memset(sbuf, 'a', size);
        memset(rbuf, 'b', size);
        double latency_us[2];
        latency_us[0] = measure(rank, 0, sbuf, rbuf, size, iters, skip);
        latency_us[1] = measure(rank, 1, sbuf, rbuf, size, iters, skip);
        if (rank == 0)
            osu_print_row(size, 2, latency_us);
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return EXIT_SUCCESS;
}
