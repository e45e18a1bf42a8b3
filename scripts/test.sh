#!/usr/bin/env bash
# Sets up, builds and runs every test: the release build, then the same
# suite under AddressSanitizer + UndefinedBehaviorSanitizer, then the
# multi-threaded tests under ThreadSanitizer (its build preset builds only
# what those need: target tsan_tests).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
status=0
for preset in release asan tsan; do
  echo "== $preset: build" >&2
  scripts/build.sh "$preset"
  echo "== $preset: ctest" >&2
  ctest --preset "$preset" || status=1
done
exit $status
