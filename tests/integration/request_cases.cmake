# Integration cases for requests: persistent and partitioned communication,
# the MPI_Bsend buffer, and what a rank that calls MPI_Abort leaves behind.
foreach(program abort_flush persistent partitioned partitioned_types)
  add_executable(${program} ${program}.c)
  target_link_libraries(${program} PRIVATE shmpi Threads::Threads)
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

shmpi_ok_cases(persistent 120 1 2 3)
# The same with small eager and rendezvous limits, and with single copy refused.
foreach(setting eager_limit=64 test_cma_eperm=1)
  string(REGEX REPLACE "[=]" "_" suffix ${setting})
  shmpi_case(persistent.${suffix} TIMEOUT 120 ARGS
    --count "^persistent: rank [0-9]+ OK" 2 --no-match "FAIL" --
    ${SHMPI_RUN} -n 2 --set ${setting} $<TARGET_FILE:persistent>)
endforeach()
shmpi_case(persistent.fatal_start ARGS
  --rc-nonzero
  --count "^shmpi: rank 0: MPI_Start: request [0-9]+ is already active: complete it \\(MPI_Wait, MPI_Test, \\.\\.\\.\\) before starting it again$" 1
  --no-match "FAIL" --
  ${SHMPI_RUN} -n 2 $<TARGET_FILE:persistent> fatal_start)

# Partitioned: seeded shuffles of the ready order; also with small eager and
# rendezvous limits and with single copy refused. partitioned_types does the
# same with datatypes that are not contiguous (strided, struct, indexed;
# partitions starting inside the receiver's elements), eager and rendezvous
# sizes: data in place once MPI_Parrived says so, holes untouched.
# partitioned_cases(PROGRAM SEED RANKS...): PROGRAM at each rank count
# (oversubscribed above 2) with seed SEED<n>, then at 2 ranks with each setting.
function(partitioned_cases program seed)
  foreach(n ${ARGN})
    set(flags)
    if(n GREATER 2)
      set(flags --oversubscribe)
    endif()
    shmpi_case(${program}.np${n} TIMEOUT 120 ARGS
      --count "^${program}: rank [0-9]+ OK" ${n} --match "^${program}: seed ${seed}[0-9]$" --no-match "FAIL" --
      ${SHMPI_RUN} -n ${n} ${flags} $<TARGET_FILE:${program}> ${seed}${n})
  endforeach()
  foreach(setting eager_limit=64 test_cma_eperm=1)
    string(REGEX REPLACE "[=]" "_" suffix ${setting})
    shmpi_case(${program}.${suffix} TIMEOUT 120 ARGS
      --count "^${program}: rank [0-9]+ OK" 2 --no-match "FAIL" --
      ${SHMPI_RUN} -n 2 --set ${setting} $<TARGET_FILE:${program}> 7)
  endforeach()
endfunction()
partitioned_cases(partitioned 1 1 2 3)
partitioned_cases(partitioned_types 2 2 3)
shmpi_case(partitioned.fatal_pready ARGS
  --rc-nonzero
  --count "^shmpi: rank 0: MPI_Pready: partition 2 out of range: request [0-9]+ has 2 \\(0 to 1\\)$" 1
  --no-match "FAIL" --
  ${SHMPI_RUN} -n 2 $<TARGET_FILE:partitioned> fatal_pready)

# The request benchmarks run and print one row per size with both columns.
if(SHMPI_BUILD_BENCHMARKS)  # the targets are defined later, in benchmarks/osu
  shmpi_case(osu_latency_persistent ARGS
    --count "^[0-9]+ +[0-9.]+ +[0-9.]+$" 14 --match "Nonblocking \\(us\\) +Persistent \\(us\\)" --
    ${SHMPI_RUN} -n 2 $<TARGET_FILE:osu_latency_persistent> -m 0:4096 -i 50 -x 5)
  shmpi_case(osu_bw_persistent ARGS
    --count "^[0-9]+ +[0-9.]+ +[0-9.]+$" 17 --match "Nonblocking \\(MB/s\\) +Persistent \\(MB/s\\)" --
    ${SHMPI_RUN} -n 2 $<TARGET_FILE:osu_bw_persistent> -m 1:65536 -i 3 -x 1 -W 8)
  shmpi_case(osu_partitioned ARGS
    --count "^[0-9]+ +[0-9.]+ +[0-9.]+$" 16 --match "One message \\(us\\) +Partitioned \\(us\\)" --
    ${SHMPI_RUN} -n 2 $<TARGET_FILE:osu_partitioned> -m 0:262144 -i 20 -x 2)
endif()
