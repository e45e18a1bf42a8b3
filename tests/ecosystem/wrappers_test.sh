#!/usr/bin/env bash
# The build-tree compiler wrappers: --showme output, flags only when
# linking, arguments passed through untouched, a missing compiler named in
# one line, and programs built with shmpicc/shmpicxx that run under shmpirun.
#
#   wrappers_test.sh TOOLS_DIR INCLUDE_DIR LIB_DIR SHMPIRUN RUN_CASE SOURCE_DIR
# SHMPI_TEST_CFLAGS: extra compiler flags (the sanitizer flags of an ASan build).
set -u
tools=$1 includedir=$2 libdir=$3 shmpirun=$4 run_case=$5 src=$6
extra=${SHMPI_TEST_CFLAGS:-}
fail=0
problem() { echo "FAIL: $*"; fail=1; }
expect() {  # expect WHAT GOT WANT
  [ "$2" = "$3" ] || problem "$1: got '$2', expected '$3'"
}
tmp=$(mktemp -d /tmp/shmpi-wrappers.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
unset SHMPI_CC SHMPI_CXX CC CXX

cc=$tools/shmpicc cxx=$tools/shmpicxx
link="-L$libdir -Wl,-rpath,$libdir -lshmpi"
expect "--showme:compile" "$("$cc" --showme:compile)" "-I$includedir"
expect "--showme:link" "$("$cc" --showme:link)" "$link"
expect "--showme:incdirs" "$("$cc" --showme:incdirs)" "$includedir"
expect "--showme:libdirs" "$("$cc" --showme:libdirs)" "$libdir"
expect "--showme:libs" "$("$cc" --showme:libs)" "shmpi"
expect "--showme:command" "$("$cc" --showme:command)" "cc"
expect "shmpicxx --showme:command" "$("$cxx" --showme:command)" "c++"
expect "--showme (link)" "$("$cc" --showme -O2 a.c -o a)" "cc -I$includedir -O2 a.c -o a $link"
expect "--showme last" "$("$cc" a.c --showme)" "cc -I$includedir a.c $link"
for flag in -c -E -S -M -MM -fsyntax-only; do
  expect "--showme $flag" "$("$cc" --showme "$flag" a.c)" "cc -I$includedir $flag a.c"
done
expect "SHMPI_CC" "$(SHMPI_CC='ccache gcc' CC=clang "$cc" --showme a.c)" "ccache gcc -I$includedir a.c $link"
expect "CC" "$(CC=gcc "$cxx" --showme:command)" "c++"
expect "CXX" "$(CXX=g++ "$cxx" --showme:command)" "g++"
expect "CC=shmpicc (no recursion)" "$(CC=$cc "$cc" --showme:command)" "cc"
out=$("$cc" --showme:bogus 2>&1)
rc=$?
[ $rc -eq 2 ] && grep -q "unknown option --showme:bogus" <<<"$out" || problem "--showme:bogus: rc $rc, '$out'"

# A missing compiler: one line on stderr naming it, non-zero exit.
for setting in "SHMPI_CC=no-such-compiler-42" "CC=/opt/none/no-such-compiler-42"; do
  out=$(env "$setting" "$cc" "$src/examples/ring.c" -o "$tmp/x" 2>&1)
  rc=$?
  echo "$setting: $out"
  [ $rc -ne 0 ] || problem "$setting: exit code 0"
  [ "$(grep -c . <<<"$out")" -eq 1 ] || problem "$setting: expected one line, got: $out"
  grep -q "compiler '.*no-such-compiler-42' not found" <<<"$out" || problem "$setting: unclear: $out"
done
out=$(env -i PATH=/nonexistent "$cxx" "$src/examples/ring.c" 2>&1)
rc=$?
echo "no compiler on PATH: $out"
[ $rc -ne 0 ] && [ "$(grep -c . <<<"$out")" -eq 1 ] && grep -q "shmpicxx: compiler 'c++' not found" <<<"$out" ||
  problem "no compiler on PATH: rc $rc: $out"

# Real builds: compile and link in one step, in two steps, C++ with
# shmpicxx, and an output name with a space (arguments stay whole).
# shellcheck disable=SC2086
"$cc" $extra -O2 "$src/examples/ring.c" -o "$tmp/ring one" || problem "shmpicc ring.c failed"
# shellcheck disable=SC2086
"$cc" $extra -c "$src/examples/hello.c" -o "$tmp/hello.o" && "$cc" $extra "$tmp/hello.o" -o "$tmp/hello" ||
  problem "shmpicc -c, then link, failed"
cat >"$tmp/hello_cxx.cpp" <<'CXX'
#include <mpi.h>
#include <iostream>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::cout << "C++ hello from rank " << rank << " of " << size << std::endl;
  return MPI_Finalize();
}
CXX
# shellcheck disable=SC2086
"$cxx" $extra "$tmp/hello_cxx.cpp" -o "$tmp/hello_cxx" || problem "shmpicxx hello_cxx.cpp failed"
ldd "$tmp/ring one" | grep -q "libshmpi.so.0 => $libdir/libshmpi.so.0" ||
  problem "ring does not load libshmpi from $libdir: $(ldd "$tmp/ring one" | grep shmpi)"

[ $fail -eq 0 ] || exit 1
"$run_case" --timeout 30 --match "ring: 2 ranks, 5 laps, token 5 \(expected 5\)" -- \
  "$shmpirun" -n 2 "$tmp/ring one" 5 || fail=1
"$run_case" --timeout 30 --count "^Hello from rank [0-9] of 2$" 2 -- "$shmpirun" -n 2 "$tmp/hello" || fail=1
"$run_case" --timeout 30 --count "^C\+\+ hello from rank [0-9] of 2$" 2 -- "$shmpirun" -n 2 "$tmp/hello_cxx" || fail=1
[ $fail -eq 0 ] && echo "PASS: wrappers"
exit $fail
