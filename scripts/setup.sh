#!/usr/bin/env bash
# Installs the Debian packages shmpi needs to build, test and compare
# itself with Open MPI and MPICH. As root, missing packages are installed
# with apt-get; otherwise the missing ones are named in one line.
set -euo pipefail

packages=(
  g++ cmake make pkg-config             # toolchain
  libpmix-dev libnuma-dev libhwloc-dev  # runtime and launcher dependencies
  libucx-dev                            # ranks on other nodes (UCX active messages); optional at build time
  libgtest-dev libbenchmark-dev         # tests and micro-benchmarks
  openmpi-bin libopenmpi-dev            # peer: Open MPI (comparisons, launcher tests)
  mpich libmpich-dev                    # peer: MPICH (comparisons)
  gnuplot-nox python3                   # comparison report and plots
  strace                                # comparison: checks the peers' network runs avoid shared memory
  # Private Slurm (tests/ecosystem: one node, and two slurmd on one machine)
  # for srun --mpi=pmix; slurmd brings slurm-wlm-basic-plugins (mpi/pmix)
  # and munge, which the tests do not use (auth/none).
  slurmctld slurmd slurm-client
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "setup: missing Debian packages: ${missing[*]} (run as root, or: sudo apt-get install ${missing[*]})" >&2
  exit 1
fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
