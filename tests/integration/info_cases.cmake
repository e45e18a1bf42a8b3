# shmpi_info, and a job with many more ranks than cores.
set(SHMPI_INFO $<TARGET_FILE:shmpi_info>)
# Footprint with 64 ranks: 64 rings of 128 KiB + segment header, doorbell,
# 64 ring controls, 64 fast boxes (8 candidate cache lines each) and the
# collective slots (4 of 8 KiB).
# The user and expert tunables, with their levels; the test-level one only
# with --all.
set(info_tunables "eager_limit|ring_size|segment_budget|max_fragment|rndv_threshold|split_threshold|reply_pipeline_limit|claim_ahead_from|claim_ahead_limit|unexpected_budget|coll_shm_limit|single_copy|rndv_route|numa_policy|wait_policy|fast_box|box_probe|poll_gap_ns")
shmpi_case(shmpi_info.lists_tunables ARGS
  --count "^(${info_tunables}) +(user|expert) " 18 --no-match "^test_cma_eperm"
  --match "^\\(test-level tunables are listed with --all\\)$"
  --match "shared memory per rank with 64 ranks: 8462848 bytes" --
  ${SHMPI_INFO} -n 64)
# The segment budget (btl/segment_budget.hpp): small jobs keep ring_size,
# large ones get smaller rings and still fit 16 MiB per rank.
shmpi_case(shmpi_info.budget_small_job ARGS
  --match "^shared memory per rank with 2 ranks: 303616 bytes \\(296.5 KiB\\): one 131072-byte ring per sender"
  --match "^budget: at most 16.00 MiB per rank \\(segment_budget\\): met; rings keep ring_size=131072$" --
  ${SHMPI_INFO} -n 2)
shmpi_case(shmpi_info.budget_384_ranks ARGS
  --match "^shared memory per rank with 384 ranks: 12841472 bytes \\(12.25 MiB\\): one 32768-byte ring per sender"
  --match "^budget: at most 16.00 MiB per rank \\(segment_budget\\): met; rings shrink from ring_size=131072 to 32768 bytes, eager messages up to (8128|2048) bytes$"
  --match "^shared memory for the job: 4.59 GiB at most; " --
  ${SHMPI_INFO} -n 384)
shmpi_case(shmpi_info.budget_1024_ranks ARGS
  --match "^shared memory per rank with 1024 ranks: 9019904 bytes \\(8.60 MiB\\): one 8192-byte ring per sender"
  --match "^budget: at most 16.00 MiB per rank \\(segment_budget\\): met; rings shrink from ring_size=131072 to 8192 bytes, eager messages up to 1984 bytes$" --
  ${SHMPI_INFO} -n 1024)
shmpi_case(shmpi_info.budget_set ARGS
  --match "^budget: at most 4.00 MiB per rank \\(segment_budget\\): met; rings shrink from ring_size=131072 to 16384 bytes, eager messages up to (4032|2048) bytes$" --
  env SHMPI_SEGMENT_BUDGET=4M ${SHMPI_INFO} -n 200)
shmpi_case(shmpi_info.all_levels ARGS
  --count "^(${info_tunables}) +(user|expert) " 18 --count "^test_cma_eperm +test +0 +0 " 1 --
  ${SHMPI_INFO} --all)
shmpi_case(shmpi_info.current_value ARGS
  --match "^eager_limit +user +(8192|2048) +16k " --
  env SHMPI_EAGER_LIMIT=16k ${SHMPI_INFO})

string(REPLACE ";" ", " profile_list "${SHMPI_PROFILE_NAMES}")
# The profile and why: named by SHMPI_PROFILE or --profile, else by the CPU.
shmpi_case(shmpi_info.profile_by_cpu ARGS
  --match "^profile (general \\(chosen: no other profile matches this CPU\\)|intel \\(chosen: this CPU matches cpu_vendor=GenuineIntel\\)); profiles: ${profile_list}$"
  --match "^this CPU: cpu_vendor=[A-Za-z]+ cpu_family=[0-9]+ cpu_model=[0-9]+$" --match "^rule: SHMPI_PROFILE " --
  ${SHMPI_INFO})
shmpi_case(shmpi_info.profile_by_env ARGS
  --match "^profile intel \\(chosen: SHMPI_PROFILE=intel\\)" --match "^eager_limit +user +2048 +2048 " --
  env SHMPI_PROFILE=intel ${SHMPI_INFO})
shmpi_case(shmpi_info.profile_option ARGS
  --match "^profile general \\(chosen: --profile general\\)" --match "^eager_limit +user +8192 +8192 " --
  env SHMPI_PROFILE=intel ${SHMPI_INFO} --profile general)
shmpi_case(shmpi_info.unknown_profile ARGS
  --rc 1 --count "^shmpi_info: SHMPI_PROFILE=epyc9: no such profile \\(profiles: ${profile_list}\\)$" 1 --
  env SHMPI_PROFILE=epyc9 ${SHMPI_INFO})
shmpi_case(shmpi_info.renamed_tunable ARGS
  --rc 1 --count "^shmpi_info: SHMPI_PINGPONG_LIMIT was renamed SHMPI_REPLY_PIPELINE_LIMIT$" 1 --
  env SHMPI_PINGPONG_LIMIT=0 ${SHMPI_INFO})
# A profile from a file (SHMPI_PROFILE_FILE), shown and used by a job.
set(test_profile ${CMAKE_CURRENT_SOURCE_DIR}/small_limits.profile)
shmpi_case(shmpi_info.profile_file ARGS
  --match "^profile small_limits \\(chosen: SHMPI_PROFILE=small_limits\\); profiles: ${profile_list}, small_limits$"
  --match "^eager_limit +user +1024 +1024 " --match "^ring_size +user +8192 +8192 " --
  env SHMPI_PROFILE_FILE=${test_profile} SHMPI_PROFILE=small_limits ${SHMPI_INFO})
shmpi_case(p2p_modes.profile_file TIMEOUT 120 ARGS
  --count "^p2p_modes: rank [0-9]+ OK" 2 --no-match "FAIL" --
  env SHMPI_PROFILE_FILE=${test_profile} ${SHMPI_RUN} -n 2 --profile small_limits $<TARGET_FILE:p2p_modes>)
# --profile reaches the ranks as SHMPI_PROFILE, over the inherited one.
shmpi_case(shmpirun.profile_reaches_ranks ARGS
  --count "^SHMPI_PROFILE=intel$" 1 --no-match "^SHMPI_PROFILE=general" --
  env SHMPI_PROFILE=general ${SHMPI_RUN} -n 1 --profile intel env)
# A profile that does not exist, or a tunable's old name, stops shmpirun
# before anything starts (exit 2) and a rank started alone at MPI_Init.
shmpi_case(shmpirun.unknown_profile ARGS
  --rc 2 --count "^shmpirun: --profile epyc9: no such profile \\(profiles: ${profile_list}\\)$" 1 --no-match "OK" --
  ${SHMPI_RUN} -n 2 --profile epyc9 $<TARGET_FILE:p2p_modes>)
shmpi_case(shmpirun.renamed_tunable ARGS
  --rc 2 --count "^shmpirun: environment SHMPI_PINGPONG_LIMIT was renamed SHMPI_REPLY_PIPELINE_LIMIT$" 1 --
  env SHMPI_PINGPONG_LIMIT=0 ${SHMPI_RUN} -n 2 $<TARGET_FILE:p2p_modes>)
shmpi_case(singleton.unknown_profile ARGS
  --rc-nonzero --count "^shmpi: MPI_Init: SHMPI_PROFILE=epyc9: no such profile \\(profiles: ${profile_list}\\)$" 1 --
  env SHMPI_PROFILE=epyc9 $<TARGET_FILE:p2p_modes>)
shmpi_case(singleton.renamed_tunable ARGS
  --rc-nonzero --count "^shmpi: MPI_Init: SHMPI_PINGPONG_LIMIT was renamed SHMPI_REPLY_PIPELINE_LIMIT$" 1 --
  env SHMPI_PINGPONG_LIMIT=0 $<TARGET_FILE:p2p_modes>)
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

# The hand-off between the CPUs of ranks 0 and 1: shmpi_info and shmpirun
# measure it (run_case.sh sets SHMPI_MEASURED_HANDOFF_NS=0, so these unset
# it), or take the value the variable states; a profile naming no CPU
# (far: 100 ns or more) is chosen by it, and the ranks run with its
# defaults (an Intel CPU keeps its own profile).
shmpi_case(shmpi_info.measured_handoff ARGS
  --match "^this CPU: cpu_vendor=[A-Za-z]+ cpu_family=[0-9]+ cpu_model=[0-9]+ handoff_ns=[1-9][0-9]*$"
  --match "^profile [a-z]+ \\(chosen: .* \\(measured hand-off [1-9][0-9]* ns\\)\\); profiles: " --
  env -u SHMPI_MEASURED_HANDOFF_NS ${SHMPI_INFO})
shmpi_case(shmpi_info.stated_handoff ARGS
  --match "^profile (far \\(chosen: this CPU matches handoff_ns>=100|intel \\(chosen: this CPU matches cpu_vendor=GenuineIntel) \\(measured hand-off 170 ns\\)\\); "
  --match "^this CPU: .* handoff_ns=170$" --
  env SHMPI_MEASURED_HANDOFF_NS=170 ${SHMPI_INFO})
shmpi_case(shmpi_info.bad_handoff ARGS
  --rc 1 --count "^shmpi_info: environment SHMPI_MEASURED_HANDOFF_NS=fast: must be a number of ns below 1000000000 \\(0: none\\)$" 1 --
  env SHMPI_MEASURED_HANDOFF_NS=fast ${SHMPI_INFO})
shmpi_case(shmpirun.bad_handoff ARGS
  --rc 2 --count "^shmpirun: environment SHMPI_MEASURED_HANDOFF_NS=-5: must be a number of ns below 1000000000 \\(0: none\\)$" 1
  --no-match "OK" --
  env SHMPI_MEASURED_HANDOFF_NS=-5 ${SHMPI_RUN} -n 2 $<TARGET_FILE:p2p_modes>)
shmpi_case(shmpirun.handoff_reaches_ranks ARGS
  --count "^SHMPI_MEASURED_HANDOFF_NS=[1-9][0-9]*$" 2 --
  env -u SHMPI_MEASURED_HANDOFF_NS ${SHMPI_RUN} -n 2 --bind-to core env)
shmpi_case(shmpirun.no_handoff_for_a_named_profile ARGS
  --count "^SHMPI_PROFILE=general$" 2 --no-match "^SHMPI_MEASURED_HANDOFF_NS=" --
  env -u SHMPI_MEASURED_HANDOFF_NS ${SHMPI_RUN} -n 2 --bind-to core --profile general env)
# Intel CPUs keep the intel profile whatever the hand-off.
file(STRINGS /proc/cpuinfo intel_cpu REGEX "GenuineIntel" LIMIT_COUNT 1)
foreach(stated 57 170)
  if(intel_cpu)
    set(limits "eager_limit 2048, rndv_threshold 4096, .*reply_pipeline_limit 5632")
  elseif(stated EQUAL 170)
    set(limits "eager_limit 4096, rndv_threshold 8192, .*split_threshold 131072, reply_pipeline_limit 65536")
  else()
    set(limits "eager_limit 8192, rndv_threshold 16384, .*split_threshold 65536")
  endif()
  shmpi_case(report.handoff_${stated}ns ARGS
    --count "^report_traffic: rank [0-9]+ OK" 2 --no-match "FAIL"
    --match "^shmpi stats: 2 ranks; ${limits}, " --
    env SHMPI_MEASURED_HANDOFF_NS=${stated} ${SHMPI_RUN} -n 2 --report stats $<TARGET_FILE:report_traffic> pattern 3 4 5 6 7 8 512 8192 65536)
endforeach()
