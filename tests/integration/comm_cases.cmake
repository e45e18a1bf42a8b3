# Integration cases for groups, communicator construction,
# intercommunicators, attributes, topologies, info objects and user error
# handlers (issue 24); included from CMakeLists.txt, which defines
# shmpi_case and SHMPI_RUN. shmpi_ok_cases comes from runtime_cases.cmake.
foreach(program group_ops topo_ops intercomm_ops intercomm_coll_ops info_ops comm_create comm_idup errhandler_ops)
  add_executable(${program} ${program}.c)
  target_link_libraries(${program} PRIVATE shmpi)
  target_compile_options(${program} PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)
endforeach()

shmpi_ok_cases(group_ops 60 1 2 3 4 8)
shmpi_ok_cases(topo_ops 60 1 2 3 4 8)
shmpi_ok_cases(intercomm_ops 60 2 3 4 8)
shmpi_ok_cases(intercomm_coll_ops 60 2 3 4 8)
shmpi_ok_cases(info_ops 60 1 2 4)
shmpi_ok_cases(comm_create 60 1 2 3 4 8)
shmpi_ok_cases(comm_idup 60 1 2 3 4 8)
shmpi_ok_cases(errhandler_ops 60 1 2 4)

foreach(program attr_ops)
  add_executable(${program} ${program}.c)
  target_link_libraries(${program} PRIVATE shmpi)
  target_compile_options(${program} PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)
endforeach()
# The delete callback on MPI_COMM_SELF runs in MPI_Finalize, once per rank.
foreach(n 1 2 3 4 8)
  set(flags)
  if(n GREATER 2)
    set(flags --oversubscribe)
  endif()
  shmpi_case(attr_ops.np${n} ARGS
    --count "^attr_ops: rank [0-9]+ OK" ${n} --count "^attr_ops: rank [0-9]+ self attribute deleted$" ${n}
    --no-match "FAIL" --
    ${SHMPI_RUN} -n ${n} ${flags} $<TARGET_FILE:attr_ops>)
endforeach()

# Under MPI_ERRORS_ARE_FATAL: one line naming rank, call and reason, and
# the job stops. What shmpi does not provide says so and names the call.
shmpi_case(errhandler_ops.call_fatal ARGS
  --rc-nonzero --count "^shmpi: rank [0-9]+: " 1
  --count "^shmpi: rank 1: MPI_Comm_call_errhandler: error code 16: MPI_ERR_OTHER: other error$" 1
  --no-match "survived" --
  ${SHMPI_RUN} -n 2 $<TARGET_FILE:errhandler_ops> call-fatal)
shmpi_case(errhandler_ops.unsupported ARGS
  --rc-nonzero --match "^shmpi: rank [0-9]+: MPI_Comm_split_type: not supported by shmpi on an intercommunicator \\(communicator [0-9]+\\)$"
  --no-match "survived" --
  ${SHMPI_RUN} -n 2 $<TARGET_FILE:errhandler_ops> inter-split)

# shmpi_info --api lists what mpi.h declares, including this issue's calls.
shmpi_case(shmpi_info.api ARGS
  --match "^MPI_Comm_group$" --match "^MPI_Cart_shift$" --match "^MPI_Intercomm_merge$"
  --match "^MPI_Info_get_string$" --match "^MPI_Comm_create_errhandler$"
  --match "^[0-9]+ MPI functions \\(each also as PMPI_\\)" --no-match "^MPI_Neighbor_|^MPI_Session_" --
  ${SHMPI_INFO} --api)
