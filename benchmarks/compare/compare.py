#!/usr/bin/env python3
"""Side-by-side comparison of shmpi, Open MPI and MPICH on this machine.

Runs the OSU-style benchmarks of benchmarks/osu under every available MPI,
interleaved (each repeat runs every benchmark under every MPI in turn, so
machine noise hits all alike), takes per-size medians over the repeats, and
writes a Markdown report with ratios, log-log PNG plots, the exact commands,
a machine description and the machine floors (cache-line hand-off between
two cores, single-thread memcpy) measured in the same run.

Ratios always read "how many times faster shmpi is": peer/shmpi for
latency, shmpi/peer for bandwidth and message rate; > 1 means shmpi wins.
Each ratio is the median of per-repeat ratios: within a repeat the MPIs run
back to back, so a pair sees the same machine state even when the machine
drifts between fast and slow phases across repeats. The 0-byte latency is
also stated in units of the hand-off floor as osu_latency_floor measures
it: the same two ranks time the floor and MPI in turn, because on these VMs
the floor changes from one process start to the next (~0.05 or ~0.25 us).

Python 3 standard library only. Progress goes to stderr, one line per run.
"""

import argparse
import datetime
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_report  # noqa: E402  (sibling module)
import net_paths  # noqa: E402
import footprint  # noqa: E402  (sibling module: --bench footprint)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# name -> (ranks: "two" | "pairs", extra args, kind). Arguments keep the
# default suite (3 MPIs x 5 repeats) within 10 minutes on a 2-core machine:
# the multi-pair tests stop at 64 KiB (above that they repeat osu_bw and
# osu_latency), osu_match_lat runs at 8 bytes only.
BENCHMARKS = {
    "latency": ("two", [], "latency"),
    "bw": ("two", [], "bandwidth"),
    "bibw": ("two", [], "bandwidth"),
    "mbw_mr": ("pairs", ["-m", "1:65536"], "bandwidth"),
    "multi_lat": ("pairs", ["-m", "0:65536"], "latency"),
    "match_lat": ("two", ["-m", "8:8", "-i", "4000", "-x", "200"], "latency"),
    # Not a size table: 0-byte latency against the hand-off floor, both
    # measured by the same two ranks in turn (the latency target).
    "latency_floor": ("two", [], "floor"),
}
DEFAULT_SUITE = list(BENCHMARKS)
# Multi-threaded programs (need MPI_THREAD_MULTIPLE; `--threads` threads:
# receivers of osu_latency_mt, threads per rank of osu_mt_msg_rate; by
# default as many as fit the cores, since polling threads that outnumber
# the cores time the scheduler, not the MPI). Not in the default suite, to
# keep its 10 minutes; `--bench threads` runs both. Short runs: up to 64 KiB.
BENCHMARKS["latency_mt"] = ("two", ["-m", "0:65536", "-i", "1000", "-x", "50"], "latency")
BENCHMARKS["mt_msg_rate"] = ("two", ["-m", "1:65536", "-i", "20", "-x", "2"], "bandwidth")
THREAD_SUITE = ["latency_mt", "mt_msg_rate"]
# What MPI_THREAD_MULTIPLE costs a one-thread program: osu_latency and
# osu_bw started with MPI_Init_thread(MULTIPLE) (-L multiple), set beside
# the plain runs in the key figures. Part of `--bench threads`.
BENCHMARKS["latency@multiple"] = ("two", ["-m", "0:4096", "-L", "multiple"], "latency")
BENCHMARKS["bw@multiple"] = ("two", ["-m", "65536:4194304", "-L", "multiple"], "bandwidth")
LEVEL_SUITE = ["latency@multiple", "bw@multiple"]
# The receiver learns each message's size from a probe: MPI_Recv, MPI_Probe +
# MPI_Recv and MPI_Mprobe + MPI_Mrecv (the thread-safe way) in turn, at
# MPI_THREAD_MULTIPLE. Part of `--bench threads`.
BENCHMARKS["latency_mprobe"] = ("two", ["-m", "0:65536", "-L", "multiple"], "latency")
PROBE_SUITE = ["latency_mprobe"]
# What the _mt programs print (osu_common.c) when MULTIPLE is not granted:
# that MPI gets "n/a" in their tables instead of a failed run.
NOT_GRANTED = "MPI_THREAD_MULTIPLE not granted"
# Two ranks over each MPI's network path rather than shared memory
# (net_paths.py), up to 1 MiB; not in the default suite. `--bench network`
# runs both.
BENCHMARKS["net_latency"] = ("two", ["-m", "0:1048576", "-i", "1000", "-x", "50"], "latency")
BENCHMARKS["net_bw"] = ("two", ["-m", "1:1048576"], "bandwidth")
NETWORK_SUITE = list(net_paths.NET_BENCHES)
# Collectives (osu_coll.h programs) at a fixed number of ranks, named
# "<program>@<ranks>"; up to 1 MiB per rank, fewer iterations at 8 ranks
# (more ranks than cores here: each call waits for descheduled ranks).
# `--bench collectives` runs them all.
for _coll in ("allreduce", "allgather", "alltoall", "bcast", "reduce", "gather"):
    for _n in (2, 8):
        _iters = [] if _n == 2 else ["-i", "200", "-x", "20"]
        BENCHMARKS[f"{_coll}@{_n}"] = (_n, ["-m", "1048576"] + _iters, "latency")
COLLECTIVE_SUITE = [f"{c}@{n}" for c in ("allreduce", "allgather", "alltoall", "bcast", "reduce", "gather")
                    for n in (2, 8)]
# Derived datatypes and request reuse, not in the default suite; `--bench
# datatypes` runs them all. osu_halo: 2-D halo exchange of rows (contiguous)
# and columns (MPI_Type_vector), 8 to 4096 doubles; osu_latency_vector /
# _struct: ping-pong of a strided column / an array of structs with gaps;
# osu_latency_persistent / osu_bw_persistent: each row times MPI_Isend/
# MPI_Irecv and persistent requests (MPI_Start) in turn, so one run shows
# what a persistent round saves against a nonblocking one. Up to 1 MiB.
# osu_partitioned: one message against the same bytes in 8 partitions
# (MPI_Psend_init; not built for Open MPI 4.1, which lacks it).
BENCHMARKS["halo"] = ("two", ["-m", "64:32768"], "latency")
BENCHMARKS["latency_vector"] = ("two", ["-m", "8:1048576"], "latency")
BENCHMARKS["latency_struct"] = ("two", ["-m", "16:1048576"], "latency")
BENCHMARKS["latency_persistent"] = ("two", ["-m", "0:1048576"], "latency")
BENCHMARKS["bw_persistent"] = ("two", ["-m", "1:1048576"], "bandwidth")
BENCHMARKS["partitioned"] = ("two", ["-m", "8:1048576"], "latency")
DATATYPE_SUITE = ["halo", "latency_vector", "latency_struct", "latency_persistent", "bw_persistent", "partitioned"]
QUICK_SUITE = ["latency", "bw", "latency_floor"]
IMPLS = ["shmpi", "openmpi", "mpich"]
IMPL_NAMES = {"shmpi": "shmpi", "openmpi": "Open MPI", "mpich": "MPICH"}


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports bad input in one line and exits 2."""

    def error(self, message):
        sys.stderr.write(f"compare.py: error: {message} (see --help)\n")
        sys.exit(2)


def parse_args(argv):
    p = OneLineParser(description=__doc__.split("\n\n")[0])
    p.add_argument("build", help="CMake build directory (e.g. build/release)")
    p.add_argument("--out", help="output directory "
                   "(default benchmarks/results/<timestamp>)")
    p.add_argument("--repeats", "-r", type=int,
                   help="runs per benchmark and MPI (default 5, --quick 3)")
    p.add_argument("--quick", action="store_true",
                   help="2-rank osu_latency + osu_bw only, 3 repeats (< 2 min)")
    p.add_argument("--bench", help="comma list of benchmarks "
                   f"({','.join(BENCHMARKS)}); default all; 'collectives' runs "
                   "the collectives, 'threads', 'network' and 'datatypes' their "
                   "suites; 'footprint' alone: start-up and shared memory of "
                   "8 to 256 ranks (footprint.py)")
    p.add_argument("--impls", default=",".join(IMPLS),
                   help="comma list of MPIs to run (default shmpi,openmpi,mpich)")
    p.add_argument("--pairs", type=int,
                   help="pairs for osu_mbw_mr / osu_multi_lat "
                   "(default: cores/2, at least 1)")
    p.add_argument("--threads", type=int,
                   help="threads for osu_latency_mt (receivers; default cores-1) "
                   "and osu_mt_msg_rate (per rank; default cores/2), at least 1")
    p.add_argument("--timeout", type=float, default=180.0,
                   help="seconds before one run is killed (default 180)")
    p.add_argument("--budget", type=float,
                   help="seconds; no new repeat starts if it would end past this "
                   "(default 540, --quick 100: ends within 10 / 2 minutes)")
    p.add_argument("--ranks", help="--bench footprint: comma list of rank counts "
                   "(default 8,32,64,128; 256 adds ~2 minutes)")
    p.add_argument("--results", help="also write the report to this file "
                   "(e.g. benchmarks/RESULTS.md)")
    p.add_argument("--net-openmpi", choices=["ucx", "tcp"], default="ucx",
                   help="Open MPI's network path for net_*: pml ucx over tcp "
                   "(default) or ob1 with the tcp btl")
    a = p.parse_args(argv)
    a.repeats = a.repeats if a.repeats is not None else (3 if a.quick else 5)
    if a.repeats < 1 or a.repeats > 100:
        p.error(f"--repeats must be 1..100, got {a.repeats}")
    if a.timeout <= 0:
        p.error("--timeout must be positive")
    if a.budget is None:
        a.budget = 100.0 if a.quick else 540.0
    if a.budget <= 0:
        p.error("--budget must be positive")
    if a.threads is not None and (a.threads < 1 or a.threads > 64):
        p.error(f"--threads must be 1..64, got {a.threads}")
    if a.pairs is not None and a.pairs < 1:
        p.error(f"--pairs must be >= 1, got {a.pairs}")
    if not os.path.isdir(a.build):
        p.error(f"build directory '{a.build}' does not exist")
    default_suite = QUICK_SUITE if a.quick else DEFAULT_SUITE
    a.suite = a.bench.split(",") if a.bench else default_suite
    if a.suite == ["collectives"]:
        a.suite = COLLECTIVE_SUITE
    if a.suite == ["threads"]:
        a.suite = THREAD_SUITE + LEVEL_SUITE + PROBE_SUITE
    if a.suite == ["network"]:
        a.suite = NETWORK_SUITE
    if a.suite == ["datatypes"]:
        a.suite = DATATYPE_SUITE
    # footprint.py has its own defaults, unless these are given.
    a.timeout_set = any(x.startswith("--timeout") for x in argv)
    a.budget_set = any(x.startswith("--budget") for x in argv)
    bad = [b for b in a.suite if b not in BENCHMARKS and a.suite != ["footprint"]]
    if bad:
        p.error(f"unknown benchmark '{bad[0]}' (known: {','.join(BENCHMARKS)})")
    a.impl_list = a.impls.split(",")
    bad = [i for i in a.impl_list if i not in IMPLS]
    if bad:
        p.error(f"unknown MPI '{bad[0]}' (known: {','.join(IMPLS)})")
    return a


# ---------------------------------------------------------------- launchers

def cores():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def find_launchers(build, wanted, notes):
    """impl -> (launcher path, binary suffix) for each MPI that can run."""
    osu = os.path.join(build, "benchmarks", "osu")
    found = {}
    for impl in wanted:
        if impl == "shmpi":
            run, suffix = os.path.join(build, "launcher", "shmpirun"), ""
            if not os.access(run, os.X_OK):
                notes.append(f"shmpi skipped: {run} not built")
                continue
        else:
            run, suffix = shutil.which(f"mpirun.{impl}"), f".{impl}"
            if run is None:
                notes.append(f"{IMPL_NAMES[impl]} skipped: mpirun.{impl} not found")
                continue
        probe = os.path.join(osu, "osu_latency" + suffix)
        if not os.access(probe, os.X_OK):
            notes.append(f"{IMPL_NAMES[impl]} skipped: {probe} not built")
            continue
        found[impl] = (run, suffix)
    return found


def launch_prefix(impl, run, n):
    """The launcher part of a command line: each MPI with its defaults, plus
    what Open MPI needs to start at all (root, more ranks than cores)."""
    cmd = [run, "-n", str(n)]
    if impl == "openmpi":
        cmd += ["--allow-run-as-root"] if os.geteuid() == 0 else []
    if impl in ("openmpi", "shmpi"):
        cmd += ["--oversubscribe"] if n > cores() else []
    return cmd


def threads_of(bench, threads):
    """-t for a threaded benchmark: --threads, else what fits the cores
    (osu_latency_mt has one more thread, the sender; osu_mt_msg_rate runs
    its threads on both ranks)."""
    if threads is not None:
        return threads
    busy = cores() - 1 if bench == "latency_mt" else cores() // 2
    return max(1, busy)


def bench_binary(build, launchers, impl, bench):
    program = net_paths.NET_BENCHES.get(bench, bench.split("@")[0])
    return os.path.join(build, "benchmarks", "osu", f"osu_{program}{launchers[impl][1]}")


def bench_command(build, launchers, impl, bench, pairs, threads, net_openmpi):
    ranks_kind, extra, _ = BENCHMARKS[bench]
    run = launchers[impl][0]
    n = 2 if ranks_kind == "two" else 2 * pairs if ranks_kind == "pairs" else ranks_kind
    binary = bench_binary(build, launchers, impl, bench)
    if not os.access(binary, os.X_OK):
        return None
    if bench in THREAD_SUITE:
        extra = extra + ["-t", str(threads_of(bench, threads))]
    if bench in net_paths.NET_BENCHES:
        prefix = net_paths.launch_prefix(impl, run, n, net_openmpi, os.geteuid() == 0)
    else:
        prefix = launch_prefix(impl, run, n)
    return prefix + [binary] + extra


def network_ready(build, launchers, args, out_dir, notes):
    """The MPIs whose network runs may go ahead: shmpi only with
    --fake-nodes; every MPI only once a traced run showed it avoided shared
    memory (net_paths.verify). The others show n/a in the net_* tables."""
    ready = []
    for impl in launchers:
        name = compare_report.NAMES[impl]
        if impl == "shmpi" and not net_paths.shmpi_has_fake_nodes(launchers[impl][0]):
            notes.append("shmpi n/a in the network tables: this shmpirun has no --fake-nodes "
                         "(no network path built)")
            continue
        prefix = net_paths.launch_prefix(impl, launchers[impl][0], 2, args.net_openmpi, os.geteuid() == 0)
        line = net_paths.verify(impl, prefix, bench_binary(build, launchers, impl, "net_latency"),
                                os.path.join(out_dir, "raw", "net_trace"), args.timeout)
        print(f"compare.py: {line}", file=sys.stderr)
        notes.append(line.replace(impl, name, 1) + ("; its network runs are left out" if "NOT" in line else ""))
        if "NOT" not in line:
            ready.append(impl)
    return ready


# ------------------------------------------------------------------ parsing

def parse_osu(text):
    """OSU table -> (column labels, {size: [values]}), from the last header."""
    labels, rows = [], {}
    for line in text.splitlines():
        if line.startswith("# Size"):
            labels = [c for c in line[len("# Size"):].strip().split("  ") if c]
            labels = [c.strip() for c in labels]
            rows = {}
            continue
        parts = line.split()
        if not parts or line.startswith("#") or not parts[0].isdigit():
            continue
        try:
            values = [float(v) for v in parts[1:]]
        except ValueError:
            continue
        if labels and len(values) == len(labels):
            rows[int(parts[0])] = values
    return labels, rows


def parse_latency_floor(text):
    """osu_latency_floor's summary line -> {ratio, twoline_ratio, floor_us, ...}, or None."""
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0] == "latency_floor" and len(parts) % 2 == 1:
            try:
                return {k: float(v) for k, v in zip(parts[1::2], parts[2::2])}
            except ValueError:
                return None
    return None


def parse_handoff(text, key="handoff_oneway_us"):
    """(median, min) of floor_handoff's line `key`, or None."""
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0] == key:
            return float(parts[1]), float(parts[3])
    return None


# ------------------------------------------------------------------ running

def run(cmd, timeout):
    """Runs cmd in its own process group; returns (status, output, seconds)."""
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, text=True,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        status = "ok" if proc.returncode == 0 else f"exit {proc.returncode}"
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        out, _ = proc.communicate()
        status = f"timeout after {timeout:.0f}s"
    return status, out, time.monotonic() - t0


class Runner:
    """Runs every job, saves raw output, prints one progress line per run."""

    def __init__(self, out_dir, total, timeout):
        self.out_dir, self.total, self.timeout = out_dir, total, timeout
        self.done = 0
        self.commands = []
        self.failures = []
        self.seconds = {}  # label without the repeat -> [seconds per run]

    def __call__(self, label, cmd, raw_name, refusable=False):
        """The run's output, None if it failed, or NOT_GRANTED if it is a
        `refusable` (multi-threaded) run that this MPI refused to start."""
        self.done += 1
        if shlex.join(cmd) not in self.commands:
            self.commands.append(shlex.join(cmd))
        status, out, secs = run(cmd, self.timeout)
        path = os.path.join(self.out_dir, "raw", raw_name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(f"$ {shlex.join(cmd)}\n{out}")
        key = label.split(" ", 2)[-1]
        self.seconds.setdefault(key, []).append(round(secs, 2))
        refused = status != "ok" and refusable and NOT_GRANTED in out
        status = f"{status}: {NOT_GRANTED}" if refused else status
        width = len(str(self.total))
        print(f"[{self.done:>{width}}/{self.total}] {label:<32} {status} "
              f"{secs:5.1f}s", file=sys.stderr, flush=True)
        if refused:
            return NOT_GRANTED
        if status != "ok":
            self.failures.append(f"{label}: {status} (raw/{raw_name})")
            return None
        return out


def measure_floors(build, runner, rep, floors):
    cmp_dir = os.path.join(build, "benchmarks", "compare")
    handoff = os.path.join(cmp_dir, "floor_handoff")
    memcpy = os.path.join(cmp_dir, "floor_memcpy")
    if os.access(handoff, os.X_OK):
        out = runner(f"rep {rep} floor_handoff",
                     [handoff, "-i", "100000", "-r", "5"], f"floor_handoff.rep{rep}.txt")
        for key, field in (("handoff", "handoff_oneway_us"), ("twoline", "handoff_twoline_oneway_us")):
            parsed = parse_handoff(out, field) if out else None
            if parsed:
                floors[key].append(parsed)
    if os.access(memcpy, os.X_OK):
        out = runner(f"rep {rep} floor_memcpy",
                     [memcpy, "-r", "3", "-t", "5"], f"floor_memcpy.rep{rep}.txt")
        if out:
            floors["memcpy"].append(parse_osu(out)[1])


# Where the two cores of a 2-core VM sit changes from one second to the
# next (hardware threads of one core, separate cores, different dies), and
# it decides which transport wins: a ratio that compares runs made in two
# placements measures the VM, not the MPIs. Each run is bracketed by two
# short hand-off timings (floor_handoff, ~10 ms); one-way us bounds below.
PLACEMENTS = ((0.040, "one core"), (0.100, "separate cores"), (float("inf"), "different dies"))
MOVED = "moved"


def placement_of(us):
    for bound, name in PLACEMENTS:
        if us < bound:
            return name
    return PLACEMENTS[-1][1]


def probe_placement(build):
    """The placement a quick hand-off timing finds, or None."""
    handoff = os.path.join(build, "benchmarks", "compare", "floor_handoff")
    if not os.access(handoff, os.X_OK):
        return None
    status, out, _ = run([handoff, "-i", "400", "-r", "7"], 10)
    parsed = parse_handoff(out) if status == "ok" else None
    return placement_of(parsed[0]) if parsed else None


def bracketed_placement(before, after):
    """A run's placement: the one timed before and after it, else MOVED."""
    if before is None or after is None:
        return None
    return before if before == after else MOVED


def per_repeat(runs):
    """[(rep, (labels, rows))] of one (bench, impl) -> {label: {size: {rep: value}}}."""
    result = {}
    for rep, (labels, rows) in runs:
        for col, label in enumerate(labels):
            for size, values in rows.items():
                result.setdefault(label, {}).setdefault(size, {})[rep] = values[col]
    return {label: dict(sorted(by_size.items())) for label, by_size in result.items()}


def medians_of(by_label):
    """per_repeat()'s {label: {size: {rep: value}}} -> {label: {size: median}}."""
    return {label: {s: statistics.median(v.values()) for s, v in by_size.items()}
            for label, by_size in by_label.items()}


def machine_line():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (f"{model}, {os.cpu_count()} logical cores ({cores()} usable), "
            f"Linux {platform.release()}, host {platform.node()}")


def load_average():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def mpi_versions(launchers):
    versions = {}
    for impl in launchers:
        if impl == "shmpi":
            continue
        try:
            out = subprocess.run([f"mpirun.{impl}", "--version"], capture_output=True,
                                 text=True, timeout=20).stdout
        except (OSError, subprocess.TimeoutExpired):
            continue
        for line in out.splitlines():
            if "Version:" in line or "(OpenRTE)" in line or "(Open MPI)" in line:
                versions[impl] = line.split()[-1]
                break
    return versions


def main(argv):
    args = parse_args(argv)
    build = os.path.abspath(args.build)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out_dir = os.path.abspath(args.out or os.path.join(REPO, "benchmarks", "results", stamp))
    os.makedirs(out_dir, exist_ok=True)
    pairs = args.pairs or max(1, cores() // 2)

    notes = []
    launchers = find_launchers(build, args.impl_list, notes)
    for note in notes:
        print(f"compare.py: note: {note}", file=sys.stderr)
    if not launchers:
        print("compare.py: error: no MPI to run (nothing built?)", file=sys.stderr)
        return 1
    if args.suite == ["footprint"]:
        context = {"machine": machine_line(), "reproduce": compare_report.reproduce_line(argv, REPO),
                   "date": datetime.datetime.now().isoformat(timespec="seconds")}
        return footprint.run_footprint(build, launchers, launch_prefix, run, out_dir, args, context)

    net_ready = IMPLS
    if any(b in net_paths.NET_BENCHES for b in args.suite):
        net_ready = network_ready(build, launchers, args, out_dir, notes)
    jobs = []  # (rep, bench, impl, cmd), round-robin: rep > bench > impl
    for rep in range(1, args.repeats + 1):
        for bench in args.suite:
            for impl in IMPLS:
                if impl not in launchers or (bench in net_paths.NET_BENCHES and impl not in net_ready):
                    continue
                cmd = bench_command(build, launchers, impl, bench, pairs, args.threads, args.net_openmpi)
                if cmd is None:
                    if rep == 1:
                        notes.append(f"osu_{bench} not built for {IMPL_NAMES[impl]}")
                    continue
                jobs.append((rep, bench, impl, cmd))
    total = len(jobs) + 2 * args.repeats
    print(f"compare.py: {len(jobs)} benchmark runs + floors, {args.repeats} repeats, "
          f"MPIs: {', '.join(IMPL_NAMES[i] for i in launchers)}; output {out_dir}",
          file=sys.stderr)

    load_before = load_average()
    runner = Runner(out_dir, total, args.timeout)
    floors = {"handoff": [], "twoline": [], "memcpy": []}
    raw = {}  # bench -> impl -> [(rep, (labels, rows))]
    latency_floor = {}  # impl -> rep -> osu_latency_floor summary
    started = time.monotonic()
    repeat_secs, done_repeats = [], 0
    not_granted = {}  # bench -> [impl] that refused MPI_THREAD_MULTIPLE
    placements = {}  # bench -> impl -> rep -> placement of the run
    for rep in range(1, args.repeats + 1):
        elapsed = time.monotonic() - started
        if repeat_secs and elapsed + max(repeat_secs) > args.budget:
            notes.append(f"stopped after {rep - 1} of {args.repeats} repeats: another "
                         f"would pass the {args.budget:.0f} s budget (busy machine?)")
            print(f"compare.py: note: {notes[-1]}", file=sys.stderr)
            break
        measure_floors(build, runner, rep, floors)
        for r, bench, impl, cmd in jobs:
            if r != rep or impl in not_granted.get(bench, []):
                continue
            before = probe_placement(build)
            out = runner(f"rep {rep} osu_{bench} {IMPL_NAMES[impl]}", cmd,
                         f"osu_{bench}.{impl}.rep{rep}.txt", bench in THREAD_SUITE)
            where = bracketed_placement(before, probe_placement(build))
            if where is not None:
                placements.setdefault(bench, {}).setdefault(impl, {})[rep] = where
            if out is NOT_GRANTED:
                not_granted.setdefault(bench, []).append(impl)
                notes.append(f"osu_{bench}: {IMPL_NAMES[impl]} did not grant "
                             "MPI_THREAD_MULTIPLE (n/a in its table; not run again)")
                continue
            if BENCHMARKS[bench][2] == "floor":
                summary = parse_latency_floor(out) if out else None
                if summary:
                    latency_floor.setdefault(impl, {})[rep] = summary
                elif out is not None:
                    runner.failures.append(f"osu_{bench} {IMPL_NAMES[impl]} rep {rep}: "
                                           "no summary line in the output")
                continue
            parsed = parse_osu(out) if out else None
            if parsed and parsed[1]:
                raw.setdefault(bench, {}).setdefault(impl, []).append((rep, parsed))
            elif out is not None:
                runner.failures.append(f"osu_{bench} {IMPL_NAMES[impl]} rep {rep}: "
                                       "no table in the output")
        repeat_secs.append(time.monotonic() - started - elapsed)
        done_repeats = rep

    per_rep = {b: {i: per_repeat(r) for i, r in by_impl.items()} for b, by_impl in raw.items()}
    data = {
        "machine": machine_line(),
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "mpi_versions": mpi_versions(launchers),
        "impls": [i for i in IMPLS if i in launchers],
        "repeats": done_repeats,
        "pairs": pairs,
        "threads": {b: threads_of(b, args.threads) for b in THREAD_SUITE},
        "not_granted": not_granted,
        "threaded": THREAD_SUITE,
        "suite": args.suite,
        "kinds": {b: BENCHMARKS[b][2] for b in args.suite},
        "medians": {b: {i: medians_of(r) for i, r in by_impl.items()}
                    for b, by_impl in per_rep.items()},
        "per_repeat": per_rep,
        "placements": placements,
        "handoff": compare_report.handoff_summary(floors["handoff"]),
        "twoline": compare_report.handoff_summary(floors["twoline"]),
        "latency_floor": latency_floor,
        "memcpy": medians_of(per_repeat([(rep, (["MB/s"], rows)) for rep, rows
                                         in enumerate(floors["memcpy"])])).get("MB/s", {}),
        "load_before": load_before,
        "load_after": load_average(),
        "notes": notes,
        "failures": runner.failures,
        "commands": runner.commands,
        "run_seconds": runner.seconds,
        "reproduce": compare_report.reproduce_line(argv, REPO),
        "elapsed_s": round(time.monotonic() - started, 1),
        "out_dir": out_dir,
    }
    compare_report.write_all(data, out_dir, args.results)
    print(f"compare.py: done in {data['elapsed_s']:.0f}s; report {out_dir}/report.md"
          + (f" and {args.results}" if args.results else ""), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
