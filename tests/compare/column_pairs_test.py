"""Unit tests of the within-MPI column-pair tables (no MPI)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "compare"))
import compare_report  # noqa: E402
import column_pairs  # noqa: E402


def data_of(kind, shmpi, openmpi):
    """Report data of one benchmark: {impl: {label: {size: {rep: value}}}}."""
    return {"impls": ["shmpi", "openmpi"], "kinds": {"b": kind},
            "per_repeat": {"b": {"shmpi": shmpi, "openmpi": openmpi}}}


def table(data, labels):
    return column_pairs.table(data, "b", labels, compare_report.NAMES,
                               compare_report.fmt_size, compare_report.fmt)


class PersistentTable(unittest.TestCase):
    LAT = ["Nonblocking (us)", "Persistent (us)"]

    def test_latency_gain_is_the_median_of_per_repeat_ratios(self):
        shm = {"Nonblocking (us)": {8: {1: 2.0, 2: 3.0, 3: 4.0}},
               "Persistent (us)": {8: {1: 1.0, 2: 3.0, 3: 1.0}}}
        ompi = {"Nonblocking (us)": {8: {1: 1.0}}, "Persistent (us)": {8: {1: 2.0}}}
        lines = table(data_of("latency", shm, ompi), self.LAT)
        self.assertIn("| 8 B | 2.00 | 0.50 |", lines)  # ratios 2, 1, 4 -> 2
        self.assertIn("× shmpi", lines[2])
        self.assertIn("nonblocking/persistent time", lines[0])

    def test_bandwidth_gain_is_persistent_over_nonblocking(self):
        cols = {"Nonblocking (MB/s)": {4096: {1: 100.0}}, "Persistent (MB/s)": {4096: {1: 150.0}}}
        lines = table(data_of("bandwidth", cols, cols), list(cols))
        self.assertIn("| 4 KiB | 1.50 | 1.50 |", lines)

    def test_other_benchmarks_get_no_table(self):
        cols = {"Latency (us)": {8: {1: 1.0}}}
        self.assertEqual(table(data_of("latency", cols, cols), ["Latency (us)"]), [])

    def test_a_missing_repeat_or_zero_leaves_a_dash(self):
        shm = {"Nonblocking (us)": {8: {1: 2.0}}, "Persistent (us)": {8: {2: 1.0}}}
        ompi = {"Nonblocking (us)": {8: {1: 0.0}}, "Persistent (us)": {8: {1: 1.0}}}
        self.assertIn("| 8 B | – | – |", table(data_of("latency", shm, ompi), self.LAT))


class MprobeTable(unittest.TestCase):
    LAT = ["Recv (us)", "Probe+Recv (us)", "Mprobe+Mrecv (us)"]

    def test_gain_is_probe_recv_over_mprobe_mrecv_time(self):
        shm = {"Recv (us)": {0: {1: 0.1}}, "Probe+Recv (us)": {0: {1: 0.3}},
               "Mprobe+Mrecv (us)": {0: {1: 0.2}}}
        lines = table(data_of("latency", shm, shm), self.LAT)
        self.assertIn("| 0 B | 1.50 | 1.50 |", lines)
        self.assertTrue(lines[0].startswith("Mprobe+Mrecv against Probe+Recv within each MPI"))
        self.assertIn("probe+recv/mprobe+mrecv time", lines[0])


if __name__ == "__main__":
    unittest.main()
