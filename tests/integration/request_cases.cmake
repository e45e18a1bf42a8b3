# Integration cases for requests: persistent and partitioned communication,
# the MPI_Bsend buffer, and what a rank that calls MPI_Abort leaves behind.
foreach(program abort_flush)
  add_executable(${program} ${program}.c)
  target_link_libraries(${program} PRIVATE shmpi)
  target_compile_options(${program} PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)
endforeach()

# What rank 1 printed without flushing before MPI_Abort reaches the user.
shmpi_case(abort_flush.np3 ARGS
  --rc 7
  --count "^abort_flush: rank 1 aborts: input file has 3 columns, expected 4$" 1
  --match "abort_flush: rank 1 last words"
  --match "rank 1 .*MPI_Abort.* 7"
  --no-match "FAIL" --
  ${SHMPI_RUN} -n 3 --oversubscribe $<TARGET_FILE:abort_flush>)
