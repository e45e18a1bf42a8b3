/* osu_footprint - start-up, run time and shared memory of a many-rank job
 * (benchmarks/compare/footprint.py runs it under each MPI for several rank
 * counts). Not an OSU benchmark; it lives here to be built for each MPI.
 *
 * Every rank: MPI_Init, barrier; rank 0 prints the wall-clock time (seconds
 * since the epoch), so the caller gets the start-up time from its own launch
 * time. Then a ring (each rank exchanges 8 bytes with both neighbours,
 * ITERS times) and an all-to-all (each rank exchanges 8 bytes with every
 * other by nonblocking point-to-point, ITERS times: every pair talks, so
 * every pair's channel is touched whatever the MPI's collective algorithms).
 * After each pattern rank 0 reads Shmem from /proc/meminfo while the others
 * wait in a barrier, so the job's shared memory is all still mapped. Output,
 * one line from rank 0:
 *
 *   footprint: ranks N iters I init_epoch_s T ring_s R ring_shmem_kib K
 *              alltoall_s A alltoall_shmem_kib K2     (one line)
 *
 * Usage: osu_footprint [ITERS]   (default 10)
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#endif

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long shmem_kib(void) {
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    long kib = -1;
    while (f != NULL && fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "Shmem: %ld kB", &kib) == 1)
            break;
    if (f != NULL)
        fclose(f);
    return kib;
}

/* Shmem seen by rank 0 while every rank is still inside the job. */
static long job_shmem(int rank) {
    MPI_Barrier(MPI_COMM_WORLD);
    long kib = rank == 0 ? shmem_kib() : 0;
    MPI_Barrier(MPI_COMM_WORLD);
    return kib;
}

static double ring(int rank, int size, int iters) {
    long out = rank, in[2];
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Request req[4];
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) {
        MPI_Irecv(&in[0], 1, MPI_LONG, prev, 1, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(&in[1], 1, MPI_LONG, next, 2, MPI_COMM_WORLD, &req[1]);
        MPI_Isend(&out, 1, MPI_LONG, next, 1, MPI_COMM_WORLD, &req[2]);
        MPI_Isend(&out, 1, MPI_LONG, prev, 2, MPI_COMM_WORLD, &req[3]);
        MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
        if (in[0] != prev || in[1] != next) {
            fprintf(stderr, "osu_footprint: FAIL rank %d: ring got %ld and %ld\n", rank, in[0], in[1]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    return MPI_Wtime() - t0;
}

static double alltoall(int rank, int size, int iters) {
    long *in = malloc(sizeof(long) * (size_t)size), out = rank;
    MPI_Request *req = malloc(sizeof(MPI_Request) * 2 * (size_t)size);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) {
        int n = 0;
        for (int d = 1; d < size; ++d) {
            int peer = (rank + d) % size;
            MPI_Irecv(&in[peer], 1, MPI_LONG, peer, 3, MPI_COMM_WORLD, &req[n++]);
            MPI_Isend(&out, 1, MPI_LONG, (rank + size - d) % size, 3, MPI_COMM_WORLD, &req[n++]);
        }
        MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
        for (int peer = 0; peer < size; ++peer)
            if (peer != rank && in[peer] != peer) {
                fprintf(stderr, "osu_footprint: FAIL rank %d: got %ld from %d\n", rank, in[peer], peer);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
    }
    double t = MPI_Wtime() - t0;
    free(in);
    free(req);
    return t;
}

int main(int argc, char **argv) {
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 10;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    double ring_s = ring(rank, size, iters);
    long ring_kib = job_shmem(rank);
    double all_s = alltoall(rank, size, iters);
    long all_kib = job_shmem(rank);
    double max_ring = 0, max_all = 0;
    MPI_Reduce(&ring_s, &max_ring, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&all_s, &max_all, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("footprint: ranks %d iters %d init_epoch_s %.6f ring_s %.6f ring_shmem_kib %ld "
               "alltoall_s %.6f alltoall_shmem_kib %ld\n",
               size, iters, (double)now.tv_sec + now.tv_nsec * 1e-9, max_ring, ring_kib, max_all, all_kib);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
