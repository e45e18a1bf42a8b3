#!/usr/bin/env bash
# Runs one multi-process test case and checks what a user would check.
#
#   run_case.sh [--rc N | --rc-nonzero] [--match RE]... [--no-match RE]...
#               [--count RE N]... [--timeout S] -- command [args...]
#
# The command runs with a private, empty TMPDIR. Afterwards the case fails
# unless: the exit code is as expected; every --match regex (extended, on
# stdout+stderr) is found and no --no-match one is; each --count regex
# matches exactly N lines; TMPDIR is empty again (the session directory
# is gone); /dev/shm holds nothing new; and no process started by the
# command is still alive.
set -u
expect_rc=0
timeout_s=60
matches=() nomatches=() counts=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rc) expect_rc=$2; shift 2 ;;
    --rc-nonzero) expect_rc=nonzero; shift ;;
    --match) matches+=("$2"); shift 2 ;;
    --no-match) nomatches+=("$2"); shift 2 ;;
    --count) counts+=("$2" "$3"); shift 3 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "run_case.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ $# -gt 0 ] || { echo "run_case.sh: no command" >&2; exit 2; }

# shmpirun picks a profile by the cache-line hand-off it measures between
# the cores of ranks 0 and 1 (docs/tunables/README.md), which follows the
# machine's state; cases take the CPU's profile unless they ask otherwise.
export SHMPI_MEASURED_HANDOFF_NS="${SHMPI_MEASURED_HANDOFF_NS-0}"

fail=0
problem() { echo "FAIL: $*"; fail=1; }

tmp=$(mktemp -d /tmp/shmpi-case.XXXXXX)
out="$tmp.out"
shm_before=$(ls /dev/shm 2>/dev/null | sort)
marker="SHMPI_TEST_CASE_MARKER=$$-$RANDOM"

# The marker lets us find every process of this case afterwards.
env "$marker" TMPDIR="$tmp" timeout -k 5 "$timeout_s" "$@" >"$out" 2>&1
rc=$?
cat "$out"

if [ "$rc" = 124 ] && [ "$expect_rc" != 124 ]; then problem "timed out after ${timeout_s}s"; fi
if [ "$expect_rc" = nonzero ]; then
  [ "$rc" -ne 0 ] || problem "exit code 0, expected non-zero"
elif [ "$rc" -ne "$expect_rc" ]; then
  problem "exit code $rc, expected $expect_rc"
fi
for re in "${matches[@]+"${matches[@]}"}"; do
  grep -Eq -- "$re" "$out" || problem "output lacks /$re/"
done
for re in "${nomatches[@]+"${nomatches[@]}"}"; do
  if grep -Eq -- "$re" "$out"; then problem "output has /$re/"; fi
done
i=0
while [ $i -lt ${#counts[@]} ]; do
  re=${counts[$i]} want=${counts[$((i + 1))]}
  got=$(grep -Ec -- "$re" "$out")
  [ "$got" -eq "$want" ] || problem "/$re/ matched $got lines, expected $want"
  i=$((i + 2))
done

# Give the kernel a moment to finish reaping, then look for survivors.
for _ in 1 2 3 4 5 6 7 8 9 10; do
  survivors=$(grep -l -s -z -- "$marker" /proc/[0-9]*/environ 2>/dev/null | head -5)
  [ -z "$survivors" ] && break
  sleep 0.2
done
[ -z "$survivors" ] || problem "processes survived: $(echo "$survivors" | tr '\n' ' ')"
left=$(ls -A "$tmp")
[ -z "$left" ] || problem "left behind in TMPDIR: $left"
shm_after=$(ls /dev/shm 2>/dev/null | sort)
# Other MPIs' segments (Open MPI's vader_segment.*, MPICH's) may come and go
# with jobs running beside the suite; shmpi itself never names anything.
# UCX's files (ucx_shm_posix_*) are checked only by the cases that use UCX
# (SHMPI_CASE_UCX=1: one at a time, RESOURCE_LOCK ucx); any other case may
# run beside one of them and see its files come.
others='^(vader_segment|ompi|mpich|hydra|sem\.)'
[ "${SHMPI_CASE_UCX:-0}" = 1 ] || others='^(vader_segment|ompi|mpich|hydra|sem\.|ucx_shm_posix_)'
new_shm=$(comm -13 <(echo "$shm_before") <(echo "$shm_after") | grep -v -E "$others" || true)
[ -z "$new_shm" ] || problem "left behind in /dev/shm: $new_shm"

rm -rf "$tmp" "$out"
[ $fail -eq 0 ] && echo "PASS (exit code $rc)"
exit $fail
