/* handoff.h - the cache-line hand-off ping-pongs that define the machine
 * floor, shared by floor_handoff (two forked processes) and
 * osu_latency_floor (two MPI ranks), so both measure the same thing.
 *
 * Two sides share one struct handoff_lines in MAP_SHARED memory. The leader
 * starts each round trip, the follower answers. A counter `k` carries on
 * across calls (each side keeps its own, both start at 0), so the sides may
 * split the same number of round trips into different batches. */
#ifndef SHMPI_HANDOFF_H
#define SHMPI_HANDOFF_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

/* Each word alone in a 128-byte pair of lines (no adjacent-line prefetch
 * couples them). */
struct handoff_lines {
    _Alignas(128) _Atomic uint64_t turn; /* one line: leader odd, follower even values */
    _Alignas(128) _Atomic uint64_t ping; /* two lines: leader -> follower */
    _Alignas(128) _Atomic uint64_t pong; /* two lines: follower -> leader */
};

/* `iters` round trips through the one shared line. */
static inline void handoff_one_line(struct handoff_lines *s, int leader, long iters, uint64_t *k)
{
    for (long i = 0; i < iters; ++i, ++*k) {
        if (leader) {
            atomic_store_explicit(&s->turn, 2 * *k + 1, memory_order_release);
            while (atomic_load_explicit(&s->turn, memory_order_acquire) != 2 * *k + 2) {
            }
        } else {
            while (atomic_load_explicit(&s->turn, memory_order_acquire) != 2 * *k + 1) {
            }
            atomic_store_explicit(&s->turn, 2 * *k + 2, memory_order_release);
        }
    }
}

/* `iters` round trips through two lines, one per direction: the floor of
 * any transport with a channel per direction. */
static inline void handoff_two_lines(struct handoff_lines *s, int leader, long iters, uint64_t *k)
{
    for (long i = 0; i < iters; ++i) {
        ++*k;
        if (leader) {
            atomic_store_explicit(&s->ping, *k, memory_order_release);
            while (atomic_load_explicit(&s->pong, memory_order_acquire) != *k) {
            }
        } else {
            while (atomic_load_explicit(&s->ping, memory_order_acquire) != *k) {
            }
            atomic_store_explicit(&s->pong, *k, memory_order_release);
        }
    }
}

static inline int handoff_cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v[0..n) ascending (so v[0] and v[n-1] are min and max) and returns
 * its median. */
static inline double handoff_sort_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, handoff_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
