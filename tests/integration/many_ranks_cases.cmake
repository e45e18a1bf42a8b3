# Many ranks on one node (issue 23): a 256-rank job on this 2-core machine,
# and shmpirun refusing a job whose segments cannot fit. The memory is faked
# with the test-level tunable test_available_memory, so the cases do not
# depend on this machine's memory.
add_executable(many_ranks many_ranks.c)
target_link_libraries(many_ranks PRIVATE shmpi)
target_compile_options(many_ranks PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)

# 256 ranks (rings quartered to 32 KiB by segment_budget) start, pass a token
# around the ring, exchange 16 bytes between every pair and by
# MPI_Alltoall, and finalize; run_case.sh checks nothing is left behind.
shmpi_case(many_ranks.np256 TIMEOUT 240 LABEL "integration;stress" ARGS
  --count "^many_ranks: rank [0-9]+ OK$" 256 --no-match "FAIL"
  --match "^many_ranks: 256 ranks, 3 ring laps, all pairs and MPI_Alltoall of 16 bytes: OK$" --
  ${SHMPI_RUN} -n 256 --oversubscribe $<TARGET_FILE:many_ranks> 3)
# The same program, small, in every suite.
shmpi_case(many_ranks.np8 ARGS
  --count "^many_ranks: rank [0-9]+ OK$" 8 --no-match "FAIL"
  --match "^many_ranks: 8 ranks, 3 ring laps, all pairs and MPI_Alltoall of 16 bytes: OK$" --
  ${SHMPI_RUN} -n 8 --oversubscribe $<TARGET_FILE:many_ranks> 3)

# A flood: 63 senders on 2 cores send rank 0 100 messages of 1 KiB each,
# which it takes with MPI_ANY_SOURCE receives: every sender is served, in
# its own order. The rings are 4 KiB (--set ring_size alone: the eager
# limit follows it down to 960 bytes, so each message is fragmented).
add_executable(flood flood.c)
target_link_libraries(flood PRIVATE shmpi)
target_compile_options(flood PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)
shmpi_case(many_ranks.flood64 TIMEOUT 240 LABEL "integration;stress" ARGS
  --count "^flood: rank [0-9]+ OK$" 64 --no-match "FAIL"
  --match "^flood: rank 0 took 100 messages of 1024 bytes from each of 63 senders, each in order: OK$"
  --
  ${SHMPI_RUN} -n 64 --oversubscribe --set ring_size=4096 $<TARGET_FILE:flood> 100 1024)
# The same flood with a receiver that may hold 64 KiB of unexpected
# payloads (unexpected_budget): past it the senders send offers only, so
# rank 0 never holds more than the budget plus what was already on its way
# when its backlog flag went up: per sender, the records of one 4 KiB ring
# (at most 4 first records of 1 KiB messages) and the one message it was
# deciding on, each charged 1024 B + one record (at most 256 B):
# 65536 + 63 x 5 x 1280 = 468736 B. Without the budget rank 0 held ~1930
# of the 6300 messages at once (~2.4 MB). Every sender is still served in
# its own order.
shmpi_case(many_ranks.flood64_bounded TIMEOUT 240 LABEL "integration;stress" ARGS
  --count "^flood: rank [0-9]+ OK$" 64 --no-match "FAIL"
  --match "^flood: rank 0 took 100 messages of 1024 bytes from each of 63 senders, each in order: OK$"
  --match "^held_within: [0-9]+ <= 468736: OK$"
  --
  ${CMAKE_CURRENT_SOURCE_DIR}/held_within.sh 468736
  ${SHMPI_RUN} -n 64 --oversubscribe --set ring_size=4096 --set unexpected_budget=64k $<TARGET_FILE:flood> 100 1024)

# An eager limit set by the user that its rings cannot carry: one line from
# shmpirun, before any rank starts (with --set, or from the environment).
shmpi_case(shmpirun.eager_limit_does_not_fit ARGS
  --rc 2 --count "^shmpirun: eager_limit=2048 does not fit a quarter of ring_size=4096 \\(at most 960\\); lower eager_limit or raise ring_size$" 1
  --no-match "OK|MPI_Init" --
  ${SHMPI_RUN} -n 4 --oversubscribe --set ring_size=4096 --set eager_limit=2048 $<TARGET_FILE:many_ranks>)
shmpi_case(shmpirun.eager_limit_env_does_not_fit ARGS
  --rc 2 --count "^shmpirun: eager_limit=8192 does not fit a quarter of ring_size=16384" 1 --no-match "OK|MPI_Init" --
  env SHMPI_EAGER_LIMIT=8192 ${SHMPI_RUN} -n 2 --set ring_size=16k $<TARGET_FILE:many_ranks>)

# 64 ranks of 8462848-byte segments (shmpi_info -n 64): 517 MiB > 64 MiB.
set(does_not_fit_tail "; use fewer ranks or a smaller --set ring_size or segment_budget$")
shmpi_case(shmpirun.job_does_not_fit ARGS
  --rc 2 --count "^shmpirun: 64 ranks need 517 MiB of shared memory for their segments \\(131072-byte rings, ring_size=131072 segment_budget=16777216\\) but only 64 MiB is available \\(test_available_memory\\)${does_not_fit_tail}" 1
  --no-match "OK" --
  ${SHMPI_RUN} -n 64 --oversubscribe --set test_available_memory=64M $<TARGET_FILE:many_ranks>)
# Rings made huge by the tunables: 4 ranks x 4 rings of 64 MiB = 1 GiB.
shmpi_case(shmpirun.huge_rings_do_not_fit ARGS
  --rc 2 --count "^shmpirun: 4 ranks need 1.0 GiB of shared memory for their segments \\(67108864-byte rings, ring_size=67108864 segment_budget=1099511627776\\) but only 512 MiB is available \\(test_available_memory\\)${does_not_fit_tail}" 1
  --no-match "OK" --
  env SHMPI_TEST_AVAILABLE_MEMORY=512M ${SHMPI_RUN} -n 4 --oversubscribe --set ring_size=64M --set segment_budget=1024G
  $<TARGET_FILE:many_ranks>)
# An absurd rank count: even one-page rings need TiBs.
shmpi_case(shmpirun.absurd_rank_count_does_not_fit ARGS
  --rc 2 --count "^shmpirun: 60000 ranks need [0-9.]+ TiB of shared memory for their segments \\(4096-byte rings, ring_size=131072 segment_budget=16777216\\) but only 1.0 TiB is available \\(test_available_memory\\)${does_not_fit_tail}" 1
  --no-match "OK" --
  ${SHMPI_RUN} -n 60000 --oversubscribe --set test_available_memory=1024G $<TARGET_FILE:many_ranks>)
# The same job fits when the memory is there: the check refuses only what
# does not fit.
shmpi_case(shmpirun.job_fits ARGS
  --count "^many_ranks: rank [0-9]+ OK$" 4 --no-match "FAIL" --
  ${SHMPI_RUN} -n 4 --oversubscribe --set test_available_memory=64M $<TARGET_FILE:many_ranks>)
