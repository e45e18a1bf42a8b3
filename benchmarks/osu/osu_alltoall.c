/* osu_alltoall - MPI_Alltoall latency (OMB osu_alltoall style; loop in osu_coll.h). */
#include "osu_coll.h"

static const struct osu_spec spec = {"osu_alltoall",
                                     "MPI_Alltoall Latency Test", OSU_KIND_LATENCY, OSU_RANKS_ANY, 0, 0, 0};

static void call(void *sbuf, void *rbuf, size_t size)
{
    MPI_Alltoall(sbuf, (int)size, MPI_CHAR, rbuf, (int)size, MPI_CHAR, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    return osu_coll_main(argc, argv, &spec, call, 1, 1);
}
