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
typedef int MPI_Fint; /* a Fortran INTEGER: what MPI_*_c2f give and MPI_*_f2c take */
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
/* What one MPI_Bsend costs in the attached buffer beyond its bytes (its
 * copy's alignment): a buffer of the sum of size + MPI_BSEND_OVERHEAD holds
 * every message it was sized for. */
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
/* C++ types (bool, std::complex<T>), laid out as C's. */
#define MPI_CXX_BOOL ((MPI_Datatype)39)
#define MPI_CXX_FLOAT_COMPLEX ((MPI_Datatype)40)
#define MPI_CXX_DOUBLE_COMPLEX ((MPI_Datatype)41)
#define MPI_CXX_LONG_DOUBLE_COMPLEX ((MPI_Datatype)42)
/* Fortran types, named in C too (for mixed-language programs): INTEGER is
 * an int, REAL a float, DOUBLE PRECISION a double, LOGICAL an int (nonzero
 * is .TRUE.), CHARACTER a char. */
#define MPI_CHARACTER ((MPI_Datatype)43)
#define MPI_LOGICAL ((MPI_Datatype)44)
#define MPI_INTEGER ((MPI_Datatype)45)
#define MPI_REAL ((MPI_Datatype)46)
#define MPI_DOUBLE_PRECISION ((MPI_Datatype)47)
#define MPI_COMPLEX ((MPI_Datatype)48)
#define MPI_DOUBLE_COMPLEX ((MPI_Datatype)49)
#define MPI_INTEGER1 ((MPI_Datatype)50)
#define MPI_INTEGER2 ((MPI_Datatype)51)
#define MPI_INTEGER4 ((MPI_Datatype)52)
#define MPI_INTEGER8 ((MPI_Datatype)53)
#define MPI_REAL4 ((MPI_Datatype)54)
#define MPI_REAL8 ((MPI_Datatype)55)
#define MPI_COMPLEX8 ((MPI_Datatype)56)
#define MPI_COMPLEX16 ((MPI_Datatype)57)
#define MPI_2INTEGER ((MPI_Datatype)58)
#define SHMPI_PREDEFINED_TYPES 59

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
#define MPI_NO_OP ((MPI_Op)14)
/* MPI_Op_create hands out handles from here on. */
#define SHMPI_FIRST_USER_OP ((MPI_Op)32)
typedef void MPI_User_function(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);

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
#define MPI_ERR_KEYVAL 21
#define MPI_ERR_INFO 22
#define MPI_ERR_INFO_KEY 23
#define MPI_ERR_INFO_VALUE 24
#define MPI_ERR_INFO_NOKEY 25
#define MPI_ERR_ERRHANDLER 26
#define MPI_ERR_BASE 27
#define MPI_ERR_UNSUPPORTED_OPERATION 28
#define MPI_ERR_LASTCODE 29 /* MPI_Add_error_class hands out classes above it */

/* ---- comparison results ----------------------------------------------- */
#define MPI_IDENT 0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3

/* ---- groups, communicator kinds, topologies --------------------------- */
#define MPI_GROUP_NULL ((MPI_Group)0)
#define MPI_GROUP_EMPTY ((MPI_Group)1)
#define MPI_COMM_TYPE_SHARED 1
#define MPI_COMM_TYPE_HW_UNGUIDED 2
#define MPI_COMM_TYPE_HW_GUIDED 3
#define MPI_GRAPH 1
#define MPI_CART 2
#define MPI_DIST_GRAPH 3
/* Weight arguments are declared as pointers, not arrays, so that GCC does
 * not warn when these markers are passed. */
#define MPI_UNWEIGHTED ((int *)2)
#define MPI_WEIGHTS_EMPTY ((int *)3)
#define MPI_MAX_OBJECT_NAME 128

/* ---- attributes: predefined keys and callbacks ------------------------ */
#define MPI_KEYVAL_INVALID (-1)
#define MPI_TAG_UB 1
#define MPI_HOST 2
#define MPI_IO 3
#define MPI_WTIME_IS_GLOBAL 4
#define MPI_APPNUM 5
#define MPI_UNIVERSE_SIZE 6
#define MPI_LASTUSEDCODE 7
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval, void *attribute_val,
                                          void *extra_state);
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype, int type_keyval, void *attribute_val,
                                          void *extra_state);
typedef MPI_Comm_copy_attr_function MPI_Copy_function;     /* MPI-1 names */
typedef MPI_Comm_delete_attr_function MPI_Delete_function;
#define MPI_NULL_COPY_FN MPI_COMM_NULL_COPY_FN
#define MPI_NULL_DELETE_FN MPI_COMM_NULL_DELETE_FN
#define MPI_DUP_FN MPI_COMM_DUP_FN

/* ---- info objects ----------------------------------------------------- */
#define MPI_INFO_ENV ((MPI_Info)1)
#define MPI_MAX_INFO_KEY 255
#define MPI_MAX_INFO_VAL 1024

/* ---- user error handlers ---------------------------------------------- */
#define MPI_ERRORS_ABORT ((MPI_Errhandler)3)
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *error_code, ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;

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
/* Handles between C and Fortran: the same numbers in both languages. */
SHMPI_DECLARE(MPI_Fint, Comm_c2f, (MPI_Comm comm))
SHMPI_DECLARE(MPI_Comm, Comm_f2c, (MPI_Fint comm))
SHMPI_DECLARE(MPI_Fint, Type_c2f, (MPI_Datatype datatype))
SHMPI_DECLARE(MPI_Datatype, Type_f2c, (MPI_Fint datatype))
SHMPI_DECLARE(MPI_Fint, Group_c2f, (MPI_Group group))
SHMPI_DECLARE(MPI_Group, Group_f2c, (MPI_Fint group))
SHMPI_DECLARE(MPI_Fint, Request_c2f, (MPI_Request request))
SHMPI_DECLARE(MPI_Request, Request_f2c, (MPI_Fint request))
SHMPI_DECLARE(MPI_Fint, Op_c2f, (MPI_Op op))
SHMPI_DECLARE(MPI_Op, Op_f2c, (MPI_Fint op))
SHMPI_DECLARE(MPI_Fint, Info_c2f, (MPI_Info info))
SHMPI_DECLARE(MPI_Info, Info_f2c, (MPI_Fint info))
SHMPI_DECLARE(MPI_Fint, Errhandler_c2f, (MPI_Errhandler errhandler))
SHMPI_DECLARE(MPI_Errhandler, Errhandler_f2c, (MPI_Fint errhandler))
SHMPI_DECLARE(MPI_Fint, Message_c2f, (MPI_Message message))
SHMPI_DECLARE(MPI_Message, Message_f2c, (MPI_Fint message))
SHMPI_DECLARE(int, Comm_compare, (MPI_Comm comm1, MPI_Comm comm2, int *result))

/* Groups */
SHMPI_DECLARE(int, Comm_group, (MPI_Comm comm, MPI_Group *group))
SHMPI_DECLARE(int, Group_size, (MPI_Group group, int *size))
SHMPI_DECLARE(int, Group_rank, (MPI_Group group, int *rank))
SHMPI_DECLARE(int, Group_translate_ranks, (MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                                           int ranks2[]))
SHMPI_DECLARE(int, Group_compare, (MPI_Group group1, MPI_Group group2, int *result))
SHMPI_DECLARE(int, Group_union, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
SHMPI_DECLARE(int, Group_intersection, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
SHMPI_DECLARE(int, Group_difference, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
SHMPI_DECLARE(int, Group_incl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
SHMPI_DECLARE(int, Group_excl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
SHMPI_DECLARE(int, Group_range_incl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
SHMPI_DECLARE(int, Group_range_excl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
SHMPI_DECLARE(int, Group_free, (MPI_Group *group))

/* Communicator construction, names, hints */
SHMPI_DECLARE(int, Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm))
SHMPI_DECLARE(int, Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm))
SHMPI_DECLARE(int, Comm_split_type, (MPI_Comm comm, int split_type, int key, MPI_Info info,
                                     MPI_Comm *newcomm))
SHMPI_DECLARE(int, Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request))
SHMPI_DECLARE(int, Comm_dup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm))
SHMPI_DECLARE(int, Comm_idup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request))
SHMPI_DECLARE(int, Comm_set_info, (MPI_Comm comm, MPI_Info info))
SHMPI_DECLARE(int, Comm_get_info, (MPI_Comm comm, MPI_Info *info_used))
SHMPI_DECLARE(int, Comm_set_name, (MPI_Comm comm, const char *comm_name))
SHMPI_DECLARE(int, Comm_get_name, (MPI_Comm comm, char *comm_name, int *resultlen))
SHMPI_DECLARE(int, Comm_get_parent, (MPI_Comm *parent))

/* Intercommunicators */
SHMPI_DECLARE(int, Intercomm_create, (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                                      int remote_leader, int tag, MPI_Comm *newintercomm))
SHMPI_DECLARE(int, Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm *newintracomm))
SHMPI_DECLARE(int, Comm_test_inter, (MPI_Comm comm, int *flag))
SHMPI_DECLARE(int, Comm_remote_size, (MPI_Comm comm, int *size))
SHMPI_DECLARE(int, Comm_remote_group, (MPI_Comm comm, MPI_Group *group))

/* Attributes */
SHMPI_DECLARE(int, Comm_create_keyval, (MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                                        MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                                        int *comm_keyval, void *extra_state))
SHMPI_DECLARE(int, Comm_free_keyval, (int *comm_keyval))
SHMPI_DECLARE(int, Comm_set_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val))
SHMPI_DECLARE(int, Comm_get_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag))
SHMPI_DECLARE(int, Comm_delete_attr, (MPI_Comm comm, int comm_keyval))
SHMPI_DECLARE(int, Type_create_keyval, (MPI_Type_copy_attr_function *type_copy_attr_fn,
                                        MPI_Type_delete_attr_function *type_delete_attr_fn,
                                        int *type_keyval, void *extra_state))
SHMPI_DECLARE(int, Type_free_keyval, (int *type_keyval))
SHMPI_DECLARE(int, Type_set_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val))
SHMPI_DECLARE(int, Type_get_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag))
SHMPI_DECLARE(int, Type_delete_attr, (MPI_Datatype datatype, int type_keyval))
/* MPI-1 names of the communicator calls (deprecated, still widely used) */
SHMPI_DECLARE(int, Keyval_create, (MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                                   void *extra_state))
SHMPI_DECLARE(int, Keyval_free, (int *keyval))
SHMPI_DECLARE(int, Attr_put, (MPI_Comm comm, int keyval, void *attribute_val))
SHMPI_DECLARE(int, Attr_get, (MPI_Comm comm, int keyval, void *attribute_val, int *flag))
SHMPI_DECLARE(int, Attr_delete, (MPI_Comm comm, int keyval))
/* The predefined callbacks are functions (MPI-4.1 section 7.7.2) */
SHMPI_DECLARE(int, COMM_NULL_COPY_FN, (MPI_Comm oldcomm, int comm_keyval, void *extra_state,
                                       void *attribute_val_in, void *attribute_val_out, int *flag))
SHMPI_DECLARE(int, COMM_DUP_FN, (MPI_Comm oldcomm, int comm_keyval, void *extra_state,
                                 void *attribute_val_in, void *attribute_val_out, int *flag))
SHMPI_DECLARE(int, COMM_NULL_DELETE_FN, (MPI_Comm comm, int comm_keyval, void *attribute_val,
                                         void *extra_state))
SHMPI_DECLARE(int, TYPE_NULL_COPY_FN, (MPI_Datatype oldtype, int type_keyval, void *extra_state,
                                       void *attribute_val_in, void *attribute_val_out, int *flag))
SHMPI_DECLARE(int, TYPE_DUP_FN, (MPI_Datatype oldtype, int type_keyval, void *extra_state,
                                 void *attribute_val_in, void *attribute_val_out, int *flag))
SHMPI_DECLARE(int, TYPE_NULL_DELETE_FN, (MPI_Datatype datatype, int type_keyval, void *attribute_val,
                                         void *extra_state))

/* Topologies */
SHMPI_DECLARE(int, Dims_create, (int nnodes, int ndims, int dims[]))
SHMPI_DECLARE(int, Cart_create, (MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                                 int reorder, MPI_Comm *comm_cart))
SHMPI_DECLARE(int, Cart_get, (MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]))
SHMPI_DECLARE(int, Cartdim_get, (MPI_Comm comm, int *ndims))
SHMPI_DECLARE(int, Cart_rank, (MPI_Comm comm, const int coords[], int *rank))
SHMPI_DECLARE(int, Cart_coords, (MPI_Comm comm, int rank, int maxdims, int coords[]))
SHMPI_DECLARE(int, Cart_shift, (MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest))
SHMPI_DECLARE(int, Cart_sub, (MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm))
SHMPI_DECLARE(int, Cart_map, (MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank))
SHMPI_DECLARE(int, Topo_test, (MPI_Comm comm, int *status))
SHMPI_DECLARE(int, Graph_create, (MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                                  int reorder, MPI_Comm *comm_graph))
SHMPI_DECLARE(int, Graphdims_get, (MPI_Comm comm, int *nnodes, int *nedges))
SHMPI_DECLARE(int, Graph_get, (MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]))
SHMPI_DECLARE(int, Graph_neighbors_count, (MPI_Comm comm, int rank, int *nneighbors))
SHMPI_DECLARE(int, Graph_neighbors, (MPI_Comm comm, int rank, int maxneighbors, int neighbors[]))
SHMPI_DECLARE(int, Graph_map, (MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank))
SHMPI_DECLARE(int, Dist_graph_create, (MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                       const int destinations[], const int *weights, MPI_Info info,
                                       int reorder, MPI_Comm *comm_dist_graph))
SHMPI_DECLARE(int, Dist_graph_create_adjacent, (MPI_Comm comm_old, int indegree, const int sources[],
                                                const int *sourceweights, int outdegree,
                                                const int destinations[], const int *destweights,
                                                MPI_Info info, int reorder, MPI_Comm *comm_dist_graph))
SHMPI_DECLARE(int, Dist_graph_neighbors_count, (MPI_Comm comm, int *indegree, int *outdegree, int *weighted))
SHMPI_DECLARE(int, Dist_graph_neighbors, (MPI_Comm comm, int maxindegree, int sources[], int *sourceweights,
                                          int maxoutdegree, int destinations[], int *destweights))

/* Info objects */
SHMPI_DECLARE(int, Info_create, (MPI_Info *info))
SHMPI_DECLARE(int, Info_set, (MPI_Info info, const char *key, const char *value))
SHMPI_DECLARE(int, Info_get, (MPI_Info info, const char *key, int valuelen, char *value, int *flag))
SHMPI_DECLARE(int, Info_get_valuelen, (MPI_Info info, const char *key, int *valuelen, int *flag))
SHMPI_DECLARE(int, Info_get_string, (MPI_Info info, const char *key, int *buflen, char *value, int *flag))
SHMPI_DECLARE(int, Info_delete, (MPI_Info info, const char *key))
SHMPI_DECLARE(int, Info_get_nkeys, (MPI_Info info, int *nkeys))
SHMPI_DECLARE(int, Info_get_nthkey, (MPI_Info info, int n, char *key))
SHMPI_DECLARE(int, Info_dup, (MPI_Info info, MPI_Info *newinfo))
SHMPI_DECLARE(int, Info_free, (MPI_Info *info))

/* Memory, user error handlers and error classes */
SHMPI_DECLARE(int, Alloc_mem, (MPI_Aint size, MPI_Info info, void *baseptr))
SHMPI_DECLARE(int, Free_mem, (void *base))
SHMPI_DECLARE(int, Comm_create_errhandler, (MPI_Comm_errhandler_function *comm_errhandler_fn,
                                            MPI_Errhandler *errhandler))
SHMPI_DECLARE(int, Comm_call_errhandler, (MPI_Comm comm, int errorcode))
SHMPI_DECLARE(int, Add_error_class, (int *errorclass))
SHMPI_DECLARE(int, Add_error_code, (int errorclass, int *errorcode))
SHMPI_DECLARE(int, Add_error_string, (int errorcode, const char *string))
SHMPI_DECLARE(int, Remove_error_class, (int errorclass))
SHMPI_DECLARE(int, Remove_error_code, (int errorcode))
SHMPI_DECLARE(int, Remove_error_string, (int errorcode))

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
SHMPI_DECLARE(int, Type_set_name, (MPI_Datatype datatype, const char *type_name))
SHMPI_DECLARE(int, Type_get_name, (MPI_Datatype datatype, char *type_name, int *resultlen))
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
SHMPI_DECLARE(int, Status_set_elements, (MPI_Status *status, MPI_Datatype datatype, int count))
SHMPI_DECLARE(int, Status_set_elements_x, (MPI_Status *status, MPI_Datatype datatype, MPI_Count count))
SHMPI_DECLARE(int, Status_set_cancelled, (MPI_Status *status, int flag))
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
SHMPI_DECLARE(int, Request_get_status, (MPI_Request request, int *flag, MPI_Status *status))

/* Persistent requests (MPI-3.1 3.9) */
SHMPI_DECLARE(int, Send_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Bsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                                MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ssend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                                MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Rsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                                MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Recv_init, (void *buf, int count, MPI_Datatype datatype, int source, int tag,
                               MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Start, (MPI_Request *request))
SHMPI_DECLARE(int, Startall, (int count, MPI_Request array_of_requests[]))

/* Partitioned communication (MPI-4.1 chapter 4) */
SHMPI_DECLARE(int, Psend_init, (const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                                int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Precv_init, (void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                                int source, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Pready, (int partition, MPI_Request request))
SHMPI_DECLARE(int, Pready_range, (int partition_low, int partition_high, MPI_Request request))
SHMPI_DECLARE(int, Pready_list, (int length, const int array_of_partitions[], MPI_Request request))
SHMPI_DECLARE(int, Parrived, (MPI_Request request, int partition, int *flag))

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
SHMPI_DECLARE(int, Gather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
SHMPI_DECLARE(int, Gatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                             MPI_Comm comm))
SHMPI_DECLARE(int, Scatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
SHMPI_DECLARE(int, Scatterv, (const void *sendbuf, const int sendcounts[], const int displs[],
                              MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                              int root, MPI_Comm comm))
SHMPI_DECLARE(int, Allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
SHMPI_DECLARE(int, Allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                MPI_Comm comm))
SHMPI_DECLARE(int, Alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
SHMPI_DECLARE(int, Alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                               MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                               const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
SHMPI_DECLARE(int, Alltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                               const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                               const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
SHMPI_DECLARE(int, Reduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
SHMPI_DECLARE(int, Reduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount,
                                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
SHMPI_DECLARE(int, Scan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm))
SHMPI_DECLARE(int, Exscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm))
SHMPI_DECLARE(int, Reduce_local, (const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype,
                                  MPI_Op op))
SHMPI_DECLARE(int, Op_create, (MPI_User_function *user_fn, int commute, MPI_Op *op))
SHMPI_DECLARE(int, Op_free, (MPI_Op *op))
SHMPI_DECLARE(int, Op_commutative, (MPI_Op op, int *commute))

/* Nonblocking collectives: they complete through MPI_Wait, MPI_Test and the rest. */
SHMPI_DECLARE(int, Ibarrier, (MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ibcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                            MPI_Request *request))
SHMPI_DECLARE(int, Ireduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                             MPI_Op op, int root, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Iallreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                                MPI_Op op, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Igather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                             MPI_Request *request))
SHMPI_DECLARE(int, Igatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                              MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Iscatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                              MPI_Request *request))
SHMPI_DECLARE(int, Iscatterv, (const void *sendbuf, const int sendcounts[], const int displs[],
                               MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                               int root, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Iallgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Iallgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ialltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ialltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request))
SHMPI_DECLARE(int, Ialltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                MPI_Request *request))
SHMPI_DECLARE(int, Ireduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ireduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount,
                                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                           MPI_Request *request))
SHMPI_DECLARE(int, Iscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                           MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Iexscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm, MPI_Request *request))

#undef SHMPI_DECLARE

#ifdef __cplusplus
}
#endif

#endif /* SHMPI_MPI_H */
