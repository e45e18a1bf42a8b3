#!/usr/bin/env bash
# The main job: set up, build, and run the 2-rank latency and bandwidth
# benchmarks under shmpi, Open MPI and MPICH side by side (medians of
# repeats, ratios per size). The report lands in benchmarks/results/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh release
exec python3 benchmarks/compare/compare.py build/release --quick "$@"
