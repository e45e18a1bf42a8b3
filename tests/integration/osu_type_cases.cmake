# The derived-datatype benchmarks (benchmarks/osu) run briefly: one row per
# size and no FAIL (each checks the received bytes, gaps included, after its
# timed loop). Sizes cross the eager / rendezvous boundary.
if(SHMPI_BUILD_BENCHMARKS)  # the targets are defined later, in benchmarks/osu
  shmpi_case(osu_halo.np2 ARGS
    --count "^[0-9]+ +[0-9.]+ +[0-9.]+$" 7 --match "Row \\(us\\) +Column \\(us\\)"
    --no-match "FAIL" --
    ${SHMPI_RUN} -n 2 $<TARGET_FILE:osu_halo> -m 64:4096 -i 20 -x 2)
  # A column of 8-byte runs (too short for a single copy) above the
  # rendezvous threshold goes pipelined, not as a rendezvous streamed after
  # a round trip; the rows, contiguous, are still read by single copy.
  shmpi_case(osu_halo.short_runs_pipelined ARGS
    --count "^[0-9]+ +[0-9.]+ +[0-9.]+$" 1 --no-match "FAIL"
    --match "^shmpi stats: rendezvous received: single copy [1-9][0-9]* msgs [0-9]+ B; split 0 msgs 0 B; streamed 0 msgs 0 B$"
    --match "^shmpi stats: sent: .*; pipelined [1-9][0-9]* msgs [0-9]+ B; " --
    ${SHMPI_RUN} -n 2 --set rndv_threshold=16384 --set split_threshold=0 --set rndv_route=single_copy --report stats
    $<TARGET_FILE:osu_halo> -m 32768:32768 -i 20 -x 2)
  # Sizes below one element (8 / 16 bytes) are left out of the sweep.
  shmpi_case(osu_latency_vector.np2 ARGS
    --count "^[0-9]+ +[0-9.]+$" 15 --no-match "FAIL" --
    ${SHMPI_RUN} -n 2 $<TARGET_FILE:osu_latency_vector> -m 0:131072 -i 20 -x 2)
  shmpi_case(osu_latency_struct.np2 ARGS
    --count "^[0-9]+ +[0-9.]+$" 14 --no-match "FAIL" --
    ${SHMPI_RUN} -n 2 $<TARGET_FILE:osu_latency_struct> -m 0:131072 -i 20 -x 2)
endif()
