/* osu_common.c - options, buffers and output of the OSU-style benchmarks.
 * See osu_common.h for the contract. */
#include "osu_common.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* OMB defaults (osu_util.h: LAT_LOOP_SMALL ... BW_SKIP_LARGE). */
enum {
    LAT_LOOP_SMALL = 10000, LAT_SKIP_SMALL = 100,
    LAT_LOOP_LARGE = 1000, LAT_SKIP_LARGE = 10,
    BW_LOOP_SMALL = 100, BW_SKIP_SMALL = 10,
    BW_LOOP_LARGE = 20, BW_SKIP_LARGE = 2,
    DEFAULT_WINDOW = 64, DEFAULT_THREADS = 2
};
#define DEFAULT_MAX_SIZE ((size_t)1 << 22) /* 4 MiB */

static const long default_k_list[] = {0, 10, 100, 1000, 10000};

/* Rank 0 prints one line "<prog>: <message>" on stderr; every rank then
 * finalizes and exits 1. All ranks parse the same argv, so all get here. */
static void fail(const struct osu_spec *spec, int rank, const char *fmt, ...)
{
    if (rank == 0) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "%s: ", spec->name);
        vfprintf(stderr, fmt, ap);
        fprintf(stderr, "\n");
        va_end(ap);
        fflush(stderr);
    }
    MPI_Finalize();
    exit(EXIT_FAILURE);
}

/* Parses a whole decimal number in [0, max]; 0 on success. */
static int parse_number(const char *s, unsigned long long max,
                        unsigned long long *out)
{
    if (s == NULL || *s < '0' || *s > '9')
        return -1; /* also rejects "", "-1", "+1", " 1" */
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0' || v > max)
        return -1;
    *out = v;
    return 0;
}

/* -m accepts "max", "min:max", "min:" and ":max" like OMB. */
static void parse_sizes(const struct osu_spec *spec, int rank, const char *arg,
                        struct osu_options *opt)
{
    const unsigned long long limit = OSU_MAX_MESSAGE_SIZE;
    unsigned long long lo = opt->min_size, hi = opt->max_size;
    const char *colon = strchr(arg, ':');
    int bad;
    if (colon == NULL) {
        bad = parse_number(arg, ~0ULL, &hi);
    } else {
        char head[64];
        size_t n = (size_t)(colon - arg);
        bad = n >= sizeof head;
        if (!bad && n > 0) {
            memcpy(head, arg, n);
            head[n] = '\0';
            bad = parse_number(head, ~0ULL, &lo);
        }
        if (!bad && colon[1] != '\0')
            bad = parse_number(colon + 1, ~0ULL, &hi);
        if (!bad && n == 0 && colon[1] == '\0')
            bad = 1; /* ":" alone */
    }
    if (bad)
        fail(spec, rank, "malformed message size '%s' (want MAX or MIN:MAX)", arg);
    if (hi > limit)
        fail(spec, rank, "maximum message size %llu is above the limit %llu",
             hi, limit);
    if (spec->kind == OSU_KIND_BANDWIDTH && lo == 0)
        fail(spec, rank, "bandwidth needs message sizes >= 1, got '%s'", arg);
    if (lo > hi)
        fail(spec, rank, "minimum message size %llu is above the maximum %llu",
             lo, hi);
    opt->min_size = (size_t)lo;
    opt->max_size = (size_t)hi;
}

/* -K accepts a comma-separated list such as "0,10,100" (no empty items). */
static void parse_k_list(const struct osu_spec *spec, int rank, const char *arg,
                         struct osu_options *opt)
{
    opt->k_count = 0;
    const char *item = arg;
    for (;;) {
        const char *comma = strchr(item, ',');
        const size_t n = comma ? (size_t)(comma - item) : strlen(item);
        char buf[32];
        unsigned long long k;
        if (n == 0 || n >= sizeof buf)
            fail(spec, rank, "malformed -K list '%s' (want e.g. 0,10,100)", arg);
        memcpy(buf, item, n);
        buf[n] = '\0';
        if (parse_number(buf, OSU_MAX_K, &k) != 0)
            fail(spec, rank, "bad -K entry '%s' (want integers 0..%ld)", buf,
                 OSU_MAX_K);
        if (opt->k_count == OSU_MAX_K_VALUES)
            fail(spec, rank, "-K takes at most %d values", OSU_MAX_K_VALUES);
        opt->k_list[opt->k_count++] = (long)k;
        if (comma == NULL)
            break;
        item = comma + 1;
    }
}

static long parse_count_option(const struct osu_spec *spec, int rank, char opt,
                               const char *arg, long min, long max)
{
    unsigned long long v;
    if (parse_number(arg, (unsigned long long)max, &v) != 0 || (long)v < min)
        fail(spec, rank, "bad value '%s' for -%c (want an integer %ld..%ld)",
             arg, opt, min, max);
    return (long)v;
}

static void print_help(const struct osu_spec *spec)
{
    printf("Usage: %s [options]\n", spec->name);
    printf("shmpi OSU-style %s (MPI-1 point-to-point; output as OMB v7.x)\n",
           spec->title);
    printf("Options:\n");
    printf("  -m [MIN:]MAX   message sizes MIN..MAX bytes, doubling "
           "(default %d:%zu; -m 128, -m 2:128, -m 2:)\n",
           spec->kind == OSU_KIND_BANDWIDTH ? 1 : 0, DEFAULT_MAX_SIZE);
    printf("  -i ITER        timed iterations per size (default %d, %d above "
           "8 KiB; -i sets both)\n",
           spec->kind == OSU_KIND_BANDWIDTH ? BW_LOOP_SMALL : LAT_LOOP_SMALL,
           spec->kind == OSU_KIND_BANDWIDTH ? BW_LOOP_LARGE : LAT_LOOP_LARGE);
    printf("  -x WARMUP      warm-up iterations per size (default %d, %d above "
           "8 KiB; -x sets both)\n",
           spec->kind == OSU_KIND_BANDWIDTH ? BW_SKIP_SMALL : LAT_SKIP_SMALL,
           spec->kind == OSU_KIND_BANDWIDTH ? BW_SKIP_LARGE : LAT_SKIP_LARGE);
    if (spec->has_window)
        printf("  -W WINDOW      messages in flight before the ack "
               "(default %d, max %d)\n", DEFAULT_WINDOW, OSU_MAX_WINDOW);
    if (spec->has_k_list)
        printf("  -K LIST        numbers of non-matching receives pre-posted "
               "on each rank (default 0,10,100,1000,10000)\n");
    if (spec->has_threads)
        printf("  -t THREADS     threads (default %d, max %d; needs "
               "MPI_THREAD_MULTIPLE)\n", DEFAULT_THREADS, OSU_MAX_THREADS);
    else
        printf("  -L LEVEL       single (MPI_Init, default) or multiple "
               "(MPI_Init_thread at MPI_THREAD_MULTIPLE: what that level costs "
               "this one-thread loop)\n");
    printf("  -h             print this help\n");
    printf("Ranks: %s\n", spec->ranks == OSU_RANKS_TWO     ? "exactly 2"
                          : spec->ranks == OSU_RANKS_PAIRS ? "an even number; rank i pairs with i + n/2"
                                                           : "2 or more");
    fflush(stdout);
}

static void set_defaults(const struct osu_spec *spec, struct osu_options *opt)
{
    memset(opt, 0, sizeof *opt);
    int bw = spec->kind == OSU_KIND_BANDWIDTH;
    opt->min_size = bw ? 1 : 0;
    opt->max_size = DEFAULT_MAX_SIZE;
    opt->iterations = bw ? BW_LOOP_SMALL : LAT_LOOP_SMALL;
    opt->skip = bw ? BW_SKIP_SMALL : LAT_SKIP_SMALL;
    opt->iterations_large = bw ? BW_LOOP_LARGE : LAT_LOOP_LARGE;
    opt->skip_large = bw ? BW_SKIP_LARGE : LAT_SKIP_LARGE;
    opt->window = DEFAULT_WINDOW;
    opt->threads = DEFAULT_THREADS;
    opt->k_count = (int)(sizeof default_k_list / sizeof default_k_list[0]);
    memcpy(opt->k_list, default_k_list, sizeof default_k_list);
}

/* "-h -m -i -x" from ":hm:i:x:". */
static const char *option_letters(const char *optstring, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *p = optstring; *p != '\0' && n + 4 < cap; ++p) {
        if (*p == ':')
            continue;
        n += (size_t)snprintf(out + n, cap - n, n ? " -%c" : "-%c", *p);
    }
    out[n] = '\0';
    return out;
}

static void check_ranks(const struct osu_spec *spec, int rank, int nranks)
{
    if (spec->ranks == OSU_RANKS_TWO && nranks != 2)
        fail(spec, rank, "needs exactly 2 ranks, got %d", nranks);
    if (spec->ranks == OSU_RANKS_PAIRS && (nranks < 2 || nranks % 2 != 0))
        fail(spec, rank, "needs an even number of ranks (>= 2), got %d", nranks);
    if (spec->ranks == OSU_RANKS_ANY && nranks < 2)
        fail(spec, rank, "needs at least 2 ranks, got %d", nranks);
}

static const char *thread_level_name(int level)
{
    return level == MPI_THREAD_SINGLE       ? "MPI_THREAD_SINGLE"
           : level == MPI_THREAD_FUNNELED   ? "MPI_THREAD_FUNNELED"
           : level == MPI_THREAD_SERIALIZED ? "MPI_THREAD_SERIALIZED"
           : level == MPI_THREAD_MULTIPLE   ? "MPI_THREAD_MULTIPLE"
                                            : "an unknown level";
}

/* "-L multiple" among the arguments: read before MPI is initialised, since
 * it chooses how; getopt checks the value afterwards. */
static int wants_multiple(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; ++i)
        if (strcmp(argv[i], "-L") == 0)
            return strcmp(argv[i + 1], "multiple") == 0;
    return 0;
}

/* MPI_Init, or for a multi-threaded program (or -L multiple)
 * MPI_Init_thread; like OMB's _mt programs they stop (exit 1) when
 * MULTIPLE is not granted. The message is fixed:
 * benchmarks/compare/compare.py looks for it. */
static int started_multiple; /* -L multiple: osu_print_title says so */

static void init_mpi(int *argc, char ***argv, const struct osu_spec *spec,
                     int *rank)
{
    started_multiple = !spec->has_threads && wants_multiple(*argc, *argv);
    if (!spec->has_threads && !started_multiple) {
        MPI_Init(argc, argv);
        MPI_Comm_rank(MPI_COMM_WORLD, rank);
        return;
    }
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    if (provided < MPI_THREAD_MULTIPLE)
        fail(spec, *rank, "MPI_THREAD_MULTIPLE not granted (provided %s)",
             thread_level_name(provided));
}

void osu_init(int *argc, char ***argv, const struct osu_spec *spec,
              struct osu_options *opt, int *rank, int *nranks)
{
    init_mpi(argc, argv, spec, rank);
    MPI_Comm_size(MPI_COMM_WORLD, nranks);
    set_defaults(spec, opt);

    char optstring[16] = ":hm:i:x:";
    if (spec->has_window)
        strcat(optstring, "W:");
    if (spec->has_k_list)
        strcat(optstring, "K:");
    strcat(optstring, spec->has_threads ? "t:" : "L:");
    char valid[48];
    opterr = 0; /* our own one-line messages */
    int c;
    while ((c = getopt(*argc, *argv, optstring)) != -1) {
        switch (c) {
        case 'h':
            if (*rank == 0)
                print_help(spec);
            MPI_Finalize();
            exit(EXIT_SUCCESS);
        case 'm': parse_sizes(spec, *rank, optarg, opt); break;
        case 'i':
            opt->iterations = opt->iterations_large =
                parse_count_option(spec, *rank, 'i', optarg, 1, 1000000000L);
            break;
        case 'x':
            opt->skip = opt->skip_large =
                parse_count_option(spec, *rank, 'x', optarg, 0, 1000000000L);
            break;
        case 'W':
            opt->window = (int)parse_count_option(spec, *rank, 'W', optarg, 1,
                                                  OSU_MAX_WINDOW);
            break;
        case 'K': parse_k_list(spec, *rank, optarg, opt); break;
        case 't':
            opt->threads = (int)parse_count_option(spec, *rank, 't', optarg, 1,
                                                   OSU_MAX_THREADS);
            break;
        case 'L':
            if (strcmp(optarg, "single") != 0 && strcmp(optarg, "multiple") != 0)
                fail(spec, *rank, "-L must be single or multiple, got '%s'", optarg);
            break;
        case ':': fail(spec, *rank, "option -%c needs a value", optopt); break;
        default:
            fail(spec, *rank, "unknown option -%c (valid: %s)", optopt,
                 option_letters(optstring, valid, sizeof valid));
            break;
        }
    }
    if (optind < *argc)
        fail(spec, *rank, "unexpected argument '%s'", (*argv)[optind]);
    check_ranks(spec, *rank, *nranks);
}

size_t osu_next_size(size_t size) { return size == 0 ? 1 : size * 2; }

long osu_iterations(const struct osu_options *opt, size_t size)
{
    return size > OSU_LARGE_MESSAGE_SIZE ? opt->iterations_large : opt->iterations;
}

long osu_skip(const struct osu_options *opt, size_t size)
{
    return size > OSU_LARGE_MESSAGE_SIZE ? opt->skip_large : opt->skip;
}

void *osu_alloc(size_t bytes)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t align = page > 0 ? (size_t)page : 4096;
    size_t n = (bytes + align - 1) / align * align;
    if (n == 0)
        n = align;
    void *p = NULL;
    if (posix_memalign(&p, align, n) != 0) {
        fprintf(stderr, "osu: cannot allocate %zu bytes\n", n);
        MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
    }
    memset(p, 0x5a, n); /* fault every page in before timing */
    return p;
}

void osu_print_title(const struct osu_spec *spec)
{
    printf("# shmpi OSU-style %s v7.x\n", spec->title);
    if (started_multiple)
        printf("# [ thread level: MPI_THREAD_MULTIPLE, one thread ]\n");
    fflush(stdout);
}

void osu_print_columns(int ncols, const char *const *labels)
{
    printf("%-*s", 10, "# Size");
    for (int i = 0; i < ncols; ++i)
        printf("%*s", OSU_FIELD_WIDTH, labels[i]);
    printf("\n");
    fflush(stdout);
}

void osu_print_row(size_t size, int nvals, const double *vals)
{
    printf("%-*zu", 10, size);
    for (int i = 0; i < nvals; ++i)
        printf("%*.*f", OSU_FIELD_WIDTH, OSU_FLOAT_PRECISION, vals[i]);
    printf("\n");
    fflush(stdout);
}
