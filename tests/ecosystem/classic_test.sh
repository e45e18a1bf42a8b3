#!/usr/bin/env bash
# Source compatibility: one classic MPI program built with shmpicc and with
# Open MPI's mpicc, run under shmpirun and mpirun.openmpi; rank 0's output
# (stdout) must be the same in every combination:
#   shmpi build under shmpirun, shmpi build under mpirun.openmpi (PMIx),
#   Open MPI build under mpirun.openmpi.
# Each run goes through run_case.sh (exit code, timeout, nothing left behind).
#
#   classic_test.sh SOURCE NP SHMPICC SHMPIRUN RUN_CASE [program args...]
# Exits 77 (skipped) without mpicc.openmpi/mpirun.openmpi.
# SHMPI_TEST_CFLAGS: extra flags for the shmpicc build (ASan builds).
set -u
source=$1 np=$2 shmpicc=$3 shmpirun=$4 run_case=$5
shift 5
extra=${SHMPI_TEST_CFLAGS:-}
for tool in mpicc.openmpi mpirun.openmpi; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done
tmp=$(mktemp -d /tmp/shmpi-classic.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
unset SHMPI_CC CC

# shellcheck disable=SC2086
"$shmpicc" $extra -O2 -Wall "$source" -o "$tmp/with_shmpi" -lm || { echo "FAIL: shmpicc $source"; exit 1; }
mpicc.openmpi -O2 -Wall "$source" -o "$tmp/with_ompi" -lm || { echo "FAIL: mpicc.openmpi $source"; exit 1; }

ompirun=(mpirun.openmpi --allow-run-as-root --oversubscribe --mca btl self,vader -n "$np")
fail=0
run() {  # run NAME command...: stdout to $tmp/NAME.out
  local name=$1
  shift
  echo "== $name: $*"
  "$run_case" --timeout 60 -- sh -c 'out=$1; shift; exec "$@" >"$out"' sh "$tmp/$name.out" "$@" || fail=1
}
run shmpi_shmpirun "$shmpirun" -n "$np" --oversubscribe "$tmp/with_shmpi" "$@"
run shmpi_mpirun "${ompirun[@]}" "$tmp/with_shmpi" "$@"
run ompi_mpirun "${ompirun[@]}" "$tmp/with_ompi" "$@"

echo "== rank 0 output (Open MPI build under mpirun.openmpi):"
cat "$tmp/ompi_mpirun.out"
[ -s "$tmp/ompi_mpirun.out" ] || { echo "FAIL: no output"; fail=1; }
for name in shmpi_shmpirun shmpi_mpirun; do
  diff -u "$tmp/ompi_mpirun.out" "$tmp/$name.out" >"$tmp/diff" || {
    echo "FAIL: $name output differs from Open MPI's:"
    cat "$tmp/diff"
    fail=1
  }
done
[ $fail -eq 0 ] && echo "PASS: $(basename "$source") -n $np: same output with shmpi and Open MPI"
exit $fail
