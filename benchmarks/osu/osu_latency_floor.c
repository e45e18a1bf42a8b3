/* osu_latency_floor - 0-byte MPI latency in units of the machine floor,
 * both measured by the same two ranks, in turn, without pausing.
 *
 * Why: on these VMs the one-way cache-line hand-off between the two cores
 * flips between ~0.05 us and ~0.25 us from one process start to the next
 * (the host places the vCPUs anew whenever they idle), so a floor measured
 * by another program, even a second earlier, may belong to another state.
 * Here ranks 0 and 1 alternate, round by round, three ping-pongs while both
 * keep spinning: through one shared cache line (the floor), through two
 * lines, one per direction (the floor of a transport with a channel per
 * direction), and through MPI_Send/MPI_Recv of 0 bytes. Each round's
 * latency / floor is one sample; the median over rounds is reported.
 *
 * The shared line is a memfd of rank 0 that rank 1 opens through
 * /proc/<pid>/fd: nothing is named, nothing is left behind.
 *
 * Output: one row per round, then
 *   "latency_floor ratio <r> twoline_ratio <r2> floor_us <f> twoline_us <t> latency_us <l> rounds <n>"
 * (medians). Options: -i iterations per ping-pong (default 10000). */
#define _GNU_SOURCE /* memfd_create */
#include "osu_common.h"

#include "../compare/handoff.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const struct osu_spec spec = {
    "osu_latency_floor", "MPI 0-byte latency against the cache-line hand-off", OSU_KIND_LATENCY,
    OSU_RANKS_TWO, 0, 0, 0};

enum { TAG = 1, ROUNDS = 21 };

static struct handoff_lines *map_shared(int rank)
{
    int fd = -1;
    int where[2] = {0, 0}; /* rank 0's pid and fd */
    if (rank == 0) {
        fd = memfd_create("osu_latency_floor", MFD_CLOEXEC);
        if (fd < 0 || ftruncate(fd, sizeof(struct handoff_lines)) != 0) {
            perror("osu_latency_floor: memfd_create");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        where[0] = (int)getpid();
        where[1] = fd;
        MPI_Send(where, 2, MPI_INT, 1, TAG, MPI_COMM_WORLD);
    } else {
        MPI_Recv(where, 2, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/fd/%d", where[0], where[1]);
        fd = open(path, O_RDWR | O_CLOEXEC);
        if (fd < 0) {
            fprintf(stderr, "osu_latency_floor: cannot open rank 0's shared memory %s: %s\n", path, strerror(errno));
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    void *p = mmap(NULL, sizeof(struct handoff_lines), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        perror("osu_latency_floor: mmap");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* rank 1 has opened it before rank 0's fd goes */
    close(fd);
    return p;
}

static void mpi_zero_bytes(int rank, long iters)
{
    char none = 0;
    for (long i = 0; i < iters; ++i) {
        if (rank == 0) {
            MPI_Send(&none, 0, MPI_CHAR, 1, TAG, MPI_COMM_WORLD);
            MPI_Recv(&none, 0, MPI_CHAR, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&none, 0, MPI_CHAR, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&none, 0, MPI_CHAR, 0, TAG, MPI_COMM_WORLD);
        }
    }
}

int main(int argc, char **argv)
{
    struct osu_options opt;
    int rank, nranks;
    osu_init(&argc, &argv, &spec, &opt, &rank, &nranks);
    struct handoff_lines *s = map_shared(rank);
    const long iters = opt.iterations;
    uint64_t k1 = 0, k2 = 0;
    double floor_us[ROUNDS], twoline_us[ROUNDS], latency_us[ROUNDS], ratio[ROUNDS], ratio2[ROUNDS];

    if (rank == 0) {
        printf("# %s\n", spec.title);
        printf("# round    floor (us)  two-line (us)  latency (us)  latency/floor\n");
    }
    /* Round 0 warms every path and is not counted. */
    for (int r = 0; r <= ROUNDS; ++r) {
        const double t0 = MPI_Wtime();
        handoff_one_line(s, rank == 0, iters, &k1);
        const double t1 = MPI_Wtime();
        handoff_two_lines(s, rank == 0, iters, &k2);
        const double t2 = MPI_Wtime();
        mpi_zero_bytes(rank, iters);
        const double t3 = MPI_Wtime();
        if (rank != 0 || r == 0)
            continue;
        const int i = r - 1;
        floor_us[i] = (t1 - t0) * 1e6 / (2.0 * (double)iters);
        twoline_us[i] = (t2 - t1) * 1e6 / (2.0 * (double)iters);
        latency_us[i] = (t3 - t2) * 1e6 / (2.0 * (double)iters);
        ratio[i] = latency_us[i] / floor_us[i];
        ratio2[i] = latency_us[i] / twoline_us[i];
        printf("%-7d %12.3f %14.3f %13.3f %14.2f\n", r, floor_us[i], twoline_us[i], latency_us[i], ratio[i]);
    }
    if (rank == 0)
        printf("latency_floor ratio %.3f twoline_ratio %.3f floor_us %.4f twoline_us %.4f latency_us %.4f "
               "rounds %d\n",
               handoff_sort_median(ratio, ROUNDS), handoff_sort_median(ratio2, ROUNDS),
               handoff_sort_median(floor_us, ROUNDS), handoff_sort_median(twoline_us, ROUNDS),
               handoff_sort_median(latency_us, ROUNDS), ROUNDS);
    munmap(s, sizeof(struct handoff_lines));
    MPI_Finalize();
    return 0;
}
