# Integration cases for the collectives (runtime/coll_*.cpp, schedule.cpp):
# every collective, blocking and nonblocking, against a local reference
# (included from CMakeLists.txt, after runtime_cases.cmake, which defines
# shmpi_ok_cases).
add_executable(coll_reference coll_reference.c)
target_link_libraries(coll_reference PRIVATE shmpi)
target_compile_options(coll_reference PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)

shmpi_ok_cases(coll_reference 300 1 2 3 4 5 8)

# More ranks than the one-round allgather takes (runtime/coll_gather.cpp):
# recursive doubling at 16, Bruck and the ring at 12.
foreach(n 12 16)
  shmpi_case(coll_reference.np${n} TIMEOUT 300 ARGS
    --count "^coll_reference: rank [0-9]+ OK" ${n} --no-match "FAIL" --
    ${SHMPI_RUN} -n ${n} --oversubscribe $<TARGET_FILE:coll_reference> 150)
endforeach()

# Other seeds at the sizes that are not powers of two (about half of all
# cases take a datatype with gaps, coll_ref_data.h).
foreach(seed 7 99)
  shmpi_case(coll_reference.np6.seed${seed} TIMEOUT 300 ARGS
    --count "^coll_reference: rank [0-9]+ OK" 6 --no-match "FAIL" --
    ${SHMPI_RUN} -n 6 --oversubscribe $<TARGET_FILE:coll_reference> 200 ${seed})
endforeach()

# More draws of datatypes with gaps, at a power of two and with the odd rank.
foreach(seed 3 5)
  shmpi_case(coll_reference.np4.seed${seed} TIMEOUT 300 ARGS
    --count "^coll_reference: rank [0-9]+ OK" 4 --no-match "FAIL" --
    ${SHMPI_RUN} -n 4 --oversubscribe $<TARGET_FILE:coll_reference> 300 ${seed})
  shmpi_case(coll_reference.np3.seed${seed} TIMEOUT 300 ARGS
    --count "^coll_reference: rank [0-9]+ OK" 3 --no-match "FAIL" --
    ${SHMPI_RUN} -n 3 --oversubscribe $<TARGET_FILE:coll_reference> 300 ${seed})
endforeach()

# The trees the small collectives take without the collective slots
# (coll_shm_limit=0; with them, every call at 3 to 16 ranks up to 8 KiB
# goes through the slots, runtime/shm_collectives.hpp).
foreach(n 3 8)
  shmpi_case(coll_reference.np${n}.trees TIMEOUT 300 ARGS
    --count "^coll_reference: rank [0-9]+ OK" ${n} --no-match "FAIL" --
    ${SHMPI_RUN} -n ${n} --oversubscribe --set coll_shm_limit=0 $<TARGET_FILE:coll_reference> 200 11)
endforeach()

# The collective slots themselves: slots reused across communicators and
# calls, broadcast roots running ahead, identical reduction bits on every
# rank, MPI_IN_PLACE; the run report proves the calls took the slots.
add_executable(coll_slots coll_slots.c)
target_link_libraries(coll_slots PRIVATE shmpi Threads::Threads)
target_compile_options(coll_slots PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)
foreach(n 3 5 8)
  shmpi_case(coll_slots.np${n} TIMEOUT 120 ARGS
    --count "^coll_slots: rank [0-9]+ OK" ${n} --no-match "FAIL"
    --match "collective calls through the shared slots: [1-9]" --
    ${SHMPI_RUN} -n ${n} --oversubscribe --report stats $<TARGET_FILE:coll_slots> 200)
endforeach()
# Without the slots the same program passes on the trees, and says so.
shmpi_case(coll_slots.np5.trees TIMEOUT 120 ARGS
  --count "^coll_slots: rank [0-9]+ OK" 5 --no-match "FAIL" --no-match "shared slots" --
  ${SHMPI_RUN} -n 5 --oversubscribe --set coll_shm_limit=0 --report stats $<TARGET_FILE:coll_slots> 100)
# Single copy refused: the members of a large broadcast say so in the slot
# and get the bytes by point-to-point from the root.
shmpi_case(coll_slots.np4.cma_refused TIMEOUT 120 ARGS
  --count "^coll_slots: rank [0-9]+ OK" 4 --no-match "FAIL" --
  ${SHMPI_RUN} -n 4 --oversubscribe --set test_cma_eperm=1 $<TARGET_FILE:coll_slots> 60)
# Every wait sleeps at once, up to a second a sleep: a wake-up the slots'
# publishers or last readers fail to give turns into a hang (the timeout).
shmpi_case(coll_slots.np4.sleep_at_once TIMEOUT 120 ARGS
  --count "^coll_slots: rank [0-9]+ OK" 4 --no-match "FAIL" --
  ${SHMPI_RUN} -n 4 --oversubscribe --set test_sleep_at_once=on $<TARGET_FILE:coll_slots> 60)
# MPI_THREAD_MULTIPLE: three threads a rank, each on communicators of its
# own, all at once. A rank's slots serve all its communicators, so threads
# calling on different ones could wait for each other's readers for good:
# ranks that share themselves between threads keep the trees.
add_dependencies(tsan_tests coll_slots)
shmpi_case(coll_slots.np3.threads TIMEOUT 120 LABEL "integration;threads" ARGS
  --count "^coll_slots: rank [0-9]+ OK" 3 --no-match "FAIL" --no-match "shared slots" --
  ${SHMPI_RUN} -n 3 --oversubscribe --report stats $<TARGET_FILE:coll_slots> 100 3)
# Rank 0 alone at MPI_THREAD_MULTIPLE: the communicators it is in take the
# trees on every member (a member choosing otherwise would hang the case),
# the odd half (ranks 1, 3, 5) takes the slots.
shmpi_case(coll_slots.np7.mixed TIMEOUT 120 ARGS
  --count "^coll_slots: rank [0-9]+ OK" 7 --no-match "FAIL"
  --match "collective calls through the shared slots: [1-9]" --
  ${SHMPI_RUN} -n 7 --oversubscribe --report stats $<TARGET_FILE:coll_slots> 100 1 mixed)

# A reduction's received operand is copied whole by the rank that reduces
# it, never split with the sender (pml::Pml::start_operand_recv): the split
# would leave half of it in the sender's cache for the reduction to fetch.
# coll_ops checks the results at these sizes. (An exchange's receives are
# never split anyway: the sender is busy with its own receive.)
if(SHMPI_BUILD_BENCHMARKS)  # the targets are defined later, in benchmarks/osu
  shmpi_case(osu_reduce.np2.operands_unsplit ARGS
    --count "^262144 +[0-9.]+$" 1
    --match "^shmpi stats: rendezvous received: single copy [1-9][0-9]* msgs [0-9]+ B; split 0 msgs 0 B; streamed 0 msgs 0 B$" --
    ${SHMPI_RUN} -n 2 --set split_threshold=65536 --set rndv_route=single_copy --set reply_pipeline_limit=0
    --report stats $<TARGET_FILE:osu_reduce> -m 262144:262144 -i 20 -x 2)
endif()
