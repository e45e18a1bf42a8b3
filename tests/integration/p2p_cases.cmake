# Integration cases for the point-to-point chapter: nonblocking calls and
# completion, send modes, probes, cancel, special peers, truncation.
foreach(program p2p_nonblocking p2p_modes p2p_probe_cancel p2p_truncate rndv_routes backlog)
  add_executable(${program} ${program}.c)
  target_link_libraries(${program} PRIVATE shmpi)
  target_compile_options(${program} PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)
endforeach()

shmpi_ok_cases(p2p_nonblocking 120 1 2 3)
shmpi_ok_cases(p2p_modes 120 1 2 4)
shmpi_ok_cases(p2p_probe_cancel 120 1 2 3)

# The same programs with single copy refused (fallback streaming) and with
# small eager / rendezvous limits, without the fast box, and with the
# rendezvous route fixed to single copy (no streamed tries), so every
# protocol path runs; and with waits polling through an lfence and through
# pauses (poll_gap_ns), whichever this machine's default is.
foreach(setting single_copy=none rndv_route=single_copy test_cma_eperm=1 eager_limit=64 fast_box=off box_probe=off
        poll_gap_ns=0 poll_gap_ns=40 claim_ahead_from=0 claim_ahead_limit=65536 reply_pipeline_limit=1048576
        unexpected_budget=0)
  string(REGEX REPLACE "[=]" "_" suffix ${setting})
  foreach(program p2p_nonblocking p2p_modes p2p_probe_cancel)
    shmpi_case(${program}.${suffix} TIMEOUT 120 ARGS
      --count "^${program}: rank [0-9]+ OK" 2 --no-match "FAIL" --
      ${SHMPI_RUN} -n 2 --set ${setting} $<TARGET_FILE:${program}>)
  endforeach()
endforeach()
# Every built-in profile's defaults (profiles/*.profile), whichever this
# machine takes.
foreach(profile IN LISTS SHMPI_PROFILE_NAMES)
  foreach(program p2p_nonblocking p2p_modes)
    shmpi_case(${program}.${profile}_profile TIMEOUT 120 ARGS
      --count "^${program}: rank [0-9]+ OK" 2 --no-match "FAIL" --
      ${SHMPI_RUN} -n 2 --profile ${profile} $<TARGET_FILE:${program}>)
  endforeach()
endforeach()

# Rendezvous sizes whose route is chosen per epoch (both routes get tried;
# the program's sizes are those of a 128 KiB threshold), and the same with
# the route fixed and with single copy refused.
foreach(setting rndv_route=auto rndv_route=single_copy test_cma_eperm=1)
  string(REGEX REPLACE "[=]" "_" suffix ${setting})
  shmpi_case(rndv_routes.${suffix} TIMEOUT 120 ARGS
    --count "^rndv_routes: rank [0-9]+ OK" 2 --no-match "FAIL" --
    ${SHMPI_RUN} -n 2 --set rndv_threshold=131072 --set ${setting} $<TARGET_FILE:rndv_routes>)
endforeach()

shmpi_case(p2p_truncate.return ARGS
  --count "^p2p_truncate: rank [0-9]+ OK" 2 --no-match "FAIL" --
  ${SHMPI_RUN} -n 2 $<TARGET_FILE:p2p_truncate> return)
shmpi_case(p2p_truncate.fatal ARGS
  --rc-nonzero
  --count "^shmpi: rank 1: MPI_Recv: message from rank 0, tag 7 on MPI_COMM_WORLD truncated: 10488 bytes sent, buffer holds 10484$" 1
  --no-match "p2p_truncate: rank 1 OK" --
  ${SHMPI_RUN} -n 2 $<TARGET_FILE:p2p_truncate>)

# Messages a backlogged receiver had held back (unexpected_budget): every
# rank backlogged from the start, or rank 0 made so by a message it holds
# unreceived (budget 1 byte), with single copy and with streaming.
foreach(setting single_copy=cma single_copy=none)
  string(REGEX REPLACE "[=]" "_" suffix ${setting})
  shmpi_case(backlog.budget0_${suffix} TIMEOUT 120 ARGS
    --count "^backlog: rank [0-9]+ OK" 3 --no-match "FAIL" --match "sends held back [1-9]" --
    ${SHMPI_RUN} -n 3 --oversubscribe --set unexpected_budget=0 --set ${setting} --report stats $<TARGET_FILE:backlog>)
  shmpi_case(backlog.primer_${suffix} TIMEOUT 120 ARGS
    --count "^backlog: rank [0-9]+ OK" 3 --no-match "FAIL" --match "sends held back [1-9]" --
    ${SHMPI_RUN} -n 3 --oversubscribe --set unexpected_budget=1 --set ${setting} --report stats
    $<TARGET_FILE:backlog> primer)
endforeach()
