#!/usr/bin/env bash
# Runs `report_traffic matrix` on 3 ranks with --report comm-matrix FILE and
# checks both CSV files exactly, and FILE.png: a PNG when gnuplot is in
# PATH, else the line saying there is none. Run under run_case.sh.
#   report_matrix.sh SHMPIRUN REPORT_TRAFFIC
set -u
shmpirun=$1 program=$2
dir=$(mktemp -d /tmp/shmpi-matrix.XXXXXX)  # not in TMPDIR: run_case.sh wants that empty
trap 'rm -rf "$dir"' EXIT
fail=0
problem() { echo "FAIL: $*"; fail=1; }

# A relative FILE: shmpirun hands the ranks its absolute path.
(cd "$dir" && "$shmpirun" -n 3 --oversubscribe --report comm-matrix m.csv "$program" matrix) 2>&1 | tee "$dir/out"
[ "${PIPESTATUS[0]}" -eq 0 ] || problem "shmpirun failed"

want_bytes=$'sender/receiver,0,1,2\n0,50,100,0\n1,0,0,400\n2,900,0,0'
want_messages=$'sender/receiver,0,1,2\n0,1,1,0\n1,0,0,2\n2,3,0,0'
[ "$(cat "$dir/m.csv" 2>/dev/null)" = "$want_bytes" ] || problem "m.csv is: $(cat "$dir/m.csv" 2>&1)"
[ "$(cat "$dir/m.csv.messages.csv" 2>/dev/null)" = "$want_messages" ] ||
  problem "m.csv.messages.csv is: $(cat "$dir/m.csv.messages.csv" 2>&1)"
if command -v gnuplot >/dev/null; then
  [ "$(head -c 4 "$dir/m.csv.png" 2>/dev/null | od -An -c | tr -d ' ')" = '211PNG' ] || problem "m.csv.png is not a PNG"
else
  grep -q "shmpirun: gnuplot is not in PATH: no heat map" "$dir/out" || problem "no line about gnuplot missing"
  [ ! -e "$dir/m.csv.png" ] || problem "m.csv.png exists without gnuplot"
fi
grep -q "shmpi stats" "$dir/out" && problem "a stats report nobody asked for"
[ $fail -eq 0 ] && echo "report_matrix: OK"
exit $fail
