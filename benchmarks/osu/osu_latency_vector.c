/* osu_latency_vector - ping-pong latency of a strided column: n doubles,
 * every other double of the buffer (MPI_Type_vector(n, 1, 2, MPI_DOUBLE)).
 * Size = packed bytes (8 n). See osu_type_latency.h. */
#include "osu_type_latency.h"

static const struct osu_spec spec = {
    "osu_latency_vector", "MPI Vector Datatype Latency Test",
    OSU_KIND_LATENCY, OSU_RANKS_TWO, 0, 0, 0};

static MPI_Datatype make_vector(int n, MPI_Aint *span)
{
    MPI_Datatype t;
    MPI_Aint lb;
    MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    MPI_Type_get_extent(t, &lb, span);
    return t;
}

int main(int argc, char **argv)
{
    const struct osu_type_shape shape = {sizeof(double), make_vector};
    return osu_type_latency_main(argc, argv, &spec, &shape);
}
