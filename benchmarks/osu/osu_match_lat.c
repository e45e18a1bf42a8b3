/* osu_match_lat - ping-pong latency while K receives that never match sit
 * in the posted-receive queue of each rank (same peer and communicator,
 * a tag the ping-pong never uses, posted before the ping-pong's own
 * receives). A matcher that walks one list per peer pays O(K) per message.
 *
 * For each size and each K of -K: post K decoy receives, time the
 * ping-pong, then retire the decoys by sending each rank K zero-byte
 * messages with the decoy tag (no MPI_Cancel needed). One row per size,
 * one column per K. */
#include "osu_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct osu_spec spec = {"osu_match_lat",
                                     "MPI Matching Latency Test",
                                     OSU_KIND_LATENCY, OSU_RANKS_TWO, 0, 1, 0};

enum { TAG = 1, DECOY_TAG = 2 };

static double ping_pong(int rank, int peer, char *sbuf, char *rbuf, int count,
                        long iters, long skip)
{
    double t_start = 0.0;
    for (long i = 0; i < iters + skip; ++i) {
        if (i == skip)
            t_start = MPI_Wtime();
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
    return (MPI_Wtime() - t_start) * 1e6 / (2.0 * (double)iters);
}

/* Sends the peer k zero-byte decoy-tag messages and waits until the k
 * decoy receives posted here have been matched by the peer's messages. */
static void retire_decoys(int peer, long k, MPI_Request *decoys,
                          MPI_Request *sends, char *dbuf)
{
    for (long j = 0; j < k; ++j)
        MPI_Isend(dbuf, 0, MPI_CHAR, peer, DECOY_TAG, MPI_COMM_WORLD, &sends[j]);
    MPI_Waitall((int)k, decoys, MPI_STATUSES_IGNORE);
    MPI_Waitall((int)k, sends, MPI_STATUSES_IGNORE);
}

int main(int argc, char **argv)
{
    struct osu_options opt;
    int rank, nranks;
    osu_init(&argc, &argv, &spec, &opt, &rank, &nranks);
    char *sbuf = osu_alloc(opt.max_size);
    char *rbuf = osu_alloc(opt.max_size);
    char *dbuf = osu_alloc(1);
    long kmax = 1;
    for (int c = 0; c < opt.k_count; ++c)
        kmax = opt.k_list[c] > kmax ? opt.k_list[c] : kmax;
    MPI_Request *decoys = malloc((size_t)kmax * sizeof *decoys);
    MPI_Request *sends = malloc((size_t)kmax * sizeof *sends);
    if (decoys == NULL || sends == NULL)
        MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
    const int peer = 1 - rank;

    char labels[OSU_MAX_K_VALUES][24];
    const char *label_ptrs[OSU_MAX_K_VALUES];
    for (int c = 0; c < opt.k_count; ++c) {
        snprintf(labels[c], sizeof labels[c], "K=%ld", opt.k_list[c]);
        label_ptrs[c] = labels[c];
    }
    if (rank == 0) {
        osu_print_title(&spec);
        printf("# Latency (us) with K non-matching receives pre-posted on "
               "each rank\n");
        osu_print_columns(opt.k_count, label_ptrs);
    }
    for (size_t size = opt.min_size; size <= opt.max_size;
         size = osu_next_size(size)) {
        double row[OSU_MAX_K_VALUES];
        memset(sbuf, 'a', size);
        memset(rbuf, 'b', size);
        for (int c = 0; c < opt.k_count; ++c) {
            const long k = opt.k_list[c];
            for (long j = 0; j < k; ++j)
                MPI_Irecv(dbuf, 0, MPI_CHAR, peer, DECOY_TAG, MPI_COMM_WORLD,
                          &decoys[j]);
            MPI_Barrier(MPI_COMM_WORLD);
            row[c] = ping_pong(rank, peer, sbuf, rbuf, (int)size,
                               osu_iterations(&opt, size), osu_skip(&opt, size));
            retire_decoys(peer, k, decoys, sends, dbuf);
        }
        if (rank == 0)
            osu_print_row(size, opt.k_count, row);
    }
    free(decoys);
    free(sends);
    free(dbuf);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return EXIT_SUCCESS;
}
