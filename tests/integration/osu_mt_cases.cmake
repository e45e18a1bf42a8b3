# The MPI_THREAD_MULTIPLE benchmarks (benchmarks/osu) run briefly: one row
# per size and no FAIL (a refused MPI_THREAD_MULTIPLE fails them). Labels
# "threads" and "integration".
if(SHMPI_BUILD_BENCHMARKS)  # the targets are defined later, in benchmarks/osu
  shmpi_case(osu_latency_mt.np2 LABEL "threads" ARGS
    --count "^[0-9]+ +[0-9.]+$" 14 --match "receiver threads: 3" --no-match "FAIL" --
    ${SHMPI_RUN} -n 2 --oversubscribe $<TARGET_FILE:osu_latency_mt> -m 0:4096 -t 3 -i 40 -x 4)
  shmpi_case(osu_mt_msg_rate.np2 LABEL "threads" ARGS
    --count "^[0-9]+ +[0-9.]+ +[0-9.]+$" 13 --match "threads per rank: 2" --no-match "FAIL" --
    ${SHMPI_RUN} -n 2 $<TARGET_FILE:osu_mt_msg_rate> -m 1:4096 -t 2 -i 4 -x 1 -W 8)
  set_tests_properties(osu_latency_mt.np2 osu_mt_msg_rate.np2 PROPERTIES
    LABELS "threads;integration")
endif()
