"""Persistent against nonblocking requests within each MPI (compare_report.py).

osu_latency_persistent and osu_bw_persistent time, in one run, a loop of
MPI_Isend/MPI_Irecv and then a loop of persistent requests (MPI_Start) at
each size. The other tables compare one column between the MPIs; this one
compares the two columns within each MPI: × = median over repeats of the
per-repeat nonblocking/persistent time (latency) or persistent/nonblocking
rate (bandwidth), so > 1 means a persistent round is cheaper than a
nonblocking one. Both loops of a repeat run back to back in one process,
so each pair sees one machine state.
"""

import statistics


def column_pair(labels):
    """(nonblocking label, persistent label), or None."""
    nb = next((c for c in labels if c.startswith("Nonblocking")), None)
    pe = next((c for c in labels if c.startswith("Persistent")), None)
    return (nb, pe) if nb and pe else None


def gain(kind, nonblocking, persistent):
    """Median per-repeat gain of persistent over nonblocking, or None."""
    rs = []
    for rep, nb in nonblocking.items():
        pe = persistent.get(rep)
        if pe is None or pe <= 0 or nb <= 0:
            continue
        rs.append(nb / pe if kind == "latency" else pe / nb)
    return statistics.median(rs) if rs else None


def table(data, bench, labels, names, fmt_size, fmt):
    """Markdown lines of the table (none if the benchmark lacks the pair)."""
    pair = column_pair(labels)
    if pair is None:
        return []
    kind = data["kinds"][bench]
    by_impl = data["per_repeat"].get(bench, {})
    impls = [i for i in data["impls"] if i in by_impl]
    sizes = sorted({s for i in impls for s in by_impl[i].get(pair[0], {})})
    lines = ["Persistent against nonblocking within each MPI; × = median of per-repeat "
             + ("nonblocking/persistent time" if kind == "latency" else "persistent/nonblocking rate")
             + " (> 1: the persistent round is cheaper)", "",
             "| Size | " + " | ".join(f"× {names[i]}" for i in impls) + " |",
             "|" + "---:|" * (len(impls) + 1)]
    for s in sizes:
        cells = [fmt(gain(kind, by_impl[i].get(pair[0], {}).get(s, {}),
                          by_impl[i].get(pair[1], {}).get(s, {}))) for i in impls]
        lines.append(f"| {fmt_size(s)} | " + " | ".join(cells) + " |")
    return lines + [""]
