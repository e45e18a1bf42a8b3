/* shmpi: MPI-3.1 C bindings for the point-to-point subset shmpi provides.
 *
 * Handles are plain integers (as in MPICH), so they can be compared, stored
 * and passed by value exactly as the standard allows. Every MPI_ function
 * has a PMPI_ twin for profiling tools. */
#ifndef SHMPI_MPI_H
#define SHMPI_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SHMPI 1
#define MPI_VERSION 3
#define MPI_SUBVERSION 1

/* ---- handles ---------------------------------------------------------- */
typedef int MPI_Comm;
typedef int MPI_Datatype;
typedef int MPI_Op;
typedef int MPI_Request;
typedef int MPI_Errhandler;
typedef int MPI_Group;
typedef int MPI_Message;
typedef int MPI_Info;
typedef ptrdiff_t MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;

typedef struct MPI_Status {
  int MPI_SOURCE;
  int MPI_TAG;
  int MPI_ERROR;
  int shmpi_count_lo;   /* bytes received, low 31 bits  */
  int shmpi_count_hi;   /* bytes received, high bits    */
  int shmpi_cancelled;
} MPI_Status;

#define MPI_STATUS_IGNORE ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)

/* ---- communicators ---------------------------------------------------- */
#define MPI_COMM_NULL ((MPI_Comm)0)
#define MPI_COMM_WORLD ((MPI_Comm)1)
#define MPI_COMM_SELF ((MPI_Comm)2)

/* ---- special values --------------------------------------------------- */
#define MPI_ANY_SOURCE (-1)
#define MPI_ANY_TAG (-1)
#define MPI_PROC_NULL (-2)
#define MPI_ROOT (-3)
#define MPI_UNDEFINED (-32766)
#define MPI_TAG_UB_VALUE 0x7fffffff
#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_MAX_ERROR_STRING 256
#define MPI_MAX_LIBRARY_VERSION_STRING 256
#define MPI_REQUEST_NULL ((MPI_Request)0)
#define MPI_MESSAGE_NULL ((MPI_Message)0)
#define MPI_MESSAGE_NO_PROC ((MPI_Message)-1)
#define MPI_BSEND_OVERHEAD 64
#define MPI_INFO_NULL ((MPI_Info)0)
#define MPI_BOTTOM ((void *)0)
#define MPI_IN_PLACE ((void *)1)

/* ---- thread levels ---------------------------------------------------- */
#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

/* ---- datatypes (values index shmpi's datatype table) ------------------ */
#define MPI_DATATYPE_NULL ((MPI_Datatype)0)
#define MPI_CHAR ((MPI_Datatype)1)
#define MPI_SIGNED_CHAR ((MPI_Datatype)2)
#define MPI_UNSIGNED_CHAR ((MPI_Datatype)3)
#define MPI_BYTE ((MPI_Datatype)4)
#define MPI_WCHAR ((MPI_Datatype)5)
#define MPI_SHORT ((MPI_Datatype)6)
#define MPI_UNSIGNED_SHORT ((MPI_Datatype)7)
#define MPI_INT ((MPI_Datatype)8)
#define MPI_UNSIGNED ((MPI_Datatype)9)
#define MPI_LONG ((MPI_Datatype)10)
#define MPI_UNSIGNED_LONG ((MPI_Datatype)11)
#define MPI_LONG_LONG_INT ((MPI_Datatype)12)
#define MPI_LONG_LONG MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG ((MPI_Datatype)13)
#define MPI_FLOAT ((MPI_Datatype)14)
#define MPI_DOUBLE ((MPI_Datatype)15)
#define MPI_LONG_DOUBLE ((MPI_Datatype)16)
#define MPI_INT8_T ((MPI_Datatype)17)
#define MPI_INT16_T ((MPI_Datatype)18)
#define MPI_INT32_T ((MPI_Datatype)19)
#define MPI_INT64_T ((MPI_Datatype)20)
#define MPI_UINT8_T ((MPI_Datatype)21)
#define MPI_UINT16_T ((MPI_Datatype)22)
#define MPI_UINT32_T ((MPI_Datatype)23)
#define MPI_UINT64_T ((MPI_Datatype)24)
#define MPI_C_BOOL ((MPI_Datatype)25)
#define MPI_AINT ((MPI_Datatype)26)
#define MPI_OFFSET ((MPI_Datatype)27)
#define MPI_COUNT ((MPI_Datatype)28)
#define MPI_C_FLOAT_COMPLEX ((MPI_Datatype)29)
#define MPI_C_COMPLEX MPI_C_FLOAT_COMPLEX
#define MPI_C_DOUBLE_COMPLEX ((MPI_Datatype)30)
#define MPI_C_LONG_DOUBLE_COMPLEX ((MPI_Datatype)31)
#define MPI_PACKED ((MPI_Datatype)32)
#define MPI_FLOAT_INT ((MPI_Datatype)33)
#define MPI_DOUBLE_INT ((MPI_Datatype)34)
#define MPI_LONG_INT ((MPI_Datatype)35)
#define MPI_2INT ((MPI_Datatype)36)
#define MPI_SHORT_INT ((MPI_Datatype)37)
#define MPI_LONG_DOUBLE_INT ((MPI_Datatype)38)
#define SHMPI_PREDEFINED_TYPES 39

/* ---- datatype constructors (MPI_Type_get_envelope, subarray, darray) ---- */
#define MPI_COMBINER_NAMED 1
#define MPI_COMBINER_DUP 2
#define MPI_COMBINER_CONTIGUOUS 3
#define MPI_COMBINER_VECTOR 4
#define MPI_COMBINER_HVECTOR 5
#define MPI_COMBINER_INDEXED 6
#define MPI_COMBINER_HINDEXED 7
#define MPI_COMBINER_INDEXED_BLOCK 8
#define MPI_COMBINER_HINDEXED_BLOCK 9
#define MPI_COMBINER_STRUCT 10
#define MPI_COMBINER_SUBARRAY 11
#define MPI_COMBINER_DARRAY 12
#define MPI_COMBINER_RESIZED 13
#define MPI_ORDER_C 56
#define MPI_ORDER_FORTRAN 57
#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)
#define MPI_TYPECLASS_INTEGER 1
#define MPI_TYPECLASS_REAL 2
#define MPI_TYPECLASS_COMPLEX 3

/* ---- reduction operations --------------------------------------------- */
#define MPI_OP_NULL ((MPI_Op)0)
#define MPI_MAX ((MPI_Op)1)
#define MPI_MIN ((MPI_Op)2)
#define MPI_SUM ((MPI_Op)3)
#define MPI_PROD ((MPI_Op)4)
#define MPI_LAND ((MPI_Op)5)
#define MPI_BAND ((MPI_Op)6)
#define MPI_LOR ((MPI_Op)7)
#define MPI_BOR ((MPI_Op)8)
#define MPI_LXOR ((MPI_Op)9)
#define MPI_BXOR ((MPI_Op)10)
#define MPI_MAXLOC ((MPI_Op)11)
#define MPI_MINLOC ((MPI_Op)12)
#define MPI_REPLACE ((MPI_Op)13)

/* ---- error handlers --------------------------------------------------- */
#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0)
#define MPI_ERRORS_ARE_FATAL ((MPI_Errhandler)1)
#define MPI_ERRORS_RETURN ((MPI_Errhandler)2)

/* ---- error classes ---------------------------------------------------- */
#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_REQUEST 7
#define MPI_ERR_ROOT 8
#define MPI_ERR_GROUP 9
#define MPI_ERR_OP 10
#define MPI_ERR_TOPOLOGY 11
#define MPI_ERR_DIMS 12
#define MPI_ERR_ARG 13
#define MPI_ERR_UNKNOWN 14
#define MPI_ERR_TRUNCATE 15
#define MPI_ERR_OTHER 16
#define MPI_ERR_INTERN 17
#define MPI_ERR_IN_STATUS 18
#define MPI_ERR_PENDING 19
#define MPI_ERR_NO_MEM 20
#define MPI_ERR_LASTCODE 21

/* ---- comparison results ----------------------------------------------- */
#define MPI_IDENT 0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3

/* ---- functions -------------------------------------------------------- */
/* libshmpi.so is built with hidden visibility; exactly these are exported. */
#if defined(__GNUC__)
#define SHMPI_API __attribute__((visibility("default")))
#else
#define SHMPI_API
#endif
#define SHMPI_DECLARE(ret, name, args) SHMPI_API ret MPI_##name args; SHMPI_API ret PMPI_##name args;

/* Environment */
SHMPI_DECLARE(int, Init, (int *argc, char ***argv))
SHMPI_DECLARE(int, Init_thread, (int *argc, char ***argv, int required, int *provided))
SHMPI_DECLARE(int, Finalize, (void))
SHMPI_DECLARE(int, Initialized, (int *flag))
SHMPI_DECLARE(int, Finalized, (int *flag))
SHMPI_DECLARE(int, Query_thread, (int *provided))
SHMPI_DECLARE(int, Is_thread_main, (int *flag))
SHMPI_DECLARE(int, Abort, (MPI_Comm comm, int errorcode))
SHMPI_DECLARE(int, Get_processor_name, (char *name, int *resultlen))
SHMPI_DECLARE(int, Get_version, (int *version, int *subversion))
SHMPI_DECLARE(int, Get_library_version, (char *version, int *resultlen))
SHMPI_DECLARE(double, Wtime, (void))
SHMPI_DECLARE(double, Wtick, (void))

/* Errors */
SHMPI_DECLARE(int, Error_string, (int errorcode, char *string, int *resultlen))
SHMPI_DECLARE(int, Error_class, (int errorcode, int *errorclass))
SHMPI_DECLARE(int, Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler))
SHMPI_DECLARE(int, Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler *errhandler))
SHMPI_DECLARE(int, Errhandler_free, (MPI_Errhandler *errhandler))

/* Communicators */
SHMPI_DECLARE(int, Comm_rank, (MPI_Comm comm, int *rank))
SHMPI_DECLARE(int, Comm_size, (MPI_Comm comm, int *size))
SHMPI_DECLARE(int, Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm))
SHMPI_DECLARE(int, Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm))
SHMPI_DECLARE(int, Comm_free, (MPI_Comm *comm))
SHMPI_DECLARE(int, Comm_compare, (MPI_Comm comm1, MPI_Comm comm2, int *result))

/* Datatypes */
SHMPI_DECLARE(int, Type_size, (MPI_Datatype datatype, int *size))
SHMPI_DECLARE(int, Type_size_x, (MPI_Datatype datatype, MPI_Count *size))
SHMPI_DECLARE(int, Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_vector, (int count, int blocklength, int stride, MPI_Datatype oldtype,
                                 MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_hvector, (int count, int blocklength, MPI_Aint stride,
                                         MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_indexed, (int count, const int array_of_blocklengths[],
                                  const int array_of_displacements[], MPI_Datatype oldtype,
                                  MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_hindexed, (int count, const int array_of_blocklengths[],
                                          const MPI_Aint array_of_displacements[],
                                          MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_indexed_block, (int count, int blocklength,
                                               const int array_of_displacements[],
                                               MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_hindexed_block, (int count, int blocklength,
                                                const MPI_Aint array_of_displacements[],
                                                MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_struct, (int count, const int array_of_blocklengths[],
                                        const MPI_Aint array_of_displacements[],
                                        const MPI_Datatype array_of_types[], MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_subarray, (int ndims, const int array_of_sizes[],
                                          const int array_of_subsizes[], const int array_of_starts[],
                                          int order, MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_darray, (int size, int rank, int ndims, const int array_of_gsizes[],
                                        const int array_of_distribs[], const int array_of_dargs[],
                                        const int array_of_psizes[], int order, MPI_Datatype oldtype,
                                        MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_resized, (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                                         MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_dup, (MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_commit, (MPI_Datatype *datatype))
SHMPI_DECLARE(int, Type_free, (MPI_Datatype *datatype))
SHMPI_DECLARE(int, Type_get_extent, (MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent))
SHMPI_DECLARE(int, Type_get_extent_x, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent))
SHMPI_DECLARE(int, Type_get_true_extent, (MPI_Datatype datatype, MPI_Aint *true_lb,
                                          MPI_Aint *true_extent))
SHMPI_DECLARE(int, Type_get_true_extent_x, (MPI_Datatype datatype, MPI_Count *true_lb,
                                            MPI_Count *true_extent))
SHMPI_DECLARE(int, Type_get_envelope, (MPI_Datatype datatype, int *num_integers, int *num_addresses,
                                       int *num_datatypes, int *combiner))
SHMPI_DECLARE(int, Type_get_contents, (MPI_Datatype datatype, int max_integers, int max_addresses,
                                       int max_datatypes, int array_of_integers[],
                                       MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]))
SHMPI_DECLARE(int, Type_match_size, (int typeclass, int size, MPI_Datatype *datatype))
SHMPI_DECLARE(int, Get_elements, (const MPI_Status *status, MPI_Datatype datatype, int *count))
SHMPI_DECLARE(int, Get_elements_x, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count))
SHMPI_DECLARE(int, Pack, (const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf,
                          int outsize, int *position, MPI_Comm comm))
SHMPI_DECLARE(int, Unpack, (const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                            MPI_Datatype datatype, MPI_Comm comm))
SHMPI_DECLARE(int, Pack_size, (int incount, MPI_Datatype datatype, MPI_Comm comm, int *size))
SHMPI_DECLARE(int, Pack_external, (const char datarep[], const void *inbuf, int incount,
                                   MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
                                   MPI_Aint *position))
SHMPI_DECLARE(int, Unpack_external, (const char datarep[], const void *inbuf, MPI_Aint insize,
                                     MPI_Aint *position, void *outbuf, int outcount,
                                     MPI_Datatype datatype))
SHMPI_DECLARE(int, Pack_external_size, (const char datarep[], int incount, MPI_Datatype datatype,
                                        MPI_Aint *size))
SHMPI_DECLARE(int, Get_address, (const void *location, MPI_Aint *address))
SHMPI_DECLARE(MPI_Aint, Aint_add, (MPI_Aint base, MPI_Aint disp))
SHMPI_DECLARE(MPI_Aint, Aint_diff, (MPI_Aint addr1, MPI_Aint addr2))

/* Blocking point-to-point */
SHMPI_DECLARE(int, Send, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                          MPI_Comm comm))
SHMPI_DECLARE(int, Ssend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm))
SHMPI_DECLARE(int, Rsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm))
SHMPI_DECLARE(int, Bsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm))
SHMPI_DECLARE(int, Buffer_attach, (void *buffer, int size))
SHMPI_DECLARE(int, Buffer_detach, (void *buffer_addr, int *size))
SHMPI_DECLARE(int, Recv, (void *buf, int count, MPI_Datatype datatype, int source, int tag,
                          MPI_Comm comm, MPI_Status *status))
SHMPI_DECLARE(int, Sendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                              int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                              int source, int recvtag, MPI_Comm comm, MPI_Status *status))
SHMPI_DECLARE(int, Sendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest,
                                      int sendtag, int source, int recvtag, MPI_Comm comm,
                                      MPI_Status *status))
SHMPI_DECLARE(int, Get_count, (const MPI_Status *status, MPI_Datatype datatype, int *count))

/* Nonblocking point-to-point and completion */
SHMPI_DECLARE(int, Isend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Issend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Irsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ibsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Irecv, (void *buf, int count, MPI_Datatype datatype, int source, int tag,
                           MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Wait, (MPI_Request *request, MPI_Status *status))
SHMPI_DECLARE(int, Waitall, (int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]))
SHMPI_DECLARE(int, Waitany, (int count, MPI_Request array_of_requests[], int *index, MPI_Status *status))
SHMPI_DECLARE(int, Waitsome, (int incount, MPI_Request array_of_requests[], int *outcount,
                              int array_of_indices[], MPI_Status array_of_statuses[]))
SHMPI_DECLARE(int, Test, (MPI_Request *request, int *flag, MPI_Status *status))
SHMPI_DECLARE(int, Testall, (int count, MPI_Request array_of_requests[], int *flag,
                             MPI_Status array_of_statuses[]))
SHMPI_DECLARE(int, Testany, (int count, MPI_Request array_of_requests[], int *index, int *flag,
                             MPI_Status *status))
SHMPI_DECLARE(int, Testsome, (int incount, MPI_Request array_of_requests[], int *outcount,
                              int array_of_indices[], MPI_Status array_of_statuses[]))
SHMPI_DECLARE(int, Request_free, (MPI_Request *request))
SHMPI_DECLARE(int, Cancel, (MPI_Request *request))
SHMPI_DECLARE(int, Test_cancelled, (const MPI_Status *status, int *flag))

/* Probe */
SHMPI_DECLARE(int, Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status))
SHMPI_DECLARE(int, Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status))
SHMPI_DECLARE(int, Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message *message,
                            MPI_Status *status))
SHMPI_DECLARE(int, Improbe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                             MPI_Status *status))
SHMPI_DECLARE(int, Mrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                           MPI_Status *status))
SHMPI_DECLARE(int, Imrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                            MPI_Request *request))

/* Collectives */
SHMPI_DECLARE(int, Barrier, (MPI_Comm comm))
SHMPI_DECLARE(int, Bcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm))
SHMPI_DECLARE(int, Reduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, int root, MPI_Comm comm))
SHMPI_DECLARE(int, Allreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                               MPI_Op op, MPI_Comm comm))

#undef SHMPI_DECLARE

#ifdef __cplusplus
}
#endif

#endif /* SHMPI_MPI_H */
