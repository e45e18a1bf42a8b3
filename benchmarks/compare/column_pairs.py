"""Two columns of one program compared within each MPI (compare_report.py).

Some programs time, in one run and back to back at each size, two ways of
doing the same thing:
- osu_latency_persistent / osu_bw_persistent: a loop of MPI_Isend/MPI_Irecv,
  then a loop of persistent requests (MPI_Start);
- osu_latency_mprobe: MPI_Probe + MPI_Recv, then MPI_Mprobe + MPI_Mrecv.
The other tables compare one column between the MPIs; this one compares the
two columns within each MPI: × = median over repeats of the per-repeat
first/second time (latency) or second/first rate (bandwidth), so > 1 means
the second way is cheaper. Both loops of a repeat run in one process, so
each pair sees one machine state.
"""

import statistics
from dataclasses import dataclass


@dataclass(frozen=True)
class Pair:
    first: str   # label prefix of the column compared against
    second: str  # label prefix of the column whose gain is shown
    title: str   # what the table compares
    better: str  # what > 1 means


PAIRS = (
    Pair("Nonblocking", "Persistent", "Persistent against nonblocking",
         "the persistent round is cheaper"),
    Pair("Probe+Recv", "Mprobe+Mrecv", "Mprobe+Mrecv against Probe+Recv",
         "Mprobe+Mrecv is faster"),
)


def column_pair(labels):
    """(Pair, first label, second label) of the first pair the labels hold, or None."""
    for pair in PAIRS:
        first = next((c for c in labels if c.startswith(pair.first)), None)
        second = next((c for c in labels if c.startswith(pair.second)), None)
        if first and second:
            return pair, first, second
    return None


def gain(kind, first, second):
    """Median per-repeat gain of the second column over the first, or None."""
    rs = []
    for rep, a in first.items():
        b = second.get(rep)
        if b is None or b <= 0 or a <= 0:
            continue
        rs.append(a / b if kind == "latency" else b / a)
    return statistics.median(rs) if rs else None


def table(data, bench, labels, names, fmt_size, fmt):
    """Markdown lines of the table (none if the benchmark has no pair)."""
    found = column_pair(labels)
    if found is None:
        return []
    pair, first, second = found
    kind = data["kinds"][bench]
    by_impl = data["per_repeat"].get(bench, {})
    impls = [i for i in data["impls"] if i in by_impl]
    sizes = sorted({s for i in impls for s in by_impl[i].get(first, {})})
    a, b = pair.first.lower(), pair.second.lower()
    ratio = f"{a}/{b} time" if kind == "latency" else f"{b}/{a} rate"
    lines = [f"{pair.title} within each MPI; × = median of per-repeat {ratio} "
             f"(> 1: {pair.better})", "",
             "| Size | " + " | ".join(f"× {names[i]}" for i in impls) + " |",
             "|" + "---:|" * (len(impls) + 1)]
    for s in sizes:
        cells = [fmt(gain(kind, by_impl[i].get(first, {}).get(s, {}),
                          by_impl[i].get(second, {}).get(s, {}))) for i in impls]
        lines.append(f"| {fmt_size(s)} | " + " | ".join(cells) + " |")
    return lines + [""]
