/* osu_coll.h - the timing loop the OSU-style collective benchmarks share
 * (osu_allreduce.c, osu_allgather.c, ...; each includes this header once).
 *
 * As OMB 7.x's collective tests: for each size, `skip` warm-up and `iters`
 * timed calls, each followed by MPI_Barrier (outside the timed part); each
 * rank's mean time per call is averaged over the ranks; rank 0 prints
 * "Avg Latency(us)". Sizes are bytes per rank (allreduce and reduce: of
 * MPI_FLOAT elements, so from 4 bytes). Plain MPI, so the same source
 * builds against shmpi, Open MPI and MPICH. */
#ifndef SHMPI_OSU_COLL_H
#define SHMPI_OSU_COLL_H

#include "osu_common.h"

#include <stdlib.h>
#include <string.h>

/* One call of the collective under test with `size` bytes per rank;
 * buffers hold size * nranks bytes. */
typedef void (*osu_coll_call)(void *sbuf, void *rbuf, size_t size);

static int osu_coll_main(int argc, char **argv, const struct osu_spec *spec, osu_coll_call call,
                         size_t min_size, int per_rank_buffers)
{
    struct osu_options opt;
    int rank, nranks;
    osu_init(&argc, &argv, spec, &opt, &rank, &nranks);
    if (opt.min_size < min_size)
        opt.min_size = min_size;
    const size_t span = per_rank_buffers ? (size_t)nranks : 1;
    char *sbuf = osu_alloc(opt.max_size * span);
    char *rbuf = osu_alloc(opt.max_size * span);
    if (rank == 0) {
        osu_print_title(spec);
        osu_print_columns(1, (const char *const[]){"Avg Latency(us)"});
    }
    for (size_t size = opt.min_size; size <= opt.max_size; size = osu_next_size(size)) {
        const long iters = osu_iterations(&opt, size);
        const long skip = osu_skip(&opt, size);
        memset(sbuf, 1, size * span);
        MPI_Barrier(MPI_COMM_WORLD);
        double total = 0.0;
        for (long i = 0; i < iters + skip; ++i) {
            const double t0 = MPI_Wtime();
            call(sbuf, rbuf, size);
            const double t = MPI_Wtime() - t0;
            if (i >= skip)
                total += t;
            MPI_Barrier(MPI_COMM_WORLD);
        }
        const double mine = total * 1e6 / (double)iters;
        double sum = 0.0;
        MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            const double avg = sum / nranks;
            osu_print_row(size, 1, &avg);
        }
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return EXIT_SUCCESS;
}

#endif
