/* osu_bw_persistent - unidirectional bandwidth as osu_bw measures it (rank
 * 0 sends a window of -W messages, rank 1 receives them and answers each
 * window with a 4-byte ack), once with nonblocking requests made for every
 * message (MPI_Isend / MPI_Irecv) and, beside it in the same run, with a
 * window of persistent requests made once per size and started together
 * (MPI_Send_init / MPI_Recv_init, MPI_Startall). MB/s counts 1e6 bytes. */
#include "osu_common.h"

#include <stdlib.h>
#include <string.h>

static const struct osu_spec spec = {
    "osu_bw_persistent", "MPI Persistent Bandwidth Test", OSU_KIND_BANDWIDTH,
    OSU_RANKS_TWO, 1, 0, 0};

enum { TAG_DATA = 100, TAG_ACK = 101, ACK_BYTES = 4 };

/* One window of messages and its ack. */
static void window_round(int rank, int window, MPI_Request *reqs,
                         int persistent, char *sbuf, char *rbuf, int count)
{
    const int peer = 1 - rank;
    if (persistent) {
        MPI_Startall(window, reqs);
    } else {
        for (int w = 0; w < window; ++w) {
            if (rank == 0)
                MPI_Isend(sbuf, count, MPI_CHAR, peer, TAG_DATA,
                          MPI_COMM_WORLD, &reqs[w]);
            else
                MPI_Irecv(rbuf, count, MPI_CHAR, peer, TAG_DATA,
                          MPI_COMM_WORLD, &reqs[w]);
        }
    }
    MPI_Waitall(window, reqs, MPI_STATUSES_IGNORE);
    if (rank == 0)
        MPI_Recv(rbuf, ACK_BYTES, MPI_CHAR, peer, TAG_ACK, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    else
        MPI_Send(sbuf, ACK_BYTES, MPI_CHAR, peer, TAG_ACK, MPI_COMM_WORLD);
}

/* Bandwidth in MB/s (meaningful on rank 0). */
static double measure(int rank, int window, MPI_Request *reqs, int persistent,
                      char *sbuf, char *rbuf, size_t size, long iters,
                      long skip)
{
    const int count = (int)size, peer = 1 - rank;
    for (int w = 0; persistent && w < window; ++w) {
        if (rank == 0)
            MPI_Send_init(sbuf, count, MPI_CHAR, peer, TAG_DATA,
                          MPI_COMM_WORLD, &reqs[w]);
        else
            MPI_Recv_init(rbuf, count, MPI_CHAR, peer, TAG_DATA,
                          MPI_COMM_WORLD, &reqs[w]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t_start = 0.0;
    for (long i = 0; i < iters + skip; ++i) {
        if (i == skip)
            t_start = MPI_Wtime();
        window_round(rank, window, reqs, persistent, sbuf, rbuf, count);
    }
    const double elapsed = MPI_Wtime() - t_start;
    for (int w = 0; persistent && w < window; ++w)
        MPI_Request_free(&reqs[w]);
    return (double)size / 1e6 * (double)iters * window / elapsed;
}

int main(int argc, char **argv)
{
    struct osu_options opt;
    int rank, nranks;
    osu_init(&argc, &argv, &spec, &opt, &rank, &nranks);
    char *sbuf = osu_alloc(opt.max_size);
    char *rbuf = osu_alloc(opt.max_size);
    MPI_Request *reqs = malloc((size_t)opt.window * sizeof *reqs);
    if (reqs == NULL)
        MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);

    if (rank == 0) {
        osu_print_title(&spec);
        osu_print_columns(2, (const char *const[]){"Nonblocking (MB/s)",
                                                  "Persistent (MB/s)"});
    }
    for (size_t size = opt.min_size; size <= opt.max_size;
         size = osu_next_size(size)) {
        const long iters = osu_iterations(&opt, size);
        const long skip = osu_skip(&opt, size);
        memset(sbuf, 'a', size);
        memset(rbuf, 'b', size);
        double bw[2];
        bw[0] = measure(rank, opt.window, reqs, 0, sbuf, rbuf, size, iters,
                        skip);
        bw[1] = measure(rank, opt.window, reqs, 1, sbuf, rbuf, size, iters,
                        skip);
        if (rank == 0)
            osu_print_row(size, 2, bw);
    }
    free(reqs);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return EXIT_SUCCESS;
}
