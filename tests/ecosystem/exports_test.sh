#!/usr/bin/env bash
# libshmpi.so exports exactly the MPI API: for every function declared in
# mpi.h both MPI_<name> and PMPI_<name> are defined in the dynamic symbol
# table, every exported MPI_/PMPI_ symbol is declared in mpi.h, and nothing
# else is exported but the C++ API of namespace shmpi (not its internal
# namespaces) and the linker's own symbols.
#
#   exports_test.sh LIBSHMPI MPI_H [CC]
set -u
lib=$1 header=$2 cc=${3:-cc}
fail=0
problem() { echo "FAIL: $*"; fail=1; }

# Function names declared in mpi.h: preprocess (the declarations come from a
# macro), cut into statements, drop typedefs, take NAME( of MPI_/PMPI_.
declared=$("$cc" -E -P -x c "$header" | tr '\n' ' ' | tr ';' '\n' | grep -v '^ *typedef' |
  grep -oE '\bP?MPI_[A-Za-z0-9_]+ *\(' | tr -d ' (' | sort -u)
mpi_names=$(grep '^MPI_' <<<"$declared" | sed 's/^MPI_//')
count=$(grep -c . <<<"$mpi_names")
[ "$count" -ge 50 ] || problem "found only $count MPI_ functions in $header (parser broken?)"

exported=$(nm -D --defined-only "$lib" | awk '{print $NF}' | sort -u)
[ -n "$exported" ] || { echo "FAIL: nm -D found no symbols in $lib"; exit 1; }

missing=()
for name in $mpi_names; do
  grep -qx "MPI_$name" <<<"$exported" || missing+=("MPI_$name")
  grep -qx "PMPI_$name" <<<"$declared" || missing+=("PMPI_$name (not declared in mpi.h)")
  grep -qx "PMPI_$name" <<<"$exported" || missing+=("PMPI_$name")
done
[ ${#missing[@]} -eq 0 ] || problem "declared in mpi.h but not exported: ${missing[*]}"

undeclared=$(grep -E '^P?MPI_' <<<"$exported" | grep -vxF -f <(echo "$declared"))
[ -z "$undeclared" ] || problem "exported but not declared in mpi.h: $(echo $undeclared)"

# Anything else must be the C++ API (namespace shmpi, not an internal one)
# or a symbol the toolchain always exports.
others=$(grep -vE '^P?MPI_' <<<"$exported" | grep -vxE '_init|_fini|_edata|_end|__bss_start' || true)
leaks=()
while IFS= read -r sym; do
  [ -n "$sym" ] || continue
  plain=$(c++filt <<<"$sym")
  if grep -qE '^((typeinfo|typeinfo name|vtable) for )?shmpi::' <<<"$plain" &&
     ! grep -qE 'shmpi::(runtime|pml|btl|contract|launcher|detail)::' <<<"$plain"; then
    continue
  fi
  leaks+=("$plain")
done <<<"$others"
if [ ${#leaks[@]} -gt 0 ]; then
  problem "${#leaks[@]} symbols leak from $lib, e.g.:"
  printf '  %s\n' "${leaks[@]:0:15}"
fi

[ $fail -eq 0 ] && echo "PASS: $count functions exported as MPI_ and PMPI_, nothing else leaks"
exit $fail
