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
  # A one-thread program started at MPI_THREAD_MULTIPLE (-L multiple: what
  # the level costs it, compare.py's latency@multiple); a bad level refused.
  shmpi_case(osu_latency.multiple ARGS
    --count "^[0-9]+ +[0-9.]+$" 8 --match "^# \\[ thread level: MPI_THREAD_MULTIPLE, one thread \\]$"
    --no-match "FAIL|not granted" --
    ${SHMPI_RUN} -n 2 $<TARGET_FILE:osu_latency> -m 0:64 -i 20 -x 2 -L multiple)
  shmpi_case(osu_latency.bad_level ARGS
    --rc-nonzero --match "^osu_latency: -L must be single or multiple, got 'often'$" --
    ${SHMPI_RUN} -n 2 $<TARGET_FILE:osu_latency> -L often)
  # Probe+Recv and Mprobe+Mrecv at MPI_THREAD_MULTIPLE across the eager,
  # pipelined and rendezvous sizes; a probed count other than the sent one
  # aborts the run.
  shmpi_case(osu_latency_mprobe.multiple ARGS
    --count "^[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$" 18
    --match "Recv \\(us\\) +Probe\\+Recv \\(us\\) +Mprobe\\+Mrecv \\(us\\)"
    --match "^# \\[ thread level: MPI_THREAD_MULTIPLE, one thread \\]$" --no-match "FAIL|not granted" --
    ${SHMPI_RUN} -n 2 $<TARGET_FILE:osu_latency_mprobe> -m 0:65536 -i 20 -x 2 -L multiple)
  set_tests_properties(osu_latency_mt.np2 osu_mt_msg_rate.np2 osu_latency.multiple
    osu_latency_mprobe.multiple PROPERTIES
    LABELS "threads;integration")
endif()
