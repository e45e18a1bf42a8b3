# Integration cases for ranks on other nodes (net/network.hpp): under
# `shmpirun --fake-nodes 2` the ranks claim two host names round-robin, so
# ranks 0,2 and 1,3 are "nodes" and every pair across them talks through
# UCX on this host. Each case asserts the network path was taken: the run
# report's "network" line counts the messages sent through it.
set(net_sent "^shmpi stats: network: sent [1-9][0-9]* msgs [0-9]+ B$")

# net_case(NAME RANKS OK_COUNT_REGEX OK_COUNT PROGRAM [ARGS...])
function(net_case name ranks ok_regex ok_count program)
  shmpi_case(net.${name} TIMEOUT 60 ARGS
    --count "${ok_regex}" ${ok_count} --no-match "FAIL" --match "${net_sent}" --
    ${SHMPI_RUN} -n ${ranks} --oversubscribe --fake-nodes 2 --report stats $<TARGET_FILE:${program}> ${ARGN})
endfunction()

if(SHMPI_WITH_UCX)
  foreach(program p2p_modes p2p_probe_cancel p2p_nonblocking)
    net_case(${program}.np2 2 "^${program}: rank [0-9]+ OK" 2 ${program})
  endforeach()
  net_case(p2p_modes.np4 4 "^p2p_modes: rank [0-9]+ OK" 4 p2p_modes)
  net_case(p2p_truncate.return 2 "^p2p_truncate: rank [0-9]+ OK" 2 p2p_truncate return)
  net_case(order 2 "^order: 2000 messages in order$" 1 order 2000)
  # ANY_SOURCE over both paths at once: rank 0's senders are 1, 3 (network) and 2 (shared memory).
  net_case(any_source.np4 4 "^any_source: 300 messages from 3 senders OK$" 1 any_source 100)
  net_case(random_traffic.np3 3 "^random_traffic: rank [0-9]+ OK \\([0-9]+ messages, [0-9]+ bytes\\)$" 3
           random_traffic 301 40)
  # Partitioned with non-contiguous datatypes: both sides pack (the network moves bytes only).
  net_case(partitioned_types.np2 2 "^partitioned_types: rank [0-9]+ OK" 2 partitioned_types 5)
  net_case(all_pairs.np2 2 "^all_pairs: 2 ranks, [0-9]+ sizes up to 16777216 bytes: OK$" 1 all_pairs)

  # MPI_Cancel of sends that left, to a peer on the other node
  # (pml/withdrawal.cpp over the network): every send_cancel part; with
  # UCX_RNDV_THRESH=1024 UCX keeps every message from 1000 B at the sender
  # until received (a withdrawn one is released there). Cancelled messages
  # do not pile up: the deepest unexpected queue stays small.
  set(net_cancel_ok --count "^send_cancel: rank [0-9]+ OK" 2 --no-match "FAIL" --match "${net_sent}"
      --match "^shmpi stats: deepest unexpected queue: [0-9]?[0-9] \\(rank")
  shmpi_case(net.send_cancel.np2 TIMEOUT 120 ARGS ${net_cancel_ok} --
    ${SHMPI_RUN} -n 2 --fake-nodes 2 --report stats $<TARGET_FILE:send_cancel> 100)
  shmpi_case(net.send_cancel.rndv.np2 TIMEOUT 120 ARGS ${net_cancel_ok} --
    env UCX_RNDV_THRESH=1024 ${SHMPI_RUN} -n 2 --fake-nodes 2 --report stats $<TARGET_FILE:send_cancel> 100)
  net_case(send_cancel.np4 4 "^send_cancel: rank [0-9]+ OK" 4 send_cancel 100)

  # A remote peer that dies is reported like a local one.
  shmpi_case(net.killed_mid_exchange.np3 ARGS
    --rc-nonzero --match "rank 1.*(signal 9|SIGKILL|Killed)|network send to rank 1 failed" --
    ${SHMPI_RUN} -n 3 --oversubscribe --fake-nodes 2 $<TARGET_FILE:killed_mid_exchange>)

  # No usable network device (none named, or no network transport allowed):
  # the job stops in MPI_Init, each rank with one line of ours, never on a
  # first send (UCX adds its own WARN/ERROR lines).
  foreach(setting UCX_NET_DEVICES=no_such_device UCX_TLS=shm)
    string(REGEX REPLACE "=.*" "" variable ${setting})
    shmpi_case(net.no_device.${variable} ARGS
      --rc-nonzero --match "^shmpi: MPI_Init: UCX found no usable network device to reach rank [01] \\(UCX: Destination is unreachable; see UCX_TLS and UCX_NET_DEVICES\\)$"
      --no-match "^shmpi: rank" --no-match "p2p_modes: rank [0-9]+ OK" --
      env ${setting} ${SHMPI_RUN} -n 2 --fake-nodes 2 $<TARGET_FILE:p2p_modes>)
  endforeach()

  # A rank whose only peer is on the other node sleeps in MPI_Recv (on UCX's
  # wake-up fd) and wakes when the message comes: rank 1 sends only once it
  # sees rank 0 asleep in /proc. A rank that never sleeps hangs this case.
  shmpi_case(net.wait_sleeps ARGS
    --count "^wait_sleeps: rank [0-9]+ OK" 2 --match "^wait_sleeps: rank 0 sleeps in MPI_Recv$" --no-match "FAIL"
    --match "${net_sent}" --
    ${SHMPI_RUN} -n 2 --fake-nodes 2 --report stats $<TARGET_FILE:wait_sleeps>)
  # A rank with a remote peer (silent) and a local one wakes at once for
  # the local one's messages (btl::Transport::sleep_on_fd): every message
  # meets a sleeping receiver, and test_sleep_at_once makes a missed
  # wake-up cost a second, so without it the case hangs (about 2000 s).
  add_executable(mixed_wake mixed_wake.c)
  target_link_libraries(mixed_wake PRIVATE shmpi)
  target_compile_options(mixed_wake PRIVATE -Wall -Wextra $<$<BOOL:${SHMPI_WERROR}>:-Werror>)
  shmpi_case(net.mixed_wake.np3 TIMEOUT 60 ARGS
    --count "^mixed_wake: rank [0-9]+ OK" 3 --no-match "FAIL" --match "${net_sent}"
    --match "^mixed_wake: 2000 messages with a local peer while a remote one was silent$" --
    ${SHMPI_RUN} -n 3 --oversubscribe --fake-nodes 2 --set test_sleep_at_once=on --report stats
    $<TARGET_FILE:mixed_wake> 2000)
  # UCX's shared-memory files (ucx_shm_posix_*) exist while a job runs: two
  # such jobs at once would each see the other's as left behind. Only these
  # cases look for UCX's files (SHMPI_CASE_UCX, run_case.sh); the others may
  # run beside them.
  get_property(net_tests DIRECTORY PROPERTY TESTS)
  list(FILTER net_tests INCLUDE REGEX "^net\\.")
  set_tests_properties(${net_tests} PROPERTIES RESOURCE_LOCK ucx ENVIRONMENT_MODIFICATION SHMPI_CASE_UCX=set:1)
else()
  # Without UCX a job with remote peers stops at start-up with one line.
  shmpi_case(net.without_ucx ARGS
    --rc-nonzero --count "built without UCX" 2 --no-match "OK" --
    ${SHMPI_RUN} -n 2 --fake-nodes 2 $<TARGET_FILE:p2p_modes>)
endif()
