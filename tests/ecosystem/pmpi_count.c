/* pmpi_count: a minimal MPI profiling tool (MPI-3.1 §14.2). It defines
 * MPI_Send and MPI_Recv, counts the calls and forwards them to PMPI_Send and
 * PMPI_Recv; MPI_Finalize prints the counts of the rank. Linked before
 * libshmpi (or LD_PRELOADed), its definitions replace shmpi's weak ones. */
#include <mpi.h>
#include <stdio.h>

static long sends, recvs;

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  ++sends;
  return PMPI_Send(buf, count, datatype, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status *status) {
  ++recvs;
  return PMPI_Recv(buf, count, datatype, source, tag, comm, status);
}

int MPI_Finalize(void) {
  int rank = -1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  printf("pmpi_count: rank %d: MPI_Send %ld, MPI_Recv %ld\n", rank, sends, recvs);
  fflush(stdout);
  return PMPI_Finalize();
}
