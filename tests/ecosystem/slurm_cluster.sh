# shellcheck shell=bash
# A private Slurm for one test script, sourced (not run) by slurm_test.sh
# (one node) and slurm2_test.sh (two nodes on this one machine). Facts
# behind the configuration: docs/design.md, "More than one node", and
# /work/shared/DESIGN.md's platform facts.
#
#   . slurm_cluster.sh
#   slurm_require_tools              # exits 77 (skipped) when not usable here
#   slurm_start NODE...              # one slurmd per name, waits until idle
#   ... srun ...                     # SLURM_CONF and PMIX_MCA_gds are set
#
# slurm_start installs an EXIT trap that stops every daemon it started and
# removes its folder ($slurm_dir: configuration, state, spool, logs and each
# node's TmpFS), whatever happens; INT and TERM exit through it. Nothing is
# left in /tmp, /dev/shm or running. With one node the node is named after
# this host; with several, every slurmd listens on a port of its own and
# keeps its spool, pid, log and TmpFS apart through `%n` (the node's name):
# without a TmpFS per node the second node's step fails on a shared
# /tmp/spmix_appdir_* folder.

slurm_pids=()
slurm_dir=
slurm_nodes=()

slurm_skip() { echo "SKIP: $*"; exit 77; }

slurm_require_tools() {
  [ "$(id -u)" -eq 0 ] || slurm_skip "not root (the private slurmd runs as root)"
  local tool
  for tool in slurmctld slurmd srun sinfo scancel; do
    command -v "$tool" >/dev/null || slurm_skip "$tool not installed (Debian: slurmctld slurmd slurm-client)"
  done
}

slurm_stop() {
  if [ ${#slurm_pids[@]} -gt 0 ]; then
    # Against a controller that is gone, scancel retries for ~18 s: bound it.
    kill -0 "${slurm_pids[0]}" 2>/dev/null && timeout 5 scancel --quiet --user=root >/dev/null 2>&1
    kill "${slurm_pids[@]}" 2>/dev/null
    local _
    for _ in $(seq 50); do
      kill -0 "${slurm_pids[@]}" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "${slurm_pids[@]}" 2>/dev/null
    wait "${slurm_pids[@]}" 2>/dev/null
    slurm_pids=()
  fi
  [ -n "$slurm_dir" ] && rm -rf "$slurm_dir"
  slurm_dir=
}

# COUNT consecutive free TCP ports, unlikely to collide with a real Slurm
# (6817/6818), and below the kernel's ephemeral range: a port there can be
# taken by any outgoing connection (shmpirun jobs alongside hold several)
# between this check and the daemon's bind ("Address already in use").
slurm_port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
slurm_pick_ports() {
  local count=$1 p i ok _
  local low span
  low=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
  span=$((low - count - 1 - 20000))
  [ "$span" -gt 100 ] || span=12000
  for _ in $(seq 50); do
    p=$((20000 + RANDOM % span)) ok=1
    for ((i = 0; i < count; i++)); do
      slurm_port_free $((p + i)) || { ok=0; break; }
    done
    [ $ok -eq 1 ] && { echo "$p"; return; }
  done
  echo "FAIL: no $count free consecutive TCP ports found" >&2
  exit 1
}

# slurm_write_conf PORT NODE...: slurmctld on PORT, node i's slurmd on
# PORT+1+i (with one node: the ordinary SlurmdPort).
slurm_write_conf() {
  local port=$1 host
  shift
  host=$(hostname -s)
  cat >"$slurm_dir/slurm.conf" <<EOF
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
StateSaveLocation=$slurm_dir/state
SlurmdSpoolDir=$slurm_dir/spool/%n
SlurmctldPidFile=$slurm_dir/slurmctld.pid
SlurmdPidFile=$slurm_dir/slurmd.%n.pid
SlurmctldLogFile=$slurm_dir/log/slurmctld.log
SlurmdLogFile=$slurm_dir/log/slurmd.%n.log
TmpFS=$slurm_dir/tmp/%n
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MailProg=/bin/true
EOF
  local i=0 node
  for node in "$@"; do
    if [ $# -eq 1 ]; then
      echo "NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN"
    else
      echo "NodeName=$node NodeHostname=$host NodeAddr=127.0.0.1 Port=$((port + 1 + i)) CPUs=$(nproc) State=UNKNOWN"
    fi
    i=$((i + 1))
  done >>"$slurm_dir/slurm.conf"
  local list
  list=$(IFS=,; echo "$*")
  echo "PartitionName=shmpi Nodes=$list Default=YES MaxTime=10 State=UP" >>"$slurm_dir/slurm.conf"
}

# Waits (bounded: sinfo against a dead controller retries for seconds) until
# every node is idle; stops at once if slurmctld has exited.
slurm_wait_idle() {
  local want=$1 states='' deadline=$((SECONDS + 20))
  while [ $SECONDS -lt $deadline ]; do
    kill -0 "${slurm_pids[0]}" 2>/dev/null || { states="slurmctld exited"; break; }
    states=$(timeout 2 sinfo -h -N -o %t 2>/dev/null | sort | uniq -c | awk '{print $1 "x" $2}' | tr '\n' ' ')
    [ "$states" = "${want}xidle " ] && return 0
    sleep 0.2
  done
  echo "FAIL: the nodes did not become idle within 20 s (states: '$states')"
  tail -n 20 "$slurm_dir"/log/*
  exit 1
}

slurm_start() {
  [ $# -gt 0 ] || set -- "$(hostname -s)"
  slurm_nodes=("$@")
  slurm_dir=$(mktemp -d /tmp/shmpi-slurm.XXXXXX)
  trap slurm_stop EXIT
  trap 'exit 130' INT TERM
  local node port started
  mkdir -p "$slurm_dir/state" "$slurm_dir/log"
  for node in "$@"; do mkdir -p "$slurm_dir/spool/$node" "$slurm_dir/tmp/$node"; done
  port=$(slurm_pick_ports $(($# + 1))) || exit 1
  slurm_write_conf "$port" "$@"
  export SLURM_CONF=$slurm_dir/slurm.conf  # without it srun tries a DNS lookup
  # The step's PMIx server (in slurmstepd) and the ranks keep their data in
  # memory rather than in files (as shmpirun does).
  export PMIX_MCA_gds=hash
  srun --mpi=list 2>&1 | grep -qw pmix || slurm_skip "Slurm's PMIx plugin (mpi/pmix) is not available"

  started=$(date +%s%N)
  slurmctld -D -i >"$slurm_dir/log/slurmctld.out" 2>&1 &
  slurm_pids+=($!)
  for node in "$@"; do
    slurmd -D -N "$node" >"$slurm_dir/log/slurmd.$node.out" 2>&1 &
    slurm_pids+=($!)
  done
  slurm_wait_idle $#
  echo "slurm: nodes $* idle after $((($(date +%s%N) - started) / 1000000)) ms"
}

# Prints the last lines of every slurmd's log (after a failed case).
slurm_show_logs() {
  local node
  for node in "${slurm_nodes[@]}"; do
    echo "--- slurmd log of $node:"
    tail -n 30 "$slurm_dir/log/slurmd.$node.log" 2>/dev/null
  done
}
