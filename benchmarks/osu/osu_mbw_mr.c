/* osu_mbw_mr - multi-pair bandwidth and message rate. With n ranks there
 * are n/2 pairs: rank i (i < n/2) streams windows of -W nonblocking sends
 * to rank i + n/2, which acks each window with 4 bytes. All pairs start
 * together after a barrier; the aggregate rate uses the slowest sender. */
#include "osu_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct osu_spec spec = {"osu_mbw_mr",
                                     "MPI Multiple Bandwidth / Message Rate Test",
                                     OSU_KIND_BANDWIDTH, OSU_RANKS_PAIRS, 1, 0, 0};

enum { TAG_DATA = 100, TAG_ACK = 101, ACK_BYTES = 4 };

/* One window exchange; the sender side posts sends, the receiver receives. */
static void exchange(int sender, char *sbuf, char *rbuf, int count, int peer,
                     int window, MPI_Request *reqs)
{
    if (sender) {
        for (int w = 0; w < window; ++w)
            MPI_Isend(sbuf, count, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD,
                      &reqs[w]);
        MPI_Waitall(window, reqs, MPI_STATUSES_IGNORE);
        MPI_Recv(rbuf, ACK_BYTES, MPI_CHAR, peer, TAG_ACK, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    } else {
        for (int w = 0; w < window; ++w)
            MPI_Irecv(rbuf, count, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD,
                      &reqs[w]);
        MPI_Waitall(window, reqs, MPI_STATUSES_IGNORE);
        MPI_Send(sbuf, ACK_BYTES, MPI_CHAR, peer, TAG_ACK, MPI_COMM_WORLD);
    }
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
    const int pairs = nranks / 2;
    const int sender = rank < pairs;
    const int peer = sender ? rank + pairs : rank - pairs;

    if (rank == 0) {
        osu_print_title(&spec);
        printf("# [ pairs: %d ] [ window size: %d ]\n", pairs, opt.window);
        osu_print_columns(2, (const char *const[]){"MB/s", "Messages/s"});
    }
    for (size_t size = opt.min_size; size <= opt.max_size;
         size = osu_next_size(size)) {
        const long iters = osu_iterations(&opt, size);
        const long skip = osu_skip(&opt, size);
        memset(sbuf, 'a', size);
        memset(rbuf, 'b', size);
        MPI_Barrier(MPI_COMM_WORLD);

        double t_start = 0.0;
        for (long i = 0; i < iters + skip; ++i) {
            if (i == skip) {
                MPI_Barrier(MPI_COMM_WORLD);
                t_start = MPI_Wtime();
            }
            exchange(sender, sbuf, rbuf, (int)size, peer, opt.window, reqs);
        }
        const double elapsed = sender ? MPI_Wtime() - t_start : 0.0;
        double slowest = 0.0;
        MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0,
                   MPI_COMM_WORLD);
        if (rank == 0) {
            const double messages = (double)pairs * (double)iters * opt.window;
            const double row[2] = {messages * (double)size / 1e6 / slowest,
                                   messages / slowest};
            osu_print_row(size, 2, row);
        }
    }
    free(reqs);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return EXIT_SUCCESS;
}
