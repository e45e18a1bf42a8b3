#!/usr/bin/env bash
# Configures and builds one CMake preset: scripts/build.sh release|debug|asan|tsan
# (tsan builds only the target its build preset names: tsan_tests)
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
