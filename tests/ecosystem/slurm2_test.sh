#!/usr/bin/env bash
# shmpi across two Slurm nodes on this one machine: a private Slurm with two
# slurmd (n1, n2; slurm_cluster.sh) started once, then several jobs under
# `srun -N2 --mpi=pmix`. With block distribution ranks 0,1 run on n1 and
# 2,3 on n2; with `-m cyclic` every other rank changes node. Both nodes
# share this machine's memory, but PMIx tells each rank its node
# (PMIX_HOSTNAME n1 / n2, LOCAL data scoped per node), so shmpi must reach
# ranks of the other node through its network path (UCX).
#
#   slurm2_test.sh GROUP TESTS_DIR RING PMIX_LOCALITY SHMPIRUN RUN_CASE
#
# GROUP "steps": what the harness itself provides, without shmpi crossing
#   nodes: tasks land on both nodes, PMIx locality and scoping differ per
#   node (pmix_locality.c), and shmpi jobs run within each node.
# GROUP "mpi": MPI programs (TESTS_DIR = tests/integration of the build)
#   with ranks on both nodes: traffic, wildcards, probes, cancels,
#   synchronous sends, (unexpected) rendezvous, truncation, order, a seeded
#   soak, exit codes and a crash on the other node; the run report must show
#   bytes sent over the network. Skipped while this shmpi has no network
#   path (shmpirun without --fake-nodes); SHMPI_SLURM2_FORCE=1 runs it anyway.
#
# Each case runs under run_case.sh (exit code, output lines, no survivors,
# nothing left in TMPDIR or /dev/shm). Exits 77 (skipped) when not root or
# Slurm or its PMIx plugin is missing; otherwise 0 only if every case passed.
set -u
group=$1 tests=$2 ring=$3 locality=$4 shmpirun=$5 run_case=$6
export SHMPI_CASE_UCX=1  # ranks on two nodes use UCX: run_case.sh checks its files too (RUN_SERIAL)
. "$(dirname "$0")/slurm_cluster.sh"

# The run report's line for traffic that left the node (SHMPI_STATS=1,
# runtime/run_report_format.cpp), with a non-zero byte count.
net_line='^shmpi stats: network: sent [1-9][0-9]* msgs [1-9][0-9]* B$'

case $group in
  steps) ;;
  mpi)
    if [ "${SHMPI_SLURM2_FORCE:-0}" != 1 ] && ! "$shmpirun" --help 2>&1 | grep -q -- --fake-nodes; then
      slurm_skip "this shmpi has no network path yet (shmpirun lacks --fake-nodes): ranks cannot cross nodes"
    fi ;;
  *) echo "slurm2_test.sh: unknown group '$group' (steps or mpi)" >&2; exit 2 ;;
esac
slurm_require_tools
slurm_start n1 n2

failed=()
passed=0
# slurm_case NAME RUN_CASE-OPTIONS... -- SRUN-OPTIONS... -- PROGRAM ARGS...
slurm_case() {
  local name=$1 checks=() options=()
  shift
  while [ "$1" != -- ]; do checks+=("$1"); shift; done
  shift
  while [ "$1" != -- ]; do options+=("$1"); shift; done
  shift
  echo "=== $name"
  # More ranks than CPUs need --overcommit, or the job waits forever.
  if "$run_case" --timeout 60 "${checks[@]}" -- srun --mpi=pmix --overcommit --time=2 "${options[@]}" "$@"; then
    passed=$((passed + 1))
  else
    failed+=("$name")
  fi
}

steps_cases() {
  slurm_case nodes.block --count '^[01]: n1$' 2 --count '^[23]: n2$' 2 -- \
    -N2 -n4 -l -- printenv SLURMD_NODENAME
  slurm_case pmix_locality.block --count '^pmix_locality: rank [0-9] .* OK$' 4 --no-match FAIL \
    --count '^pmix_locality: rank [01] host n1 peers-on-host 0,1 local-visible 0,1 OK$' 2 \
    --count '^pmix_locality: rank [23] host n2 peers-on-host 2,3 local-visible 2,3 OK$' 2 -- \
    -N2 -n4 -- "$locality"
  slurm_case pmix_locality.cyclic --count '^pmix_locality: rank [0-9] .* OK$' 4 --no-match FAIL \
    --count '^pmix_locality: rank [02] host n1 peers-on-host 0,2 local-visible 0,2 OK$' 2 \
    --count '^pmix_locality: rank [13] host n2 peers-on-host 1,3 local-visible 1,3 OK$' 2 -- \
    -N2 -n4 -m cyclic -- "$locality"
  # shmpi on each node alone (the second slurmd's spool and TmpFS work).
  local node
  for node in n1 n2; do
    slurm_case "ring.$node" --match 'ring: 3 ranks, 20 laps, token 60 \(expected 60\)' -- \
      -N1 -n3 -w "$node" -- "$ring" 20
  done
}

mpi_cases() {
  slurm_case ring.block --match 'ring: 4 ranks, 20 laps, token 120 \(expected 120\)' -- -N2 -n4 -- "$ring" 20
  # Cyclic: every hop of the ring changes node.
  slurm_case ring.cyclic --match 'ring: 4 ranks, 20 laps, token 120 \(expected 120\)' --match "$net_line" -- \
    -N2 -n4 -m cyclic --export=ALL,SHMPI_STATS=1 -- "$ring" 20
  local program
  for program in p2p_modes p2p_probe_cancel p2p_nonblocking; do
    slurm_case "$program" --count "^$program: rank [0-9]+ OK" 4 --no-match FAIL -- -N2 -n4 -- "$tests/$program"
  done
  # Probes and cancels with every message of 1 KiB or more left at its
  # sender (a UCX rendezvous) until a receive takes it: unexpected
  # rendezvous across nodes, whatever threshold UCX picks by itself.
  slurm_case p2p_probe_cancel.rndv --count '^p2p_probe_cancel: rank [0-9]+ OK' 4 --no-match FAIL -- \
    -N2 -n4 -m cyclic --export=ALL,UCX_RNDV_THRESH=1024 -- "$tests/p2p_probe_cancel"
  # MPI_Cancel of sends that left, rank 0 (n1) to rank 1 (n2): withdrawn
  # through the network, also with UCX holding messages at the sender.
  slurm_case send_cancel --count '^send_cancel: rank [0-9]+ OK' 4 --no-match FAIL -- \
    -N2 -n4 -m cyclic -- "$tests/send_cancel" 100
  slurm_case send_cancel.rndv --count '^send_cancel: rank [0-9]+ OK' 4 --no-match FAIL -- \
    -N2 -n4 -m cyclic --export=ALL,UCX_RNDV_THRESH=1024 -- "$tests/send_cancel" 100
  # Ranks 0 and 2 (n1) ping-pong, each message meeting a sleeping receiver,
  # while their remote peer rank 1 (n2) is silent: they wake for each other.
  slurm_case mixed_wake --count '^mixed_wake: rank [0-9]+ OK' 3 --no-match FAIL -- \
    -N2 -n3 -m cyclic --export=ALL,SHMPI_TEST_SLEEP_AT_ONCE=on -- "$tests/mixed_wake" 2000
  slurm_case all_pairs --match '^all_pairs: 4 ranks, [0-9]+ sizes up to 1048576 bytes: OK$' -- \
    -N2 -n4 -- "$tests/all_pairs" 1048576
  # Rank 0 (n1) takes MPI_ANY_SOURCE messages from rank 1 (n1) and 2, 3 (n2).
  slurm_case any_source --match '^any_source: 600 messages from 3 senders OK' -- -N2 -n4 -- "$tests/any_source" 200
  slurm_case p2p_truncate.return --count '^p2p_truncate: rank [0-9]+ OK' 2 --no-match FAIL -- \
    -N2 -n2 -- "$tests/p2p_truncate" return
  slurm_case p2p_truncate.fatal --rc-nonzero --no-match 'p2p_truncate: rank 1 OK' --count \
    '^shmpi: rank 1: MPI_Recv: message from rank 0, tag 7 on MPI_COMM_WORLD truncated: 10488 bytes sent, buffer holds 10484$' 1 \
    -- -N2 -n2 -- "$tests/p2p_truncate"
  # One sender on n1, one receiver on n2; the run report counts the bytes
  # that went over the network.
  slurm_case order.stats --match '^order: 5000 messages in order' --match "$net_line" -- \
    -N2 -n2 --export=ALL,SHMPI_STATS=1 -- "$tests/order" 5000
  slurm_case random_traffic --no-match FAIL \
    --count '^random_traffic: rank [0-9]+ OK \([0-9]+ messages, [0-9]+ bytes\)$' 4 -- \
    -N2 -n4 -- "$tests/random_traffic" 401 40
  # Rank 3 (n2) exits 3 after MPI_Finalize; rank 1 (n2 with -m cyclic)
  # kills itself while its neighbours on n1 wait for it: srun stops the job
  # and names node, task and how it ended.
  slurm_case exit_code --rc 3 --match '^srun: error: n2: task 3: Exited with exit code 3$' -- \
    -N2 -n4 -- "$tests/exit_code" 3 3
  slurm_case killed_mid_exchange --rc-nonzero --match '^rank 1: killing myself$' \
    --match '^srun: error: n2: task 1: Killed$' -- -N2 -n4 -m cyclic -- "$tests/killed_mid_exchange"
}

"${group}_cases"
if [ ${#failed[@]} -gt 0 ]; then
  slurm_show_logs
  echo "FAIL: slurm2 $group: $passed passed, failed: ${failed[*]}"
  exit 1
fi
echo "PASS: slurm2 $group: $passed cases"
