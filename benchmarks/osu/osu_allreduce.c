/* osu_allreduce - MPI_Allreduce latency (OMB osu_allreduce style; loop in osu_coll.h). */
#include "osu_coll.h"

static const struct osu_spec spec = {"osu_allreduce",
                                     "MPI_Allreduce Latency Test", OSU_KIND_LATENCY, OSU_RANKS_ANY, 0, 0, 0};

static void call(void *sbuf, void *rbuf, size_t size)
{
    MPI_Allreduce(sbuf, rbuf, (int)(size / sizeof(float)), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    return osu_coll_main(argc, argv, &spec, call, 4, 0);
}
