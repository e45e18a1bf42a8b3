/* osu_halo - halo exchange of a 2-D grid between 2 ranks (a 2 x 1 process
 * grid). Each rank owns an n x n block of doubles stored with a one-cell
 * ghost border, (n + 2) x (n + 2) row-major. Per size it times, in turn:
 *   Row:    the last interior row (n contiguous doubles) sent to the peer,
 *           the peer's row received into the ghost row (MPI_DOUBLE);
 *   Column: the last interior column sent, the peer's column received into
 *           the ghost column (MPI_Type_vector(n, 1, n + 2, MPI_DOUBLE)).
 * Both directions move at once (MPI_Sendrecv on both ranks). Size = bytes
 * of one row or column (8 n); sizes that are not a multiple of 8 are left
 * out. Time = microseconds per exchange, averaged over the timed
 * iterations. After the timed loop the ghost row and column are checked
 * against the peer's values; a mismatch prints a line with FAIL and exits 1. */
#include "osu_common.h"

#include <stdio.h>
#include <stdlib.h>

static const struct osu_spec spec = {
    "osu_halo", "MPI Halo Exchange Test", OSU_KIND_LATENCY, OSU_RANKS_TWO,
    0, 0, 0};

enum { TAG_ROW = 1, TAG_COLUMN = 2 };
#define HALO_DEFAULT_MIN ((size_t)64)    /* 8 doubles */
#define HALO_DEFAULT_MAX ((size_t)32768) /* 4096 doubles */
/* The grid grows as the square of -m's maximum: 65536 bytes (8192
 * doubles) already takes 0.5 GiB per rank. */
#define HALO_MAX_SIZE ((size_t)65536)

/* Cell (i, j) of an n x n block with its ghost border (i, j in [0, n+1]). */
static double *cell(double *grid, int n, int i, int j)
{
    return grid + (size_t)i * (size_t)(n + 2) + (size_t)j;
}

/* Interior cell (i, j) of rank r holds a value no other cell of either
 * rank holds, so a ghost cell shows where its value came from. */
static double value_of(int r, int n, int i, int j)
{
    return (double)r * 1e9 + (double)i * (double)(n + 2) + (double)j;
}

static void fill_grid(double *grid, int n, int rank)
{
    for (int i = 0; i <= n + 1; ++i)
        for (int j = 0; j <= n + 1; ++j)
            *cell(grid, n, i, j) = (i == 0 || j == 0 || i > n || j > n)
                                       ? -1.0 : value_of(rank, n, i, j);
}

/* Rank 0 is the upper (row) and left (column) neighbour of rank 1: rank 0
 * sends its last interior row / column and receives into its last ghost
 * row / column; rank 1 sends its first and receives into its first. */
static void exchange(double *grid, int n, int rank, int column,
                     MPI_Datatype col_type)
{
    const int peer = 1 - rank;
    const int send_at = rank == 0 ? n : 1, recv_at = rank == 0 ? n + 1 : 0;
    if (column)
        MPI_Sendrecv(cell(grid, n, 1, send_at), 1, col_type, peer, TAG_COLUMN,
                     cell(grid, n, 1, recv_at), 1, col_type, peer, TAG_COLUMN,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
        MPI_Sendrecv(cell(grid, n, send_at, 1), n, MPI_DOUBLE, peer, TAG_ROW,
                     cell(grid, n, recv_at, 1), n, MPI_DOUBLE, peer, TAG_ROW,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* Microseconds per exchange (every rank times its own loop). */
static double measure(double *grid, int n, int rank, int column,
                      MPI_Datatype col_type, long iters, long skip)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t_start = 0.0;
    for (long i = 0; i < iters + skip; ++i) {
        if (i == skip)
            t_start = MPI_Wtime();
        exchange(grid, n, rank, column, col_type);
    }
    return (MPI_Wtime() - t_start) * 1e6 / (double)iters;
}

/* Number of ghost cells (row and column) that do not hold the peer's
 * boundary value, plus interior or corner cells that changed. */
static long check_grid(double *grid, int n, int rank)
{
    const int peer = 1 - rank;
    const int recv_at = rank == 0 ? n + 1 : 0, peer_send_at = peer == 0 ? n : 1;
    long bad = 0;
    for (int i = 0; i <= n + 1; ++i)
        for (int j = 0; j <= n + 1; ++j) {
            double want;
            const int interior_i = i >= 1 && i <= n, interior_j = j >= 1 && j <= n;
            if (i == recv_at && interior_j)
                want = value_of(peer, n, peer_send_at, j);
            else if (j == recv_at && interior_i)
                want = value_of(peer, n, i, peer_send_at);
            else if (interior_i && interior_j)
                want = value_of(rank, n, i, j);
            else
                want = -1.0;
            bad += *cell(grid, n, i, j) != want;
        }
    return bad;
}

int main(int argc, char **argv)
{
    struct osu_options opt;
    int rank, nranks;
    osu_init(&argc, &argv, &spec, &opt, &rank, &nranks);
    int sizes_given = 0;
    for (int a = 1; a < argc; ++a)
        sizes_given |= argv[a][0] == '-' && argv[a][1] == 'm';
    if (!sizes_given) {
        opt.min_size = HALO_DEFAULT_MIN;
        opt.max_size = HALO_DEFAULT_MAX;
    }
    if (opt.max_size > HALO_MAX_SIZE) {
        if (rank == 0)
            fprintf(stderr, "%s: maximum size %zu is above %zu (the grid is "
                    "(n + 2)^2 doubles per rank)\n", spec.name, opt.max_size,
                    HALO_MAX_SIZE);
        MPI_Finalize();
        return EXIT_FAILURE;
    }
    const size_t max_n = opt.max_size / sizeof(double);
    double *grid = osu_alloc((max_n + 2) * (max_n + 2) * sizeof(double));

    if (rank == 0) {
        osu_print_title(&spec);
        osu_print_columns(2, (const char *const[]){"Row (us)", "Column (us)"});
    }
    int failed = 0;
    for (size_t size = opt.min_size; size <= opt.max_size;
         size = osu_next_size(size)) {
        if (size == 0 || size % sizeof(double) != 0)
            continue;
        const int n = (int)(size / sizeof(double));
        const long iters = osu_iterations(&opt, size);
        const long skip = osu_skip(&opt, size);
        MPI_Datatype col_type;
        MPI_Type_vector(n, 1, n + 2, MPI_DOUBLE, &col_type);
        MPI_Type_commit(&col_type);
        fill_grid(grid, n, rank);
        double us[2];
        us[0] = measure(grid, n, rank, 0, col_type, iters, skip);
        us[1] = measure(grid, n, rank, 1, col_type, iters, skip);
        MPI_Type_free(&col_type);
        const long bad = check_grid(grid, n, rank);
        if (bad != 0) {
            printf("osu_halo: FAIL rank %d n %d: %ld cells wrong after the "
                   "exchanges\n", rank, n, bad);
            fflush(stdout);
            failed = 1;
        }
        if (rank == 0)
            osu_print_row(size, 2, us);
    }
    free(grid);
    MPI_Finalize();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
