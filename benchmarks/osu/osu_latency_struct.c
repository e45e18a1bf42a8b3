/* osu_latency_struct - ping-pong latency of an array of structs with gaps:
 * n x struct { char tag[4]; double value; int id; } described by
 * MPI_Type_create_struct (4 bytes of padding after tag and after id, so
 * 16 of every 24 bytes move). Size = packed bytes (16 n). See
 * osu_type_latency.h. */
#include "osu_type_latency.h"

#include <stddef.h>

static const struct osu_spec spec = {
    "osu_latency_struct", "MPI Struct Datatype Latency Test",
    OSU_KIND_LATENCY, OSU_RANKS_TWO, 0, 0, 0};

struct record {
    char tag[4];
    double value;
    int id;
};

static MPI_Datatype make_struct(int n, MPI_Aint *span)
{
    const int lengths[3] = {4, 1, 1};
    const MPI_Aint displs[3] = {offsetof(struct record, tag),
                                offsetof(struct record, value),
                                offsetof(struct record, id)};
    const MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
    MPI_Datatype fields, one, t;
    MPI_Aint lb;
    MPI_Type_create_struct(3, lengths, displs, types, &fields);
    MPI_Type_create_resized(fields, 0, sizeof(struct record), &one);
    MPI_Type_contiguous(n, one, &t);
    MPI_Type_commit(&t);
    MPI_Type_free(&fields);
    MPI_Type_free(&one);
    MPI_Type_get_extent(t, &lb, span);
    return t;
}

int main(int argc, char **argv)
{
    const struct osu_type_shape shape = {16, make_struct};
    return osu_type_latency_main(argc, argv, &spec, &shape);
}
