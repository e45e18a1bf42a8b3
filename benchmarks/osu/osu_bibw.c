/* osu_bibw - bidirectional bandwidth: both ranks post a window of -W
 * receives and a window of -W sends at once, then wait for all of them.
 * MB/s counts the bytes of both directions (1 MB = 1e6 bytes), as OMB. */
#include "osu_common.h"

#include <stdlib.h>
#include <string.h>

static const struct osu_spec spec = {"osu_bibw",
                                     "MPI Bi-Directional Bandwidth Test",
                                     OSU_KIND_BANDWIDTH, OSU_RANKS_TWO, 1, 0, 0};

enum { TAG_DATA = 100 };

int main(int argc, char **argv)
{
    struct osu_options opt;
    int rank, nranks;
    osu_init(&argc, &argv, &spec, &opt, &rank, &nranks);
    char *sbuf = osu_alloc(opt.max_size);
    char *rbuf = osu_alloc(opt.max_size);
    MPI_Request *reqs = malloc(2 * (size_t)opt.window * sizeof *reqs);
    if (reqs == NULL)
        MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
    const int peer = 1 - rank;

    if (rank == 0) {
        osu_print_title(&spec);
        osu_print_columns(1, (const char *const[]){"Bandwidth (MB/s)"});
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
            for (int w = 0; w < opt.window; ++w)
                MPI_Irecv(rbuf, count, MPI_CHAR, peer, TAG_DATA,
                          MPI_COMM_WORLD, &reqs[w]);
            for (int w = 0; w < opt.window; ++w)
                MPI_Isend(sbuf, count, MPI_CHAR, peer, TAG_DATA,
                          MPI_COMM_WORLD, &reqs[opt.window + w]);
            MPI_Waitall(2 * opt.window, reqs, MPI_STATUSES_IGNORE);
        }
        const double elapsed = MPI_Wtime() - t_start;
        if (rank == 0) {
            const double mb =
                (double)size / 1e6 * (double)iters * opt.window * 2.0;
            const double bw = mb / elapsed;
            osu_print_row(size, 1, &bw);
        }
    }
    free(reqs);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return EXIT_SUCCESS;
}
