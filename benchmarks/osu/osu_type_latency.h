/* osu_type_latency.h - ping-pong latency of a derived datatype, shared by
 * osu_latency_vector and osu_latency_struct.
 *
 * A program describes its datatype by a shape: the packed bytes of one
 * element and a constructor for n elements. The driver sweeps the sizes of
 * -m like osu_latency (Size = packed bytes; sizes that are not a positive
 * multiple of the element are left out), ping-pongs one item of the type
 * between rank 0 and rank 1 (MPI_Send / MPI_Recv on both sides), and prints
 * the one-way latency in microseconds. After each size's timed loop it
 * checks on both ranks that the received buffer holds the peer's data at
 * the type's bytes and its own filler in the gaps, as MPI_Pack/MPI_Unpack
 * of the same data would leave it; a mismatch prints a line with FAIL and
 * the program exits 1. */
#ifndef SHMPI_OSU_TYPE_LATENCY_H
#define SHMPI_OSU_TYPE_LATENCY_H

#include "osu_common.h"

struct osu_type_shape {
    size_t unit; /* packed bytes of one element */
    /* A committed type of n elements, and the bytes of buffer it spans
     * from offset 0 (lb 0 assumed). */
    MPI_Datatype (*make)(int n, MPI_Aint *span);
};

/* The whole program: MPI_Init .. MPI_Finalize; returns main's status. */
int osu_type_latency_main(int argc, char **argv, const struct osu_spec *spec,
                          const struct osu_type_shape *shape);

#endif
