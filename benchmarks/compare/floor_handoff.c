/* floor_handoff - the machine floor for a shared-memory message: one-way
 * hand-off of a cache line between two processes.
 *
 * Two processes (fork) pinned to two cores ping-pong a counter in one
 * shared, cache-line-aligned word of an anonymous MAP_SHARED mapping:
 * the parent stores 2i+1 and spins until it reads 2i+2, the child spins
 * for 2i+1 and stores 2i+2. One-way time = round trip / 2. Each repeat
 * times `iterations` round trips; the median over repeats is reported.
 *
 * A second phase ping-pongs through two lines, one per direction (each in
 * its own 128-byte pair, so no adjacent-line prefetch couples them): the
 * parent stores i in `ping` and spins until `pong` reads i, the child does
 * the reverse. That is the floor of any transport with a channel per
 * direction (rings, fast boxes, cells), which pays a hand-off of a line the
 * reader is polling in each direction.
 *
 * Output (stdout):  "# one-way cache-line hand-off (us), cores A,B"
 *                   "handoff_oneway_us <median> min <min> max <max>"
 *                   "handoff_twoline_oneway_us <median> min <min> max <max>"
 */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "handoff.h"

enum { MAX_REPEATS = 1000 };

/* The shared page holds a struct handoff_lines (handoff.h): the parent leads
 * every round trip, the child answers. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int pin(int core)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(core, &set);
    return sched_setaffinity(0, sizeof set, &set);
}

static long parse_long(const char *s, long lo, long hi, const char *what)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "floor_handoff: bad %s '%s' (want %ld..%ld)\n", what, s,
                lo, hi);
        exit(2);
    }
    return v;
}

/* Times `repeats` runs of `iterations` round trips of `phase` (the leader's
 * side; the follower answers every round trip in one call). */
static void time_phase(void (*phase)(struct handoff_lines *, int, long, uint64_t *),
                       struct handoff_lines *sh, long iterations, long repeats,
                       double *oneway_us)
{
    uint64_t k = 0;
    for (long r = 0; r < repeats; ++r) {
        const double t0 = now_s();
        phase(sh, 1, iterations, &k);
        oneway_us[r] = (now_s() - t0) * 1e6 / (2.0 * (double)iterations);
    }
}

int main(int argc, char **argv)
{
    long iterations = 200000, repeats = 11, core_a = 0, core_b = 1;
    int c;
    while ((c = getopt(argc, argv, "i:r:a:b:h")) != -1) {
        switch (c) {
        case 'i': iterations = parse_long(optarg, 1, 100000000L, "-i"); break;
        case 'r': repeats = parse_long(optarg, 1, MAX_REPEATS, "-r"); break;
        case 'a': core_a = parse_long(optarg, 0, 4095, "-a"); break;
        case 'b': core_b = parse_long(optarg, 0, 4095, "-b"); break;
        case 'h':
            printf("Usage: floor_handoff [-i round_trips] [-r repeats] "
                   "[-a core] [-b core]\n");
            return 0;
        default:
            fprintf(stderr, "floor_handoff: bad option (see -h)\n");
            return 2;
        }
    }
    struct handoff_lines *sh = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                             MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) {
        perror("floor_handoff: mmap");
        return 1;
    }
    atomic_init(&sh->turn, 0);
    atomic_init(&sh->ping, 0);
    atomic_init(&sh->pong, 0);
    const long total = iterations * repeats;
    pid_t pid = fork();
    if (pid < 0) {
        perror("floor_handoff: fork");
        return 1;
    }
    if (pid == 0) {
        if (pin((int)core_b) != 0)
            fprintf(stderr, "floor_handoff: cannot pin to core %ld\n", core_b);
        uint64_t k1 = 0, k2 = 0;
        handoff_one_line(sh, 0, total, &k1);
        handoff_two_lines(sh, 0, total, &k2);
        _exit(0);
    }
    if (pin((int)core_a) != 0)
        fprintf(stderr, "floor_handoff: cannot pin to core %ld\n", core_a);

    double oneway_us[MAX_REPEATS], twoline_us[MAX_REPEATS];
    time_phase(handoff_one_line, sh, iterations, repeats, oneway_us);
    time_phase(handoff_two_lines, sh, iterations, repeats, twoline_us);
    int status = 0;
    waitpid(pid, &status, 0);
    qsort(oneway_us, (size_t)repeats, sizeof oneway_us[0], handoff_cmp_double);
    qsort(twoline_us, (size_t)repeats, sizeof twoline_us[0], handoff_cmp_double);
    printf("# one-way cache-line hand-off (us), cores %ld,%ld, %ld round trips "
           "x %ld repeats\n", core_a, core_b, iterations, repeats);
    printf("handoff_oneway_us %.3f min %.3f max %.3f\n",
           oneway_us[repeats / 2], oneway_us[0], oneway_us[repeats - 1]);
    printf("handoff_twoline_oneway_us %.3f min %.3f max %.3f\n",
           twoline_us[repeats / 2], twoline_us[0], twoline_us[repeats - 1]);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
