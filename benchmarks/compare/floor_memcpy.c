/* floor_memcpy - single-thread memcpy bandwidth per message size, the copy
 * floor for any shared-memory transport (one copy of the payload).
 *
 * For each size 1, 2, 4, ... max: copy between two page-aligned, touched
 * buffers (cache-hot, as OSU reuses its buffers) enough times to take about
 * `target_ms`, repeat `repeats` times, report the median. MB = 1e6 bytes.
 * Output uses the osu_bw table format so the same parser reads both. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MAX_REPEATS = 101 };

/* Called through a volatile pointer so the copies cannot be optimised out. */
static void *(*volatile copy_fn)(void *, const void *, size_t) = memcpy;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static long parse_long(const char *s, long lo, long hi, const char *what)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "floor_memcpy: bad %s '%s' (want %ld..%ld)\n", what, s,
                lo, hi);
        exit(2);
    }
    return v;
}

/* Median MB/s of `repeats` timed batches of memcpy(dst, src, size). */
static double measure(char *dst, const char *src, size_t size, long repeats,
                      double target_s)
{
    long calls = 1; /* calibrate: calls per batch for about target_s */
    for (;;) {
        const double t0 = now_s();
        for (long i = 0; i < calls; ++i)
            copy_fn(dst, src, size);
        const double t = now_s() - t0;
        if (t >= target_s / 4 || calls >= (1L << 30))
            break;
        calls *= 2;
    }
    calls *= 4;
    double mbs[MAX_REPEATS];
    for (long r = 0; r < repeats; ++r) {
        const double t0 = now_s();
        for (long i = 0; i < calls; ++i)
            copy_fn(dst, src, size);
        mbs[r] = (double)size * (double)calls / 1e6 / (now_s() - t0);
    }
    qsort(mbs, (size_t)repeats, sizeof mbs[0], cmp_double);
    return mbs[repeats / 2];
}

int main(int argc, char **argv)
{
    long max_size = 1L << 22, repeats = 5, target_ms = 20;
    int c;
    while ((c = getopt(argc, argv, "m:r:t:h")) != -1) {
        switch (c) {
        case 'm': max_size = parse_long(optarg, 1, 1L << 30, "-m"); break;
        case 'r': repeats = parse_long(optarg, 1, MAX_REPEATS, "-r"); break;
        case 't': target_ms = parse_long(optarg, 1, 10000, "-t"); break;
        case 'h':
            printf("Usage: floor_memcpy [-m max_size] [-r repeats] "
                   "[-t ms_per_batch]\n");
            return 0;
        default:
            fprintf(stderr, "floor_memcpy: bad option (see -h)\n");
            return 2;
        }
    }
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t bytes = ((size_t)max_size + page - 1) / page * page;
    void *src = NULL, *dst = NULL;
    if (posix_memalign(&src, page, bytes) != 0 ||
        posix_memalign(&dst, page, bytes) != 0) {
        fprintf(stderr, "floor_memcpy: cannot allocate %zu bytes\n", bytes);
        return 1;
    }
    memset(src, 'a', bytes);
    memset(dst, 'b', bytes);
    printf("# single-thread memcpy, cache-hot buffers, median of %ld\n", repeats);
    printf("%-*s%*s\n", 10, "# Size", 20, "Bandwidth (MB/s)");
    for (size_t size = 1; size <= (size_t)max_size; size *= 2)
        printf("%-*zu%*.*f\n", 10, size, 20, 2,
               measure(dst, src, size, repeats, (double)target_ms / 1e3));
    free(src);
    free(dst);
    return 0;
}
