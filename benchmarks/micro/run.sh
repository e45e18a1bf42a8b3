#!/usr/bin/env bash
# Runs every Google Benchmark micro-benchmark of a build:
#   benchmarks/micro/run.sh [build-dir] [extra google-benchmark flags]
set -euo pipefail
build=${1:-build/release}
shift || true
for bench in ring_bench match_bench copy_bench; do
  echo "== $bench"
  "$build/benchmarks/micro/$bench" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true "$@"
done
