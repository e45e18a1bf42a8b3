/* osu_type_latency.c - the ping-pong driver of osu_type_latency.h. */
#include "osu_type_latency.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG = 1, FILLER = 0xEE };

/* Rank r's bytes: differ between the ranks and along the buffer. */
static void fill_pattern(unsigned char *buf, size_t bytes, int r)
{
    for (size_t i = 0; i < bytes; ++i)
        buf[i] = (unsigned char)(i * 7 + (size_t)r * 101 + 1);
}

static double pingpong_us(int rank, void *sbuf, void *rbuf, MPI_Datatype type,
                          long iters, long skip)
{
    const int peer = 1 - rank;
    MPI_Barrier(MPI_COMM_WORLD);
    double t_start = 0.0;
    for (long i = 0; i < iters + skip; ++i) {
        if (i == skip)
            t_start = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(sbuf, 1, type, peer, TAG, MPI_COMM_WORLD);
            MPI_Recv(rbuf, 1, type, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(rbuf, 1, type, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(sbuf, 1, type, peer, TAG, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - t_start) * 1e6 / (2.0 * (double)iters);
}

/* 0 if rbuf is what one item of `type` from the peer's pattern, unpacked
 * over FILLER, looks like. `scratch` holds at least 2 * span + packed. */
static int received_ok(int rank, MPI_Datatype type, const unsigned char *rbuf,
                       size_t span, unsigned char *scratch)
{
    int packed = 0, pos = 0;
    MPI_Pack_size(1, type, MPI_COMM_WORLD, &packed);
    unsigned char *peer_data = scratch, *want = scratch + span;
    unsigned char *wire = scratch + 2 * span;
    fill_pattern(peer_data, span, 1 - rank);
    MPI_Pack(peer_data, 1, type, wire, packed, &pos, MPI_COMM_WORLD);
    memset(want, FILLER, span);
    pos = 0;
    MPI_Unpack(wire, packed, &pos, want, 1, type, MPI_COMM_WORLD);
    return memcmp(rbuf, want, span) == 0;
}

int osu_type_latency_main(int argc, char **argv, const struct osu_spec *spec,
                          const struct osu_type_shape *shape)
{
    struct osu_options opt;
    int rank, nranks;
    osu_init(&argc, &argv, spec, &opt, &rank, &nranks);
    MPI_Aint max_span = 0;
    const int max_n = (int)(opt.max_size / shape->unit);
    if (max_n > 0) {
        MPI_Datatype widest = shape->make(max_n, &max_span);
        MPI_Type_free(&widest);
    }
    const size_t span_cap = (size_t)max_span;
    unsigned char *sbuf = osu_alloc(span_cap), *rbuf = osu_alloc(span_cap);
    unsigned char *scratch = osu_alloc(3 * span_cap);

    if (rank == 0) {
        osu_print_title(spec);
        osu_print_columns(1, (const char *const[]){"Latency (us)"});
    }
    int failed = 0;
    for (size_t size = opt.min_size; size <= opt.max_size;
         size = osu_next_size(size)) {
        if (size == 0 || size % shape->unit != 0)
            continue;
        MPI_Aint span = 0;
        MPI_Datatype type = shape->make((int)(size / shape->unit), &span);
        fill_pattern(sbuf, (size_t)span, rank);
        memset(rbuf, FILLER, (size_t)span);
        double us = pingpong_us(rank, sbuf, rbuf, type, osu_iterations(&opt, size),
                                osu_skip(&opt, size));
        if (!received_ok(rank, type, rbuf, (size_t)span, scratch)) {
            printf("%s: FAIL rank %d size %zu: received bytes differ\n",
                   spec->name, rank, size);
            fflush(stdout);
            failed = 1;
        }
        MPI_Type_free(&type);
        if (rank == 0)
            osu_print_row(size, 1, &us);
    }
    free(sbuf);
    free(rbuf);
    free(scratch);
    MPI_Finalize();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
