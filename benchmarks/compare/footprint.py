"""compare.py --bench footprint: start-up, run time and shared memory of
N-rank jobs (issue 23, many ranks on one node).

For each rank count (--ranks; default 8, 32, 64, 128; more ranks than cores
here, so every MPI runs oversubscribed) and each MPI, one job of
osu_footprint: a ring, then an all-to-all of 8-byte messages between every
pair. Reported per job:

- start-up: from the launch to rank 0 leaving the barrier after MPI_Init
  (wall clock, so it includes the launcher and every rank's MPI_Init);
- ring / all-to-all: the slowest rank's time for ITERS rounds;
- shared memory touched: Shmem of /proc/meminfo read by rank 0 after each
  pattern, while every rank is still in the job, less Shmem before the
  launch (counts memfd, /dev/shm and SysV segments alike; other jobs on the
  machine add noise);
- total: the whole run, launch to exit.

With --results FILE the report becomes a section of FILE (between
footprint markers; replaced on the next run, the rest of FILE untouched)
and its plots join FILE's plots folder. Each job is time-boxed (--timeout,
default 60 s here); an MPI that fails or overruns at N ranks is not run at
larger N, and the report says so. No new job starts once the whole run
passes --budget (default 120 s).
"""

import os
import shlex
import shutil
import sys
import time

import compare_report

DEFAULT_RANKS = [8, 32, 64, 128]  # --ranks 8,...,256: 256 ranks add ~2 minutes
DEFAULT_TIMEOUT = 60.0
DEFAULT_BUDGET = 120.0
ITERS = 2
FIELDS = ("init_epoch_s", "ring_s", "ring_shmem_kib", "alltoall_s", "alltoall_shmem_kib")


def shmem_kib():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("Shmem:"):
                return int(line.split()[1])
    return 0


def parse_line(text):
    """The 'footprint: ...' line -> {field: float}, or None."""
    for line in (text or "").splitlines():
        if line.startswith("footprint: "):
            words = line.split()[1:]
            values = dict(zip(words[0::2], words[1::2]))
            try:
                return {k: float(values[k]) for k in FIELDS}
            except (KeyError, ValueError):
                return None
    return None


def one_job(run, cmd, timeout, raw_path):
    """Runs one job; returns (result dict or None, status)."""
    before = shmem_kib()
    launched = time.time()
    status, out, secs = run(cmd, timeout)
    with open(raw_path, "w") as f:
        f.write(f"$ {shlex.join(cmd)}\n{out}")
    values = parse_line(out) if status == "ok" else None
    if values is None:
        return None, status if status != "ok" else "no footprint line in the output"
    return {
        "startup_s": values["init_epoch_s"] - launched,
        "ring_s": values["ring_s"],
        "alltoall_s": values["alltoall_s"],
        "ring_shmem_mib": max(0.0, values["ring_shmem_kib"] - before) / 1024,
        "alltoall_shmem_mib": max(0.0, values["alltoall_shmem_kib"] - before) / 1024,
        "total_s": secs,
    }, status


def measure(build, launchers, launch_prefix, run, out_dir, ranks, timeout, budget):
    """impl -> {n: result}, and the notes on what was skipped."""
    results, notes, stopped = {}, [], set()
    os.makedirs(os.path.join(out_dir, "raw"), exist_ok=True)
    started = time.monotonic()
    commands = []
    for n in ranks:
        for impl, (launcher, suffix) in launchers.items():
            if impl in stopped:
                continue
            if time.monotonic() - started > budget:
                notes.append(f"{compare_report.NAMES[impl]}: {n} ranks not run: the run passed "
                             f"its {budget:.0f} s budget")
                continue
            binary = os.path.join(build, "benchmarks", "osu", "osu_footprint" + suffix)
            if not os.access(binary, os.X_OK):
                notes.append(f"{compare_report.NAMES[impl]}: {binary} not built")
                stopped.add(impl)
                continue
            cmd = launch_prefix(impl, launcher, n) + [binary, str(ITERS)]
            if impl in ("openmpi", "shmpi") and "--oversubscribe" not in cmd:
                cmd.insert(3, "--oversubscribe")
            commands.append(shlex.join(cmd))
            raw = os.path.join(out_dir, "raw", f"footprint.{impl}.np{n}.txt")
            result, status = one_job(run, cmd, timeout, raw)
            print(f"footprint: {compare_report.NAMES[impl]:<8} {n:>4} ranks: {status}",
                  file=sys.stderr, flush=True)
            if result is None:
                notes.append(f"{compare_report.NAMES[impl]}: {n} ranks: {status} "
                             f"(time box {timeout:.0f} s); larger jobs not run")
                stopped.add(impl)
                continue
            results.setdefault(impl, {})[n] = result
    return results, notes, commands


# (result key, column title, format): one table each.
METRICS = (
    ("startup_s", "Start-up (s)", "{:.2f}"),
    ("ring_s", "Ring, {} rounds (s)".format(ITERS), "{:.3f}"),
    ("alltoall_s", "All-to-all, {} rounds (s)".format(ITERS), "{:.3f}"),
    ("ring_shmem_mib", "Shmem after the ring (MiB)", "{:.1f}"),
    ("alltoall_shmem_mib", "Shmem after the all-to-all (MiB)", "{:.1f}"),
)


def table(results, impls, ranks, key, fmt):
    """Ranks down, MPIs across; '–' where a job was not run or failed."""
    lines = ["| Ranks | " + " | ".join(compare_report.NAMES[i] for i in impls) + " |",
             "|---:|" + "---:|" * len(impls)]
    for n in ranks:
        cells = [fmt.format(results[i][n][key]) if n in results.get(i, {}) else "–" for i in impls]
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    return lines


def plot(results, impls, out_dir, key, ylabel, name):
    if shutil.which("gnuplot") is None:
        return None
    ranks = sorted({n for i in impls for n in results.get(i, {})})
    with open(os.path.join(out_dir, name + ".dat"), "w") as f:
        f.write("# ranks " + " ".join(impls) + "\n")
        for n in ranks:
            vals = [results.get(i, {}).get(n, {}).get(key) for i in impls]
            f.write(f"{n} " + " ".join("NaN" if v is None else f"{v:.4f}" for v in vals) + "\n")
    series = [f"'{name}.dat' using 1:{c + 2} with linespoints lw 2 title '{compare_report.NAMES[i]}'"
              for c, i in enumerate(impls)]
    script = [f"set terminal {compare_report.gnuplot_terminal()}", f"set output '{name}.png'",
              "set datafile missing 'NaN'", "set logscale x 2", "set logscale y", "set grid",
              "set key top left", "set xlabel 'Ranks (2 cores: oversubscribed)'",
              f"set ylabel '{ylabel}'", f"set title 'footprint: {ylabel} against ranks'",
              "plot " + ", \\\n     ".join(series)]
    return compare_report.render(out_dir, name, script)


BEGIN, END = compare_report.FOOTPRINT_BEGIN, compare_report.FOOTPRINT_END


def report(data, plots, image_prefix):
    """The footprint section, between BEGIN and END markers."""
    impls = [i for i in data["impls"] if i in data["results"]]
    out = [BEGIN, "## Many ranks on one node: footprint and start-up", "",
           f"- Machine: {data['machine']}", f"- Date: {data['date']}",
           f"- Method: one job per MPI and rank count ({', '.join(map(str, data['ranks']))}), "
           f"osu_footprint with {ITERS} rounds of a ring and of an all-to-all of 8-byte "
           "messages between every pair (nonblocking point-to-point); start-up is launch "
           "to rank 0 leaving the barrier after MPI_Init; times are the slowest rank's; "
           "Shmem is /proc/meminfo's, read by rank 0 after each pattern while every rank "
           "is in the job, less its value before the launch (other jobs add noise). Each "
           "MPI runs with its launcher's defaults plus --oversubscribe.",
           f"- Reproduce: `{data['reproduce']}`",
           f"- Took {data['elapsed_s']:.0f} s.", ""]
    out += [f"> Note: {n}" for n in data["notes"]] + ([""] if data["notes"] else [])
    for key, title, fmt in METRICS:
        out += [f"{title}:", ""] + table(data["results"], impls, data["ranks"], key, fmt) + [""]
    out += [f"![{name}]({image_prefix}{png})" for name, png in plots.items()] + [""]
    out += ["### Commands", "", "```"] + data["commands"] + ["```", END, ""]
    return "\n".join(out)


def merge_section(existing, section):
    """`existing` with its footprint section replaced by `section` (appended
    when it has none): the other benchmarks' report stays as it is."""
    if BEGIN in existing and END in existing:
        head, rest = existing.split(BEGIN, 1)
        tail = rest.split(END, 1)[1].lstrip("\n")
        return head + section.rstrip("\n") + "\n" + (("\n" + tail) if tail else "")
    return existing.rstrip("\n") + ("\n\n" if existing.strip() else "") + section


def write_results(path, section, plots, out_dir):
    """Merges the section into `path` and copies the plots into the folder
    beside it (RESULTS.md -> RESULTS.plots/), leaving the other plots there."""
    folder = os.path.splitext(os.path.basename(path))[0] + ".plots"
    dest = os.path.join(os.path.dirname(os.path.abspath(path)), folder)
    os.makedirs(dest, exist_ok=True)
    for png in plots.values():
        shutil.copy2(os.path.join(out_dir, png), dest)
    existing = open(path).read() if os.path.exists(path) else ""
    with open(path, "w") as f:
        f.write(merge_section(existing, section))
    return folder + "/"


def run_footprint(build, launchers, launch_prefix, run, out_dir, args, context):
    """The whole --bench footprint run; `context` has machine, date,
    reproduce. Writes report.md (and args.results); returns the exit status."""
    started = time.monotonic()
    timeout = args.timeout if args.timeout_set else DEFAULT_TIMEOUT
    budget = args.budget if args.budget_set else DEFAULT_BUDGET
    ranks = [int(n) for n in args.ranks.split(",")] if args.ranks else DEFAULT_RANKS
    results, notes, commands = measure(build, launchers, launch_prefix, run, out_dir,
                                       ranks, timeout, budget)
    data = dict(context, results=results, notes=notes, commands=commands, ranks=ranks,
                impls=list(launchers), elapsed_s=time.monotonic() - started)
    impls = [i for i in launchers if i in results]
    plots = {}
    for key, label, name in (("alltoall_shmem_mib", "Shmem after all-to-all (MiB)", "footprint_shmem"),
                             ("startup_s", "Start-up (s)", "footprint_startup")):
        png = plot(results, impls, out_dir, key, label, name)
        if png:
            plots[name] = png
    with open(os.path.join(out_dir, "report.md"), "w") as f:
        f.write(report(data, plots, ""))
    if args.results:
        folder = os.path.splitext(os.path.basename(args.results))[0] + ".plots/"
        write_results(args.results, report(data, plots, folder), plots, out_dir)
    print(f"compare.py: footprint done in {data['elapsed_s']:.0f}s; report {out_dir}/report.md",
          file=sys.stderr)
    return 0 if results else 1
