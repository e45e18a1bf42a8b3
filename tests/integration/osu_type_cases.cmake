# The derived-datatype benchmarks (benchmarks/osu) run briefly: one row per
# size and no FAIL (each checks the received bytes, gaps included, after its
# timed loop). Sizes cross the eager / rendezvous boundary.
if(SHMPI_BUILD_BENCHMARKS)  # the targets are defined later, in benchmarks/osu
  shmpi_case(osu_halo.np2 ARGS
    --count "^[0-9]+ +[0-9.]+ +[0-9.]+$" 7 --match "Row \\(us\\) +Column \\(us\\)"
    --no-match "FAIL" --
    ${SHMPI_RUN} -n 2 $<TARGET_FILE:osu_halo> -m 64:4096 -i 20 -x 2)
  # Sizes below one element (8 / 16 bytes) are left out of the sweep.
  shmpi_case(osu_latency_vector.np2 ARGS
    --count "^[0-9]+ +[0-9.]+$" 15 --no-match "FAIL" --
    ${SHMPI_RUN} -n 2 $<TARGET_FILE:osu_latency_vector> -m 0:131072 -i 20 -x 2)
  shmpi_case(osu_latency_struct.np2 ARGS
    --count "^[0-9]+ +[0-9.]+$" 14 --no-match "FAIL" --
    ${SHMPI_RUN} -n 2 $<TARGET_FILE:osu_latency_struct> -m 0:131072 -i 20 -x 2)
endif()
