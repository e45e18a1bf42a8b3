/* osu_bw - unidirectional bandwidth: rank 0 posts a window of -W
 * nonblocking sends, rank 1 a window of receives; rank 1 answers each
 * window with a 4-byte ack. MB/s counts 1e6 bytes, as OMB does. */
#include "osu_common.h"

#include <stdlib.h>
#include <string.h>

static const struct osu_spec spec = {
    "osu_bw", "MPI Bandwidth Test", OSU_KIND_BANDWIDTH, OSU_RANKS_TWO, 1, 0, 0};

enum { TAG_DATA = 100, TAG_ACK = 101, ACK_BYTES = 4 };

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
            if (rank == 0) {
                for (int w = 0; w < opt.window; ++w)
                    MPI_Isend(sbuf, count, MPI_CHAR, peer, TAG_DATA,
                              MPI_COMM_WORLD, &reqs[w]);
                MPI_Waitall(opt.window, reqs, MPI_STATUSES_IGNORE);
                MPI_Recv(rbuf, ACK_BYTES, MPI_CHAR, peer, TAG_ACK,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                for (int w = 0; w < opt.window; ++w)
                    MPI_Irecv(rbuf, count, MPI_CHAR, peer, TAG_DATA,
                              MPI_COMM_WORLD, &reqs[w]);
                MPI_Waitall(opt.window, reqs, MPI_STATUSES_IGNORE);
                MPI_Send(sbuf, ACK_BYTES, MPI_CHAR, peer, TAG_ACK,
                         MPI_COMM_WORLD);
            }
        }
        const double elapsed = MPI_Wtime() - t_start;
        if (rank == 0) {
            const double mb = (double)size / 1e6 * (double)iters * opt.window;
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
