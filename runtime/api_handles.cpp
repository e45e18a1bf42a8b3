// MPI entry points: handles between C and Fortran (MPI_*_c2f, MPI_*_f2c).
// Every shmpi handle is an int, so a Fortran INTEGER (MPI_Fint) holds the
// same number; libraries that bridge to Fortran (and their configure
// checks) call these. Conversion needs no MPI state: valid before MPI_Init.
#include "runtime/api.hpp"

#define SHMPI_HANDLE_CONVERSIONS(Kind, CType)                                                   \
  extern "C" MPI_Fint PMPI_##Kind##_c2f(CType handle) { return static_cast<MPI_Fint>(handle); } \
  extern "C" CType PMPI_##Kind##_f2c(MPI_Fint handle) { return static_cast<CType>(handle); }    \
  SHMPI_PMPI_ALIAS(Kind##_c2f)                                                                  \
  SHMPI_PMPI_ALIAS(Kind##_f2c)

SHMPI_HANDLE_CONVERSIONS(Comm, MPI_Comm)
SHMPI_HANDLE_CONVERSIONS(Type, MPI_Datatype)
SHMPI_HANDLE_CONVERSIONS(Group, MPI_Group)
SHMPI_HANDLE_CONVERSIONS(Request, MPI_Request)
SHMPI_HANDLE_CONVERSIONS(Op, MPI_Op)
SHMPI_HANDLE_CONVERSIONS(Info, MPI_Info)
SHMPI_HANDLE_CONVERSIONS(Errhandler, MPI_Errhandler)
SHMPI_HANDLE_CONVERSIONS(Message, MPI_Message)

#undef SHMPI_HANDLE_CONVERSIONS
