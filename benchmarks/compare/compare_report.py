"""Report writer of compare.py: Markdown tables, gnuplot PNGs, JSON, commands.

Every ratio reads "how many times faster shmpi is": peer/shmpi for latency,
shmpi/peer for bandwidth and message rate; > 1 means shmpi is faster. A
reported ratio is the median over repeats of the per-repeat ratio (the MPIs
of one repeat run back to back, in the same machine state); value columns
stay per-size medians.
"""

import json
import math
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys

import column_pairs  # sibling module: two columns within each MPI

NAMES = {"shmpi": "shmpi", "openmpi": "Open MPI", "mpich": "MPICH"}
PEERS = ["openmpi", "mpich"]
KEY_SIZES = {"latency": [0, 8, 4096, 1 << 20], "bandwidth": [4096, 1 << 16, 1 << 22]}
MATCH_PLOT_SIZE = 8  # osu_match_lat is plotted against K at this size


def handoff_summary(samples):
    """[(median, min)] per repeat -> {"median_us", "min_us", "repeats"}."""
    if not samples:
        return None
    return {"median_us": statistics.median(m for m, _ in samples),
            "min_us": min(lo for _, lo in samples), "repeats": len(samples)}


def floor_ratio_line(data):
    """One report line: each MPI's 0-byte latency in units of the hand-off
    floors, from osu_latency_floor (the same two ranks time the floor and
    MPI in turn, so both see one machine state); median over repeats of
    each run's median over rounds."""
    parts = []
    for impl in data["impls"]:
        runs = list(data.get("latency_floor", {}).get(impl, {}).values())
        if not runs:
            continue
        med = {k: statistics.median(r[k] for r in runs)
               for k in ("ratio", "twoline_ratio", "floor_us", "latency_us")}
        parts.append(f"{NAMES[impl]} **{med['ratio']:.2f}x** ({med['twoline_ratio']:.2f}x the "
                     f"two-line floor; {med['latency_us']:.3f} us over {med['floor_us']:.3f} us)")
    if not parts:
        return []
    return ["- 0-byte latency over the one-line hand-off floor, both timed in turn by the "
            "same two ranks (osu_latency_floor; lower is better): " + "; ".join(parts) + "."]


def reproduce_line(argv, repo):
    script = os.path.relpath(os.path.abspath(sys.argv[0]), repo)
    line = shlex.join(["python3", script] + list(argv))
    cwd = os.getcwd()
    return line if os.path.samefile(cwd, repo) else f"cd {shlex.quote(cwd)} && {line}"


def fmt_size(n):
    if n < 1024:
        return f"{n} B"
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20} MiB"
    if n >= 1024 and n % 1024 == 0:
        return f"{n >> 10} KiB"
    return f"{n} B"


def fmt(v):
    return "–" if v is None else f"{v:.2f}"


def ratio(kind, shmpi, peer):
    """How many times faster shmpi is (> 1: shmpi faster)."""
    if shmpi is None or peer is None or shmpi <= 0 or peer <= 0:
        return None
    return peer / shmpi if kind == "latency" else shmpi / peer


def paired_ratio(kind, shmpi, peer, same=None):
    """Median over the repeats both measured of ratio(kind, ...), or None.

    shmpi, peer: {rep: value} of one size. The MPIs of a repeat run back to
    back, so each per-repeat ratio compares them in the same machine state.
    same: the repeats in which both runs found the cores in one placement;
    only those count when there is any (None: every repeat counts).
    """
    rs = [ratio(kind, shmpi[r], peer[r]) for r in paired_reps(shmpi, peer, same)]
    rs = [r for r in rs if r is not None]
    return statistics.median(rs) if rs else None


def paired_reps(shmpi, peer, same=None):
    """The repeats paired_ratio takes its ratios from."""
    reps = [r for r in shmpi if r in peer]
    if same is not None and any(r in same for r in reps):
        reps = [r for r in reps if r in same]
    return reps


def same_placement(data, bench, peer):
    """Repeats in which shmpi's and peer's runs of bench saw the cores in
    one placement that held through each run; None when not recorded."""
    where = data.get("placements", {}).get(bench)
    if not where:
        return None
    shm, other = where.get("shmpi", {}), where.get(peer, {})
    return {r for r, p in shm.items() if p != "moved" and other.get(r) == p}


def size_series(data, bench, label, size, peer):
    """shmpi's and peer's {rep: value} for one benchmark metric and size,
    and the repeats run in one placement (same_placement)."""
    by_impl = data["per_repeat"].get(bench, {})
    shm = by_impl.get("shmpi", {}).get(label, {}).get(size, {})
    other = by_impl.get(peer, {}).get(label, {}).get(size, {})
    return shm, other, same_placement(data, bench, peer)


def size_ratio(data, bench, label, size, peer):
    """paired_ratio of shmpi against peer for one benchmark metric and size."""
    return paired_ratio(data["kinds"][bench], *size_series(data, bench, label, size, peer))


# Marks a ratio that rests on one repeat pair while the run had several:
# the only pair whose runs shared a placement decided it alone.
ONE_PAIR = "¹"


def one_pair(data, bench, label, size, peer):
    """Whether size_ratio took a single pair out of several repeats."""
    if data.get("repeats", 1) < 2:
        return False
    return len(paired_reps(*size_series(data, bench, label, size, peer))) == 1


def ratio_cell(data, bench, label, size, peer):
    """size_ratio as a table cell, marked ONE_PAIR when one pair decided it."""
    r = size_ratio(data, bench, label, size, peer)
    return fmt(r) + (ONE_PAIR if r is not None and one_pair(data, bench, label, size, peer) else "")


def placement_line(data):
    """The header line counting the runs per placement, if recorded."""
    counts = {}
    for by_impl in data.get("placements", {}).values():
        for by_rep in by_impl.values():
            for p in by_rep.values():
                counts[p] = counts.get(p, 0) + 1
    if not counts:
        return []
    order = ["one core", "separate cores", "different dies", "moved"]
    parts = [f"{counts[p]} {p}" for p in order if p in counts]
    return ["- Placement of cores 0 and 1 per run (a short hand-off timing before and after "
            "each run: under 0.04 us one core's hardware threads, under 0.1 us separate cores, "
            "else different dies; \"moved\" when the two disagree): " + ", ".join(parts)
            + ". This VM moves between them within seconds, and the placement decides which "
            "transport wins, so a ratio pairs only the repeats in which both MPIs ran in one "
            "placement (every repeat when there is none); " + ONE_PAIR + " marks a ratio that "
            "one such pair decided alone."]


def slug(label):
    return re.sub(r"[^A-Za-z0-9]+", "_", label).strip("_")


# ------------------------------------------------------------------ tables

def bench_labels(data, bench):
    labels = []
    for impl in data["impls"]:
        for label in data["medians"].get(bench, {}).get(impl, {}):
            if label not in labels:
                labels.append(label)
    return labels


def refused(data, bench):
    """MPIs that did not grant MPI_THREAD_MULTIPLE to a threaded benchmark."""
    return data.get("not_granted", {}).get(bench, [])


def table(data, bench, label):
    """One metric of one benchmark, a row per size; "n/a" for an MPI that
    refused to run it (MPI_THREAD_MULTIPLE not granted) and its ratios."""
    kind = data["kinds"][bench]
    no = refused(data, bench)
    by_impl = {i: data["medians"].get(bench, {}).get(i, {}).get(label, {})
               for i in data["impls"]}
    sizes = sorted({s for rows in by_impl.values() for s in rows})
    has_shmpi = "shmpi" in data["impls"]
    peers = [p for p in PEERS if p in data["impls"]]
    memcpy = data["memcpy"] if kind == "bandwidth" and label != "Messages/s" else {}
    head = ["Size"] + [NAMES[i] for i in data["impls"]]
    if has_shmpi:
        head += [f"× vs {NAMES[p]}" for p in peers]
    if memcpy:
        head.append("memcpy floor")
    lines = ["| " + " | ".join(head) + " |", "|" + "---:|" * len(head)]
    for s in sizes:
        # "n/a": the MPI did not run this benchmark at all (see the notes), or
        # refused MPI_THREAD_MULTIPLE (threaded benchmarks).
        missing = set(no) | {i for i in data["impls"] if not by_impl[i]}
        row = [fmt_size(s)] + ["n/a" if i in missing else fmt(by_impl[i].get(s))
                               for i in data["impls"]]
        if has_shmpi:
            row += ["n/a" if "shmpi" in missing or p in missing
                    else ratio_cell(data, bench, label, s, p) for p in peers]
        if memcpy:
            row.append(fmt(memcpy.get(s)))
        lines.append("| " + " | ".join(row) + " |")
    return lines


def match_tables(data):
    """osu_match_lat: one table per size, a row per K (posted-queue length)."""
    med = data["medians"].get("match_lat", {})
    labels = bench_labels(data, "match_lat")
    sizes = sorted({s for cols in med.values() for col in cols.values() for s in col})
    has_shmpi = "shmpi" in data["impls"]
    peers = [p for p in PEERS if p in data["impls"]]
    lines = []
    for size in sizes:
        head = ["K posted"] + [NAMES[i] for i in data["impls"]]
        head += [f"× vs {NAMES[p]}" for p in peers] if has_shmpi else []
        lines += [f"{fmt_size(size)} latency (us) with K non-matching receives "
                  "pre-posted on each rank; × = median of per-repeat peer/shmpi "
                  "(> 1: shmpi faster)", "",
                  "| " + " | ".join(head) + " |", "|" + "---:|" * len(head)]
        for label in labels:
            val = {i: med.get(i, {}).get(label, {}).get(size) for i in data["impls"]}
            row = [label.replace("K=", "")] + [fmt(val[i]) for i in data["impls"]]
            if has_shmpi:
                row += [ratio_cell(data, "match_lat", label, size, p) for p in peers]
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")
    return lines


def summary_rows(data):
    """Worst and geometric-mean (over sizes) paired ratio per metric and peer."""
    rows = []
    for bench in data["suite"]:
        for label in bench_labels(data, bench):
            med = data["medians"].get(bench, {})
            shm = med.get("shmpi", {}).get(label, {})
            cells = [f"osu_{bench}", label]
            for p in [p for p in PEERS if p in data["impls"]]:
                rs = [(size_ratio(data, bench, label, s, p), s) for s in shm]
                rs = [(r, s) for r, s in rs if r is not None]
                if not rs:
                    cells.append("–")
                    continue
                worst, at = min(rs)
                gmean = math.exp(sum(math.log(r) for r, _ in rs) / len(rs))
                mark = ONE_PAIR if one_pair(data, bench, label, at, p) else ""
                cells.append(f"{worst:.2f}{mark} at {fmt_size(at)} / {gmean:.2f}")
            if any(c != "–" for c in cells[2:]):
                rows.append("| " + " | ".join(cells) + " |")
    return rows


def key_figures(data):
    lines = ["| Figure | " + " | ".join(NAMES[i] for i in data["impls"]) + " |",
             "|---|" + "---:|" * len(data["impls"])]
    for bench, kind, unit in (("latency", "latency", "us"), ("bw", "bandwidth", "MB/s")):
        med = data["medians"].get(bench)
        if not med:
            continue
        for s in KEY_SIZES[kind]:
            cells = []
            for i in data["impls"]:
                col = next(iter(med.get(i, {}).values()), {})
                cells.append(fmt(col.get(s)))
            lines.append(f"| osu_{bench} {fmt_size(s)} ({unit}) | " + " | ".join(cells) + " |")
    return lines + multiple_cost(data)


def multiple_cost(data):
    """Rows of the one-thread figures again under MPI_THREAD_MULTIPLE
    (osu_latency/osu_bw -L multiple), each MPI against its own plain run:
    what the thread level costs a program that uses one thread. The cost is
    the median over the repeats of multiple/plain time, each repeat's pair
    run close together (this VM's hand-off time changes 5x between states
    that last seconds, so a ratio of medians can compare two states)."""
    rows = []
    for bench, kind, unit in (("latency", "latency", "us"), ("bw", "bandwidth", "MB/s")):
        plain, multiple = data["medians"].get(bench), data["medians"].get(f"{bench}@multiple")
        if not plain or not multiple:
            continue
        for s in KEY_SIZES[kind]:
            cells = {}
            for i in data["impls"]:
                m = next(iter(multiple.get(i, {}).values()), {}).get(s)
                if m is None:
                    continue
                # ratio(kind, multiple, plain): how many times faster the
                # MULTIPLE run was; its inverse is the cost in time.
                label_p = next(iter(plain.get(i, {})), None)
                label_m = next(iter(multiple.get(i, {})), None)
                reps_p = data["per_repeat"].get(bench, {}).get(i, {}).get(label_p, {}).get(s, {})
                reps_m = data["per_repeat"].get(f"{bench}@multiple", {}).get(i, {}).get(label_m, {}).get(s, {})
                faster = paired_ratio(kind, reps_m, reps_p)
                cells[i] = fmt(m) + (f" ({1 / faster:.2f}x)" if faster else "")
            if cells:
                rows.append(f"| osu_{bench} {fmt_size(s)} ({unit}), MPI_THREAD_MULTIPLE "
                            "(x: median per-repeat time against its plain run) | "
                            + " | ".join(cells.get(i, "n/a") for i in data["impls"]) + " |")
    return rows


# ------------------------------------------------------------------- plots

def gnuplot_terminal():
    probe = subprocess.run(["gnuplot", "-e", "set terminal pngcairo"],
                           capture_output=True, text=True)
    return "pngcairo size 960,600 noenhanced" if probe.returncode == 0 else "png size 960,600"


def power_of_two_tics(sizes):
    """An x-axis tic at every power of two (every 4th, 16th... when there are
    many), labelled "1 B", "4 KiB", "1 MiB": sizes are powers of two, so
    decimal tics would read "98 kiB"."""
    lo, hi = min(sizes), max(sizes)
    exps = range(max(lo, 1).bit_length() - 1, hi.bit_length())
    step = 1
    while len(exps) // step > 12:
        step *= 2
    tics = [f'"{fmt_size(1 << e)}" {1 << e}' for e in exps if e % step == 0]
    return "set xtics (" + ", ".join(tics) + ")"


def plot_series(data, bench, label, out_dir, terminal):
    """Writes <name>.dat/.gp and renders <name>.png; returns the png name."""
    kind = data["kinds"][bench]
    impls = [i for i in data["impls"]
             if data["medians"].get(bench, {}).get(i, {}).get(label)]
    if not impls:
        return None
    labels = bench_labels(data, bench)
    name = f"osu_{bench}" + ("" if len(labels) == 1 else "." + slug(label))
    med = data["medians"][bench]
    sizes = sorted({s for i in impls for s in med[i][label] if s > 0})
    floor_col = kind == "bandwidth" and label != "Messages/s" and data["memcpy"]
    with open(os.path.join(out_dir, name + ".dat"), "w") as f:
        f.write("# size " + " ".join(impls) + (" memcpy" if floor_col else "") + "\n")
        for s in sizes:
            vals = [med[i][label].get(s) for i in impls]
            if floor_col:
                vals.append(data["memcpy"].get(s))
            f.write(f"{s} " + " ".join("NaN" if v is None else f"{v:.4f}" for v in vals) + "\n")
    series = [f"'{name}.dat' using 1:{c + 2} with linespoints lw 2 title '{NAMES[i]}'"
              for c, i in enumerate(impls)]
    if floor_col:
        series.append(f"'{name}.dat' using 1:{len(impls) + 2} with lines dt 2 lc 'gray' "
                      "title 'memcpy floor (1 thread)'")
    if kind == "latency" and data["handoff"]:
        series.append(f"{data['handoff']['median_us']:.4f} with lines dt 2 lc 'gray' "
                      "title 'cache-line hand-off floor'")
    script = [f"set terminal {terminal}", f"set output '{name}.png'",
              "set datafile missing 'NaN'", "set logscale x 2", "set logscale y", "set grid",
              "set key top left", power_of_two_tics(sizes),
              "set xlabel 'Message size'",
              f"set ylabel '{label}'", f"set title 'osu_{bench}: {label}'",
              "plot " + ", \\\n     ".join(series)]
    return render(out_dir, name, script)


def plot_match(data, out_dir, terminal):
    """osu_match_lat: latency against K (pre-posted receives) at one size."""
    med = data["medians"].get("match_lat", {})
    impls = [i for i in data["impls"] if med.get(i)]
    if not impls:
        return None
    labels = bench_labels(data, "match_lat")
    sizes = sorted({s for i in impls for col in med[i].values() for s in col})
    size = MATCH_PLOT_SIZE if MATCH_PLOT_SIZE in sizes else sizes[0]
    name = "osu_match_lat"
    with open(os.path.join(out_dir, name + ".dat"), "w") as f:
        f.write("# K " + " ".join(impls) + f"  (latency us at {size} B)\n")
        for label in labels:
            vals = [med[i].get(label, {}).get(size) for i in impls]
            f.write(label.replace("K=", "") + " " +
                    " ".join("NaN" if v is None else f"{v:.4f}" for v in vals) + "\n")
    series = [f"'{name}.dat' using 0:{c + 2}:xtic(1) with linespoints lw 2 title '{NAMES[i]}'"
              for c, i in enumerate(impls)]
    script = [f"set terminal {terminal}", f"set output '{name}.png'",
              "set datafile missing 'NaN'", "set logscale y", "set grid",
              "set key top left", "set xlabel 'K non-matching receives pre-posted'",
              "set ylabel 'Latency (us)'",
              f"set title 'osu_match_lat: {size}-byte latency vs posted-queue length'",
              "plot " + ", \\\n     ".join(series)]
    return render(out_dir, name, script)


def render(out_dir, name, script):
    with open(os.path.join(out_dir, name + ".gp"), "w") as f:
        f.write("\n".join(script) + "\n")
    res = subprocess.run(["gnuplot", name + ".gp"], cwd=out_dir,
                         capture_output=True, text=True)
    if res.returncode != 0:
        print(f"compare.py: note: gnuplot failed for {name}: {res.stderr.strip()}",
              file=sys.stderr)
        return None
    return name + ".png"


def make_plots(data, out_dir):
    if shutil.which("gnuplot") is None:
        data["notes"].append("no plots: gnuplot not found")
        return {}
    terminal = gnuplot_terminal()
    plots = {}
    for bench in data["suite"]:
        if bench == "match_lat":
            plots[(bench, None)] = plot_match(data, out_dir, terminal)
            continue
        for label in bench_labels(data, bench):
            plots[(bench, label)] = plot_series(data, bench, label, out_dir, terminal)
    return {k: v for k, v in plots.items() if v}


# ------------------------------------------------------------------ report

def render_report(data, plots, image_prefix):
    """The Markdown report; plots are linked as image_prefix + file name."""
    versions = ", ".join(f"{NAMES[i]} {v}" for i, v in data["mpi_versions"].items())
    h = data["handoff"]
    t = data.get("twoline")
    out = ["# shmpi vs Open MPI vs MPICH", "",
           f"- Machine: {data['machine']}",
           f"- Date: {data['date']}; MPIs: {', '.join(NAMES[i] for i in data['impls'])}"
           + (f" ({versions})" if versions else ""),
           f"- Method: {data['repeats']} repeat(s), interleaved round-robin "
           "(each repeat runs every benchmark under every MPI in turn); "
           "every value is the per-size median over the repeats; every ratio "
           "is the median of per-repeat ratios (each repeat runs the MPIs back "
           "to back, so both sides of a ratio see the same machine state); "
           "each MPI runs with its launcher's defaults.",
           "- Ratios are **how many times faster shmpi is**: peer/shmpi for "
           "latency, shmpi/peer for bandwidth and message rate; **> 1 means "
           "shmpi is faster**.",
           "- Machine floors, same run: one-way cache-line hand-off between two "
           "processes pinned to cores 0 and 1: "
           + (f"**{h['median_us']:.3f} us** median (best {h['min_us']:.3f} us)"
              if h else "not measured")
           + (f"; through two lines, one per direction (the floor of any "
              f"transport with a channel per direction): **{t['median_us']:.3f} us**"
              if t else "")
           + "; single-thread memcpy bandwidth per size in the bandwidth tables.",
           *floor_ratio_line(data),
           *placement_line(data),
           f"- Reproduce (from the repository root): `{data['reproduce']}` "
           f"after `cmake --preset release && cmake --build build/release -j2`",
           f"- Took {data['elapsed_s']:.0f} s; load average before / after: "
           f"{data['load_before']} / {data['load_after']} (other jobs on the "
           "machine show up as noise).", ""]
    for note in data["notes"]:
        out.append(f"> Note: {note}")
    for fail in data["failures"]:
        out.append(f"> Failed run: {fail}")
    if data["notes"] or data["failures"]:
        out.append("")
    figures = key_figures(data)
    if len(figures) > 2:
        out += ["## Key figures (medians)", ""] + figures + [""]
    peers = [p for p in PEERS if p in data["impls"]]
    if "shmpi" in data["impls"] and peers:
        out += ["## Summary: worst ratio (at size) / geometric mean over sizes", "",
                "| Benchmark | Metric | " + " | ".join(f"vs {NAMES[p]}" for p in peers) + " |",
                "|---|---|" + "---:|" * len(peers)] + summary_rows(data) + [""]
    else:
        out += ["shmpi was not measured in this run: the tables show the peers only.", ""]
    for bench in data["suite"]:
        labels = bench_labels(data, bench)
        no = refused(data, bench)
        if not labels and no:
            out += [f"## osu_{bench}", "", "n/a: MPI_THREAD_MULTIPLE not granted by "
                    + ", ".join(NAMES[i] for i in no), ""]
        if not labels:
            continue
        kind = data["kinds"][bench]
        out += [f"## osu_{bench}", ""]
        if bench in data.get("threaded", []):
            out += [f"{data['threads'][bench]} thread(s): "
                    + ("receivers on rank 1, one sender on rank 0"
                       if kind == "latency" else "per rank, thread k streams to thread k")
                    + ("; n/a: MPI_THREAD_MULTIPLE not granted by "
                       + ", ".join(NAMES[i] for i in no) if no else ""), ""]
        elif bench.startswith("net_"):
            out += ["Two ranks of this machine over each MPI's network path, not shared "
                    "memory: shmpi with `--fake-nodes 2` (UCX over loopback), the peers "
                    "forced onto tcp (exact commands below; how each run was checked in "
                    "the notes).", ""]
        direction = "peer/shmpi" if kind == "latency" else "shmpi/peer"
        for label in ([] if bench == "match_lat" else labels):
            out += [f"{label}; × = median of per-repeat {direction} "
                    "(> 1: shmpi faster)", ""]
            out += table(data, bench, label) + [""]
        out += column_pairs.table(data, bench, labels, NAMES, fmt_size, fmt)
        if bench == "match_lat":
            out += match_tables(data)
        for (b, label), png in plots.items():
            if b != bench:
                continue
            out += [f"![osu_{bench}]({image_prefix}{png})", ""]
    out += ["## Commands", "",
            f"Each ran once per repeat ({data['repeats']} repeat(s)), in this order.",
            "", "```"] + data["commands"] + ["```", ""]
    return "\n".join(out)


def copy_plots(plots, out_dir, results_path):
    """Copies the plots into a folder beside `results_path` (named after it:
    RESULTS.md -> RESULTS.plots/) and returns the image prefix, relative to
    the results file, that links them: the report stays readable wherever
    the repository is cloned."""
    folder = os.path.splitext(os.path.basename(results_path))[0] + ".plots"
    dest = os.path.join(os.path.dirname(os.path.abspath(results_path)), folder)
    os.makedirs(dest, exist_ok=True)
    for old in os.listdir(dest):  # the footprint section's plots stay with it
        if not old.startswith("footprint_"):
            os.remove(os.path.join(dest, old))
    for png in plots.values():
        shutil.copy2(os.path.join(out_dir, png), dest)
    return folder + "/"


def write_all(data, out_dir, results_path):
    plots = make_plots(data, out_dir)
    with open(os.path.join(out_dir, "summary.json"), "w") as f:
        json.dump(data, f, indent=1, default=str)
    with open(os.path.join(out_dir, "commands.txt"), "w") as f:
        f.write("\n".join(data["commands"]) + "\n")
    with open(os.path.join(out_dir, "report.md"), "w") as f:
        f.write(render_report(data, plots, ""))
    if results_path:
        kept = footprint_section(results_path)
        prefix = copy_plots(plots, out_dir, results_path)
        with open(results_path, "w") as f:
            f.write(render_report(data, plots, prefix) + ("\n" + kept if kept else ""))


# compare.py --bench footprint writes its report as a section of the results
# file, between these lines; a run of the other benchmarks keeps it.
FOOTPRINT_BEGIN, FOOTPRINT_END = "<!-- footprint: begin -->", "<!-- footprint: end -->"


def footprint_section(results_path):
    """The footprint section of `results_path` (markers included), or ""."""
    if not os.path.exists(results_path):
        return ""
    with open(results_path) as f:
        text = f.read()
    if FOOTPRINT_BEGIN not in text or FOOTPRINT_END not in text:
        return ""
    return FOOTPRINT_BEGIN + text.split(FOOTPRINT_BEGIN, 1)[1].split(FOOTPRINT_END, 1)[0] + FOOTPRINT_END + "\n"
