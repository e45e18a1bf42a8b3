/* osu_common.h - what the shmpi OSU-style benchmarks share.
 *
 * The programs are plain C11 using only MPI-1 calls (point-to-point, and
 * the collective under test in osu_coll.h's programs) plus
 * MPI_Barrier / MPI_Reduce / MPI_Wtime / MPI_Abort, so the same source builds
 * against shmpi, Open MPI and MPICH (the multi-threaded programs, see
 * osu_threads.h, add MPI_Init_thread and pthreads). Options, defaults,
 * iteration counts and the output format follow the OSU micro-benchmarks (OMB 7.x):
 *   "%-10s%20s" header, "%-10zu%20.2f" rows, MB = 1e6 bytes,
 *   iterations drop to the "large" counts above 8 KiB.
 *
 * Contract: every rank calls osu_init() with the same argv; it either
 * returns with valid options or ends the process (help: exit 0; bad input:
 * one line on stderr from rank 0, MPI_Finalize, exit 1).
 */
#ifndef SHMPI_OSU_COMMON_H
#define SHMPI_OSU_COMMON_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* getopt, posix_memalign, sysconf */
#endif

#include <stddef.h>

#include <mpi.h>

#define OSU_FIELD_WIDTH 20
#define OSU_FLOAT_PRECISION 2
#define OSU_LARGE_MESSAGE_SIZE ((size_t)8192)
#define OSU_MAX_MESSAGE_SIZE ((size_t)1 << 28) /* refuse -m above 256 MiB */
#define OSU_MAX_WINDOW 4096
#define OSU_MAX_K_VALUES 16
#define OSU_MAX_K 1000000L
#define OSU_MAX_THREADS 64

/* Which defaults a program gets (OMB's LAT_* or BW_* constants). */
enum osu_kind { OSU_KIND_LATENCY, OSU_KIND_BANDWIDTH };

/* How many ranks a program accepts. */
enum osu_ranks {
    OSU_RANKS_TWO,  /* exactly 2 */
    OSU_RANKS_PAIRS, /* an even number >= 2: ranks [0, n/2) pair with [n/2, n) */
    OSU_RANKS_ANY    /* any number >= 2 (the collectives) */
};

/* Static description of one benchmark program. */
struct osu_spec {
    const char *name;  /* program name, e.g. "osu_latency" */
    const char *title; /* e.g. "MPI Latency Test" */
    enum osu_kind kind;
    enum osu_ranks ranks;
    int has_window; /* accepts -W window */
    int has_k_list; /* accepts -K list */
    int has_threads; /* multi-threaded: accepts -t threads, needs
                        MPI_THREAD_MULTIPLE (osu_init ends the process
                        with "MPI_THREAD_MULTIPLE not granted" otherwise) */
};

/* Parsed command line. */
struct osu_options {
    size_t min_size, max_size;          /* -m [min:]max */
    long iterations, skip;              /* timed / warm-up loops, size <= 8 KiB */
    long iterations_large, skip_large;  /* same above 8 KiB; -i / -x set both */
    int window;                         /* -W: messages in flight per iteration */
    int k_count;                        /* -K: number of entries in k_list */
    long k_list[OSU_MAX_K_VALUES];      /* -K: pre-posted receive counts */
    int threads;                        /* -t: threads (what they do: per program) */
};

/* MPI_Init (MPI_Init_thread asking for MPI_THREAD_MULTIPLE when
 * spec->has_threads), option parsing and rank-count check (see the
 * contract above). */
void osu_init(int *argc, char ***argv, const struct osu_spec *spec,
              struct osu_options *opt, int *rank, int *nranks);

/* Next size of the sweep: 0, 1, 2, 4, ... (as OMB). */
size_t osu_next_size(size_t size);

/* Timed iterations and warm-up iterations for one message size. */
long osu_iterations(const struct osu_options *opt, size_t size);
long osu_skip(const struct osu_options *opt, size_t size);

/* A page-aligned buffer of at least `bytes` (never less than one page),
 * written once so every page is mapped before timing. MPI_Abort on failure. */
void *osu_alloc(size_t bytes);

/* Rank 0 prints "# shmpi OSU-style <title> v7.x". */
void osu_print_title(const struct osu_spec *spec);

/* Rank 0 prints "# Size" and `ncols` right-aligned column labels. */
void osu_print_columns(int ncols, const char *const *labels);

/* Rank 0 prints one row: size, then `nvals` values with 2 decimals. */
void osu_print_row(size_t size, int nvals, const double *vals);

#endif
