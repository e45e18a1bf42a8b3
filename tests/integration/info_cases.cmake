# shmpi_info, and a job with many more ranks than cores.
set(SHMPI_INFO $<TARGET_FILE:shmpi_info>)
# Footprint with 64 ranks: 64 rings of 64 KiB + segment header, doorbell,
# 64 ring controls and 64 fast boxes (8 candidate cache lines each).
shmpi_case(shmpi_info.lists_tunables ARGS
  --count "^(eager_limit|ring_size|max_fragment|rndv_threshold|split_threshold|pingpong_limit|claim_ahead_from|claim_ahead_limit|single_copy|rndv_route|numa_policy|wait_policy|fast_box|box_probe|poll_gap_ns|test_cma_eperm) " 16
  --match "shared memory per rank with 64 ranks: 4231296 bytes" --
  ${SHMPI_INFO} -n 64)
shmpi_case(shmpi_info.current_value ARGS
  --match "^eager_limit +(8192|2048) +16k " --
  env SHMPI_EAGER_LIMIT=16k ${SHMPI_INFO})
shmpi_case(shmpi_info.invalid_value ARGS
  --rc 1 --count "^shmpi_info: invalid SHMPI_RING_SIZE: ring_size=5000: must be a power of two$" 1 --
  env SHMPI_RING_SIZE=5000 ${SHMPI_INFO})
shmpi_case(shmpi_info.bad_argument ARGS
  --rc 2 --match "^shmpi_info: unknown argument --bogus$" --
  ${SHMPI_INFO} --bogus)

# 64 ranks on this 2-core machine start, exchange all-to-all and finish.
shmpi_case(all_pairs.np64 TIMEOUT 240 LABEL "integration;stress" ARGS
  --match "all_pairs: 64 ranks, [0-9]+ sizes up to 1024 bytes: OK" --
  ${SHMPI_RUN} -n 64 --oversubscribe $<TARGET_FILE:all_pairs> 1024)

# A long wait gives up the core: yield at once then sleep on the doorbell
# (wait_policy=yield), or spin, yield, then sleep (auto). The peer sends
# only once the waiting rank sleeps (a spinning one would time out).
add_executable(wait_sleeps wait_sleeps.c)
target_link_libraries(wait_sleeps PRIVATE shmpi)
target_compile_options(wait_sleeps PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)
foreach(policy yield auto)
  shmpi_case(wait_sleeps.${policy} ARGS
    --count "^wait_sleeps: rank [0-9]+ OK" 2 --match "^wait_sleeps: rank 0 sleeps in MPI_Recv$" --no-match "FAIL" --
    ${SHMPI_RUN} -n 2 --set wait_policy=${policy} $<TARGET_FILE:wait_sleeps>)
endforeach()
