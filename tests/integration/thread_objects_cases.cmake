# Integration cases for MPI_THREAD_MULTIPLE beyond thread_cases.cmake:
# communicators made concurrently from several threads, and handle tables
# growing while other threads wait (included from CMakeLists.txt; label
# "threads", so the tsan preset runs them too).
foreach(program thread_comm_create thread_tables)
  add_executable(${program} ${program}.c)
  target_link_libraries(${program} PRIVATE shmpi Threads::Threads)
  target_compile_options(${program} PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)
endforeach()

# Every way of making a communicator, 4 threads per rank on their own parents.
shmpi_case(thread_comm_create.np4 TIMEOUT 120 LABEL "integration;threads" ARGS
  --count "^thread_comm_create: rank [0-9]+ OK$" 4 --no-match "FAIL" --
  ${SHMPI_RUN} -n 4 --oversubscribe $<TARGET_FILE:thread_comm_create> 2)
# Types, communicators, groups, infos, keyvals, ops, requests made by one
# thread while three others wait in receives.
shmpi_case(thread_tables.np2 TIMEOUT 120 LABEL "integration;threads" ARGS
  --count "^thread_tables: rank [0-9]+ OK$" 2 --no-match "FAIL" --
  ${SHMPI_RUN} -n 2 $<TARGET_FILE:thread_tables> 1)
