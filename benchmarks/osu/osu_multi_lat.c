/* osu_multi_lat - multi-pair latency. With n ranks there are n/2 pairs
 * (rank i with rank i + n/2) ping-ponging at the same time; the figure is
 * the mean over all ranks of round-trip time / 2. */
#include "osu_common.h"

#include <stdlib.h>
#include <string.h>

static const struct osu_spec spec = {"osu_multi_lat",
                                     "Multi Latency Test", OSU_KIND_LATENCY,
                                     OSU_RANKS_PAIRS, 0, 0, 0};

enum { TAG = 1 };

int main(int argc, char **argv)
{
    struct osu_options opt;
    int rank, nranks;
    osu_init(&argc, &argv, &spec, &opt, &rank, &nranks);
    char *sbuf = osu_alloc(opt.max_size);
    char *rbuf = osu_alloc(opt.max_size);
    const int pairs = nranks / 2;
    const int pinger = rank < pairs;
    const int peer = pinger ? rank + pairs : rank - pairs;

    if (rank == 0) {
        osu_print_title(&spec);
        osu_print_columns(1, (const char *const[]){"Latency (us)"});
    }
    for (size_t size = opt.min_size; size <= opt.max_size;
         size = osu_next_size(size)) {
        const long iters = osu_iterations(&opt, size);
        const long skip = osu_skip(&opt, size);
        const int count = (int)size;
        memset(sbuf, 'a', size);
        memset(rbuf, 'b', size);
        MPI_Barrier(MPI_COMM_WORLD);

        double t_start = 0.0;
        for (long i = 0; i < iters + skip; ++i) {
            if (i == skip)
                t_start = MPI_Wtime();
            if (pinger) {
                MPI_Send(sbuf, count, MPI_CHAR, peer, TAG, MPI_COMM_WORLD);
                MPI_Recv(rbuf, count, MPI_CHAR, peer, TAG, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(rbuf, count, MPI_CHAR, peer, TAG, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
                MPI_Send(sbuf, count, MPI_CHAR, peer, TAG, MPI_COMM_WORLD);
            }
        }
        const double latency_us =
            (MPI_Wtime() - t_start) * 1e6 / (2.0 * (double)iters);
        double sum = 0.0;
        MPI_Reduce(&latency_us, &sum, 1, MPI_DOUBLE, MPI_SUM, 0,
                   MPI_COMM_WORLD);
        if (rank == 0) {
            const double mean = sum / nranks;
            osu_print_row(size, 1, &mean);
        }
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return EXIT_SUCCESS;
}
