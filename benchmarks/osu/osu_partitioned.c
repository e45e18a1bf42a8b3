/* osu_partitioned - ping-pong latency of a transfer between rank 0 and
 * rank 1 sent as one message (MPI_Send / MPI_Recv) and, beside it in the
 * same run, as a partitioned transfer of PARTS partitions (MPI-4
 * MPI_Psend_init / MPI_Precv_init, set up once per size; each round starts
 * both, marks every partition ready with MPI_Pready_range and waits).
 * Sizes below PARTS bytes are skipped. Latency = round-trip time / 2.
 *
 * Needs MPI-4 partitioned communication: built for shmpi and for peers
 * whose mpi.h declares MPI_Psend_init (MPICH 4; not Open MPI 4.1). */
#include "osu_common.h"

#include <stdlib.h>
#include <string.h>

static const struct osu_spec spec = {
    "osu_partitioned", "MPI Partitioned Latency Test (8 partitions)",
    OSU_KIND_LATENCY, OSU_RANKS_TWO, 0, 0, 0};

enum { TAG = 1, PARTS = 8 };

static void message_round(int rank, char *sbuf, char *rbuf, int count)
{
    const int peer = 1 - rank;
    if (rank == 0) {
        MPI_Send(sbuf, count, MPI_CHAR, peer, TAG, MPI_COMM_WORLD);
        MPI_Recv(rbuf, count, MPI_CHAR, peer, TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(rbuf, count, MPI_CHAR, peer, TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        MPI_Send(sbuf, count, MPI_CHAR, peer, TAG, MPI_COMM_WORLD);
    }
}

/* req[0] receives, req[1] sends. */
static void partitioned_round(int rank, MPI_Request req[2])
{
    MPI_Start(&req[0]);
    if (rank == 1)
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    MPI_Start(&req[1]);
    MPI_Pready_range(0, PARTS - 1, req[1]);
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    if (rank == 0)
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
}

/* Average one-way latency in microseconds (meaningful on rank 0). */
static double measure(int rank, int partitioned, char *sbuf, char *rbuf,
                      size_t size, long iters, long skip)
{
    const int peer = 1 - rank;
    MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    if (partitioned) {
        const MPI_Count part = (MPI_Count)(size / PARTS);
        MPI_Precv_init(rbuf, PARTS, part, MPI_CHAR, peer, TAG, MPI_COMM_WORLD,
                       MPI_INFO_NULL, &req[0]);
        MPI_Psend_init(sbuf, PARTS, part, MPI_CHAR, peer, TAG, MPI_COMM_WORLD,
                       MPI_INFO_NULL, &req[1]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t_start = 0.0;
    for (long i = 0; i < iters + skip; ++i) {
        if (i == skip)
            t_start = MPI_Wtime();
        if (partitioned)
            partitioned_round(rank, req);
        else
            message_round(rank, sbuf, rbuf, (int)size);
    }
    const double elapsed = MPI_Wtime() - t_start;
    if (partitioned) {
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
        osu_print_columns(2, (const char *const[]){"One message (us)",
                                                  "Partitioned (us)"});
    }
    for (size_t size = opt.min_size; size <= opt.max_size;
         size = osu_next_size(size)) {
        if (size < PARTS || size % PARTS != 0)
            continue;
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
