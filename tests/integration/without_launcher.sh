#!/usr/bin/env bash
# A program started without a launcher runs as a singleton; one that finds
# launcher variables but no launcher fails with one clear line. The stale
# server address is port 1, which no launcher (ephemeral ports) can hold.
set -u
hello=$1
out=$("$hello") || { echo "FAIL: singleton run failed: $out"; exit 1; }
[ "$out" = "Hello from rank 0 of 1" ] || { echo "FAIL: singleton printed: $out"; exit 1; }
out=$(env PMIX_NAMESPACE=stale PMIX_RANK=0 'PMIX_SERVER_URI41=stale-1@0.0;tcp4://127.0.0.1:1' "$hello" 2>&1)
rc=$?
[ $rc -ne 0 ] || { echo "FAIL: stale launcher variables gave exit 0"; exit 1; }
lines=$(printf '%s\n' "$out" | grep -c .)
echo "$out"
[ "$lines" -eq 1 ] || { echo "FAIL: expected one line, got $lines"; exit 1; }
echo "$out" | grep -q "MPI_Init: .*cannot be reached" || { echo "FAIL: unclear message"; exit 1; }
out=$(env PMI_RANK=0 PMI_FD=9 "$hello" 2>&1)
[ $? -ne 0 ] && echo "$out" | grep -q "PMIx launcher" || { echo "FAIL: PMI-1 launcher not refused: $out"; exit 1; }
echo PASS
