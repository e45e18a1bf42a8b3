#!/usr/bin/env bash
# shmpi ranks under Slurm's `srun --mpi=pmix`, on a private one-node Slurm
# started for this test only (slurm_cluster.sh): its own slurm.conf, state,
# spool and log folders in a temporary directory, no munge (auth/none),
# slurmctld -D and slurmd -D in the background. Everything is stopped and
# removed on exit, whatever happens.
#
#   slurm_test.sh RING RUN_CASE
# Exits 77 (skipped) when not root or when Slurm (slurmctld, slurmd,
# slurm-client) or its PMIx plugin is not installed.
set -u
ring=$1 run_case=$2
. "$(dirname "$0")/slurm_cluster.sh"
slurm_require_tools
slurm_start

fail=0
for n in 2 4; do
  # More ranks than CPUs need --overcommit, or the job waits forever.
  "$run_case" --timeout 60 --match "ring: $n ranks, 20 laps, token $((20 * n * (n - 1) / 2)) \(expected" -- \
    srun --mpi=pmix -n "$n" --overcommit --time=2 "$ring" 20 || fail=1
done
[ $fail -ne 0 ] && slurm_show_logs
[ $fail -eq 0 ] && echo "PASS: srun --mpi=pmix -n 2 and -n 4"
exit $fail
