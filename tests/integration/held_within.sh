#!/usr/bin/env bash
# Runs a job that prints the run report (SHMPI_STATS=1) and checks the most
# bytes any rank's unexpected messages held ("unexpected payloads held:
# most N B") against LIMIT. Prints the job's output, then
# "held_within: N <= LIMIT: OK" or a FAIL line. Run under run_case.sh.
#   held_within.sh LIMIT command [args...]
set -u
limit=$1
shift
out=$(mktemp /tmp/shmpi-held.XXXXXX)  # not in TMPDIR: run_case.sh wants that empty
trap 'rm -f "$out"' EXIT
SHMPI_STATS=1 "$@" >"$out" 2>&1
rc=$?
cat "$out"
held=$(sed -n 's/^shmpi stats: unexpected payloads held: most \([0-9]*\) B .*/\1/p' "$out")
if [ -z "$held" ]; then
  echo "held_within: FAIL: no report line"
  exit 1
fi
if [ "$held" -le "$limit" ]; then
  echo "held_within: $held <= $limit: OK"
else
  echo "held_within: FAIL: $held > $limit"
  rc=1
fi
exit $rc
