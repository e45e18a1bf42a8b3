# Integration cases for groups, communicator construction,
# intercommunicators, attributes, topologies, info objects and user error
# handlers (issue 24); included from CMakeLists.txt, which defines
# shmpi_case and SHMPI_RUN. shmpi_ok_cases comes from runtime_cases.cmake.
foreach(program group_ops topo_ops intercomm_ops)
  add_executable(${program} ${program}.c)
  target_link_libraries(${program} PRIVATE shmpi)
  target_compile_options(${program} PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)
endforeach()

shmpi_ok_cases(group_ops 60 1 2 3 4 8)
shmpi_ok_cases(topo_ops 60 1 2 3 4 8)
shmpi_ok_cases(intercomm_ops 60 2 3 4 8)
