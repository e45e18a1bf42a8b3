#!/usr/bin/env bash
# shmpi ranks under Slurm's `srun --mpi=pmix`, on a private one-node Slurm
# started for this test only (DESIGN.md, "Platform facts"): its own
# slurm.conf, state, spool and log folders in a temporary directory, no
# munge (auth/none), slurmctld -D and slurmd -D in the background. Everything
# is stopped and removed on exit, whatever happens.
#
#   slurm_test.sh RING RUN_CASE
# Exits 77 (skipped) when not root or when Slurm (slurmctld, slurmd,
# slurm-client) or its PMIx plugin is not installed.
set -u
ring=$1 run_case=$2
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "not root (the private slurmd runs as root)"
for tool in slurmctld slurmd srun sinfo scancel; do
  command -v "$tool" >/dev/null || skip "$tool not installed (Debian: slurmctld slurmd slurm-client)"
done

dir=$(mktemp -d /tmp/shmpi-slurm.XXXXXX)
pids=()
cleanup() {
  if [ ${#pids[@]} -gt 0 ]; then
    # Against a controller that is gone, scancel retries for ~18 s: bound it.
    kill -0 "${pids[0]}" 2>/dev/null && timeout 5 scancel --quiet --user=root >/dev/null 2>&1
    kill "${pids[@]}" 2>/dev/null
    for _ in $(seq 50); do
      kill -0 "${pids[@]}" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "${pids[@]}" 2>/dev/null
    wait "${pids[@]}" 2>/dev/null
  fi
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Two free TCP ports, unlikely to collide with a real Slurm (6817/6818), and
# below the kernel's ephemeral range: a port there can be taken by any
# outgoing connection (shmpirun jobs alongside hold several) between this
# check and slurmctld's bind, which then fails with "Address already in use".
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
ephemeral_low=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
pick_port() {
  local p span=$((ephemeral_low - 2 - 20000))
  [ "$span" -gt 100 ] || span=12000
  for _ in $(seq 50); do
    p=$((20000 + RANDOM % span))
    port_free "$p" && port_free $((p + 1)) && { echo "$p"; return; }
  done
  echo "FAIL: no free TCP port pair found" >&2
  exit 1
}
port=$(pick_port)
host=$(hostname -s)
mkdir -p "$dir/state" "$dir/spool" "$dir/log"
cat >"$dir/slurm.conf" <<EOF
ClusterName=shmpitest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MailProg=/bin/true
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=shmpi Nodes=$host Default=YES MaxTime=10 State=UP
EOF
export SLURM_CONF=$dir/slurm.conf  # without it srun tries a DNS lookup
# The step's PMIx server (in slurmstepd) and the ranks keep their data in
# memory rather than in files (as shmpirun does).
export PMIX_MCA_gds=hash

srun --mpi=list 2>&1 | grep -qw pmix || skip "Slurm's PMIx plugin (mpi/pmix) is not available"

started=$(date +%s%N)
slurmctld -D -i >"$dir/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N "$host" >"$dir/log/slurmd.out" 2>&1 &
pids+=($!)

# Wait (bounded in time: sinfo against a dead controller retries for
# seconds) for the node to be idle; stop at once if slurmctld has exited.
state=
deadline=$((SECONDS + 20))
while [ $SECONDS -lt $deadline ]; do
  kill -0 "${pids[0]}" 2>/dev/null || { state="slurmctld exited"; break; }
  state=$(timeout 2 sinfo -h -N -o %t 2>/dev/null | head -1)
  [ "$state" = idle ] && break
  sleep 0.2
done
if [ "$state" != idle ]; then
  echo "FAIL: the node did not become idle within 20 s (state '$state')"
  tail -n 20 "$dir"/log/*
  exit 1
fi
echo "slurm: node $host idle after $((($(date +%s%N) - started) / 1000000)) ms"

fail=0
for n in 2 4; do
  # More ranks than CPUs need --overcommit, or the job waits forever.
  "$run_case" --timeout 60 --match "ring: $n ranks, 20 laps, token $((20 * n * (n - 1) / 2)) \(expected" -- \
    srun --mpi=pmix -n "$n" --overcommit --time=2 "$ring" 20 || fail=1
done
if [ $fail -ne 0 ]; then
  echo "--- slurmd log:"
  tail -n 30 "$dir/log/slurmd.log"
fi
[ $fail -eq 0 ] && echo "PASS: srun --mpi=pmix -n 2 and -n 4"
exit $fail
