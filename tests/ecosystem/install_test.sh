#!/usr/bin/env bash
# `cmake --install` into a temporary prefix, then move the prefix (an
# installation is relocatable) and use it as a user would: build
# examples/ring.c with find_package(shmpi) (C, and C++ through shmpi::shmpi),
# with pkg-config, and with the installed shmpicc; run each with the
# installed shmpirun -n 2 and check the output. examples/cxx_ring.cpp (the
# C++ API, shmpi.hpp) is built the same ways with C++20.
#
#   install_test.sh BUILD_DIR SOURCE_DIR RUN_CASE
# SHMPI_TEST_CFLAGS: extra compiler flags (the sanitizer flags of an ASan build).
set -u
build=$1 src=$2 run_case=$3
extra=${SHMPI_TEST_CFLAGS:-}
fail=0
problem() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d /tmp/shmpi-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
unset SHMPI_CC SHMPI_CXX CC CXX

cmake --install "$build" --prefix "$tmp/staged" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; echo "FAIL: cmake --install"; exit 1; }
mv "$tmp/staged" "$tmp/moved prefix"  # a space, to catch unquoted paths
prefix="$tmp/moved prefix"
libdir=$(find "$prefix" -name 'libshmpi.so' -printf '%h\n' | head -1)
for f in bin/shmpirun bin/shmpicc bin/shmpicxx include/mpi.h include/shmpi/tunables.hpp \
         "${libdir#"$prefix/"}/libshmpi.so.0" "${libdir#"$prefix/"}/pkgconfig/shmpi.pc" \
         "${libdir#"$prefix/"}/cmake/shmpi/shmpiConfig.cmake" \
         "${libdir#"$prefix/"}/cmake/shmpi/shmpiConfigVersion.cmake"; do
  [ -e "$prefix/$f" ] || problem "not installed: $f"
done
[ ! -e "$src/include/shmpi.hpp" ] || [ -e "$prefix/include/shmpi.hpp" ] || problem "not installed: include/shmpi.hpp"
soname=$(readelf -d "$libdir/libshmpi.so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = libshmpi.so.0 ] || problem "SONAME is '$soname', expected libshmpi.so.0"
[ $fail -eq 0 ] || exit 1

[ ! -x "$build/launcher/shmpi_info" ] || [ -x "$prefix/bin/shmpi_info" ] || problem "not installed: bin/shmpi_info"
mkdir -p "$tmp/app" && cp "$src/examples/ring.c" "$src/examples/cxx_ring.cpp" "$tmp/app/"

# 1. find_package(shmpi), C with shmpi::mpi, C++ with shmpi::shmpi.
cat >"$tmp/app/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(ring_app C CXX)
find_package(shmpi 0.1 REQUIRED)
add_executable(ring_cmake ring.c)
target_link_libraries(ring_cmake PRIVATE shmpi::mpi)
add_executable(cxx_ring_cmake cxx_ring.cpp)
target_link_libraries(cxx_ring_cmake PRIVATE shmpi::shmpi)
set_target_properties(cxx_ring_cmake PROPERTIES CXX_STANDARD 20 CXX_STANDARD_REQUIRED ON)
if(NOT EXISTS "${shmpi_MPIEXEC_EXECUTABLE}" OR NOT EXISTS "${shmpi_MPICC}")
  message(FATAL_ERROR "shmpi_MPIEXEC_EXECUTABLE or shmpi_MPICC wrong: ${shmpi_MPIEXEC_EXECUTABLE}")
endif()
find_package(shmpi 9.0 QUIET)
if(shmpi_FOUND)
  message(FATAL_ERROR "find_package(shmpi 9.0) accepted version ${shmpi_VERSION}")
endif()
CMAKE
if cmake -S "$tmp/app" -B "$tmp/app/build" -DCMAKE_PREFIX_PATH="$prefix" \
     -DCMAKE_C_FLAGS="$extra" -DCMAKE_CXX_FLAGS="$extra" >"$tmp/cmake.log" 2>&1 &&
   cmake --build "$tmp/app/build" >>"$tmp/cmake.log" 2>&1; then
  echo "find_package(shmpi): built ring_cmake and cxx_ring_cmake"
else
  cat "$tmp/cmake.log"
  problem "building with find_package(shmpi) failed"
fi

# 2. pkg-config (its output escapes the space in the prefix for a shell, as
# make would run it: hence eval).
export PKG_CONFIG_PATH="$libdir/pkgconfig"
eval "pc_libdir=$(pkg-config --variable=libdir shmpi)"
if eval "cc $extra $(pkg-config --cflags shmpi) \"\$tmp/app/ring.c\" -o \"\$tmp/app/ring_pc\" \
      $(pkg-config --libs shmpi) -Wl,-rpath,\"\$pc_libdir\""; then
  echo "pkg-config: built ring_pc ($(pkg-config --modversion shmpi))"
else
  problem "building with pkg-config failed: $(pkg-config --cflags --libs shmpi 2>&1)"
fi

# 3. The installed wrapper names the moved prefix.
[ "$("$prefix/bin/shmpicc" --showme:incdirs)" = "$prefix/include" ] ||
  problem "installed shmpicc --showme:incdirs: $("$prefix/bin/shmpicc" --showme:incdirs)"
# shellcheck disable=SC2086
"$prefix/bin/shmpicc" $extra "$tmp/app/ring.c" -o "$tmp/app/ring_wrapper" || problem "installed shmpicc failed"
# shellcheck disable=SC2086
"$prefix/bin/shmpicxx" $extra -std=c++20 "$tmp/app/cxx_ring.cpp" -o "$tmp/app/cxx_ring_wrapper" ||
  problem "installed shmpicxx failed"
ln -s "$prefix/bin/shmpicc" "$tmp/shmpicc-link"  # through a symbolic link too
[ "$("$tmp/shmpicc-link" --showme:libdirs)" = "$libdir" ] || problem "shmpicc through a symlink: wrong libdir"

[ $fail -eq 0 ] || exit 1
for program in ring_cmake cxx_ring_cmake ring_pc ring_wrapper cxx_ring_wrapper; do
  exe=$tmp/app/$program
  [ -x "$exe" ] || exe=$tmp/app/build/$program
  loaded=$(ldd "$exe" | sed -n 's/^[[:space:]]*libshmpi.so.0 => \(.*\) (0x.*/\1/p')
  [ -n "$loaded" ] && [ "$(readlink -f "$loaded")" = "$(readlink -f "$libdir/libshmpi.so.0")" ] ||
    problem "$program does not load the installed libshmpi: $(ldd "$exe" | grep shmpi)"
  "$run_case" --timeout 30 --match "^(cxx_)?ring: 2 ranks, 4 laps, token 4 \(expected 4\)" -- \
    "$prefix/bin/shmpirun" -n 2 "$exe" 4 || problem "$program under the installed shmpirun"
done
[ $fail -eq 0 ] && echo "PASS: install, find_package, pkg-config, installed wrapper"
exit $fail
