/* osu_latency_mprobe - ping-pong latency between rank 0 and rank 1 when the
 * receiver learns the message's size from a probe, as programs that receive
 * messages of unknown length do. Each row times, in one run and one after
 * the other, three ways to receive:
 *   Recv          MPI_Recv of a known size (the plain osu_latency loop);
 *   Probe+Recv    MPI_Probe, MPI_Get_count, then MPI_Recv from the probed
 *                 source and tag (not safe when threads share a rank: another
 *                 thread's receive may take the probed message);
 *   Mprobe+Mrecv  MPI_Mprobe, MPI_Get_count, then MPI_Mrecv of the message
 *                 handle (the thread-safe way, MPI-3).
 * Both ranks receive the same way. Run with -L multiple to time them at
 * MPI_THREAD_MULTIPLE, where Mprobe is the one to use.
 * Latency = round-trip time / 2, averaged over the timed iterations. */
#include "osu_common.h"

#include <stdlib.h>
#include <string.h>

static const struct osu_spec spec = {
    "osu_latency_mprobe", "MPI Probe Latency Test",
    OSU_KIND_LATENCY, OSU_RANKS_TWO, 0, 0, 0};

enum { TAG = 1 };
enum way { RECV, PROBE_RECV, MPROBE_MRECV, WAYS };

/* Receives one message from `peer` into rbuf the given way; aborts if the
 * probed size is not the one sent (the benchmark would time a wrong run). */
static void receive(enum way way, char *rbuf, int count, int peer)
{
    MPI_Status status;
    int probed = count;
    if (way == RECV) {
        MPI_Recv(rbuf, count, MPI_CHAR, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        return;
    }
    if (way == PROBE_RECV) {
        MPI_Probe(peer, TAG, MPI_COMM_WORLD, &status);
        MPI_Get_count(&status, MPI_CHAR, &probed);
        MPI_Recv(rbuf, probed, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    } else {
        MPI_Message message;
        MPI_Mprobe(peer, TAG, MPI_COMM_WORLD, &message, &status);
        MPI_Get_count(&status, MPI_CHAR, &probed);
        MPI_Mrecv(rbuf, probed, MPI_CHAR, &message, MPI_STATUS_IGNORE);
    }
    if (probed != count)
        MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Average one-way latency in microseconds (meaningful on rank 0). */
static double measure(int rank, enum way way, char *sbuf, char *rbuf, size_t size,
                      long iters, long skip)
{
    const int count = (int)size, peer = 1 - rank;
    MPI_Barrier(MPI_COMM_WORLD);
    double t_start = 0.0;
    for (long i = 0; i < iters + skip; ++i) {
        if (i == skip)
            t_start = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(sbuf, count, MPI_CHAR, peer, TAG, MPI_COMM_WORLD);
            receive(way, rbuf, count, peer);
        } else {
            receive(way, rbuf, count, peer);
            MPI_Send(sbuf, count, MPI_CHAR, peer, TAG, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - t_start) * 1e6 / (2.0 * (double)iters);
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
        osu_print_columns(WAYS, (const char *const[]){"Recv (us)", "Probe+Recv (us)",
                                                     "Mprobe+Mrecv (us)"});
    }
    for (size_t size = opt.min_size; size <= opt.max_size; size = osu_next_size(size)) {
        const long iters = osu_iterations(&opt, size);
        const long skip = osu_skip(&opt, size);
        memset(sbuf, 'a', size);
        memset(rbuf, 'b', size);
        double latency_us[WAYS];
        for (int way = 0; way < WAYS; ++way)
            latency_us[way] = measure(rank, (enum way)way, sbuf, rbuf, size, iters, skip);
        if (rank == 0)
            osu_print_row(size, WAYS, latency_us);
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return EXIT_SUCCESS;
}
