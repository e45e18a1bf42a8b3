"""Unit tests of the comparison report's plot helpers (no MPI, no gnuplot)."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "compare"))
import compare_report  # noqa: E402


class PowerOfTwoTics(unittest.TestCase):
    def test_every_tic_is_a_power_of_two_labelled_in_binary_units(self):
        line = compare_report.power_of_two_tics([1, 2, 4, 1024, 1 << 20, 1 << 22])
        self.assertTrue(line.startswith("set xtics ("))
        self.assertIn('"1 B" 1', line)
        self.assertIn('"1 MiB" 1048576', line)
        self.assertNotIn("kiB", line)
        for tic in line[len("set xtics ("):-1].split(", "):
            value = int(tic.rsplit(" ", 1)[1])
            self.assertEqual(value & (value - 1), 0, tic)

    def test_a_wide_range_thins_the_tics(self):
        line = compare_report.power_of_two_tics([1, 1 << 30])
        self.assertEqual(line, 'set xtics ("1 B" 1, "16 B" 16, "256 B" 256, "4 KiB" 4096, '
                               '"64 KiB" 65536, "1 MiB" 1048576, "16 MiB" 16777216, "256 MiB" 268435456)')


class CopyPlots(unittest.TestCase):
    def test_plots_land_beside_the_results_file_and_are_linked_relatively(self):
        with tempfile.TemporaryDirectory() as top:
            out_dir = os.path.join(top, "run")
            os.makedirs(out_dir)
            with open(os.path.join(out_dir, "osu_bw.png"), "wb") as f:
                f.write(b"png")
            results = os.path.join(top, "bench", "RESULTS.md")
            os.makedirs(os.path.dirname(results))
            prefix = compare_report.copy_plots({("bw", "x"): "osu_bw.png"}, out_dir, results)
            self.assertEqual(prefix, "RESULTS.plots/")
            self.assertFalse(os.path.isabs(prefix))
            copied = os.path.join(top, "bench", prefix, "osu_bw.png")
            with open(copied, "rb") as f:
                self.assertEqual(f.read(), b"png")



def threaded_data(not_granted):
    """Report data of one osu_latency_mt run: Open MPI measured 0 and 8 bytes
    (2.0 and 4.0 us), shmpi measured 1.0 and 2.0 us unless it refused."""
    peer = {0: {1: 2.0}, 8: {1: 4.0}}
    shm = {} if "shmpi" in not_granted else {0: {1: 1.0}, 8: {1: 2.0}}
    per_repeat = {"openmpi": {"Latency (us)": peer}}
    if shm:
        per_repeat["shmpi"] = {"Latency (us)": shm}
    medians = {i: {label: {s: v[1] for s, v in rows.items()} for label, rows in cols.items()}
               for i, cols in per_repeat.items()}
    return {"impls": ["shmpi", "openmpi"], "kinds": {"latency_mt": "latency"},
            "suite": ["latency_mt"], "memcpy": {}, "per_repeat": {"latency_mt": per_repeat},
            "medians": {"latency_mt": medians}, "not_granted": {"latency_mt": not_granted},
            "threaded": ["latency_mt"], "threads": {"latency_mt": 1}}


class ThreadedTables(unittest.TestCase):
    def test_granted_rows_hold_values_and_ratios(self):
        lines = compare_report.table(threaded_data([]), "latency_mt", "Latency (us)")
        self.assertEqual(lines[0], "| Size | shmpi | Open MPI | × vs Open MPI |")
        self.assertEqual(lines[2:], ["| 0 B | 1.00 | 2.00 | 2.00 |", "| 8 B | 2.00 | 4.00 | 2.00 |"])

    def test_an_mpi_without_multiple_shows_n_a_and_so_do_its_ratios(self):
        lines = compare_report.table(threaded_data(["shmpi"]), "latency_mt", "Latency (us)")
        self.assertEqual(lines[2:], ["| 0 B | n/a | 2.00 | n/a |", "| 8 B | n/a | 4.00 | n/a |"])

    def test_the_section_names_who_refused(self):
        data = threaded_data(["shmpi"])
        lines = compare_report.render_report(dict(data, **REPORT_FIELDS), {}, "").splitlines()
        at = lines.index("## osu_latency_mt")
        self.assertEqual(lines[at + 2], "1 thread(s): receivers on rank 1, one sender on rank 0"
                                        "; n/a: MPI_THREAD_MULTIPLE not granted by shmpi")
        self.assertIn("| 0 B | n/a | 2.00 | n/a |", lines)

    def test_a_benchmark_no_mpi_ran_still_gets_its_section(self):
        data = threaded_data(["shmpi", "openmpi"])
        data["medians"], data["per_repeat"] = {}, {}
        text = compare_report.render_report(dict(data, **REPORT_FIELDS), {}, "")
        self.assertIn("## osu_latency_mt\n\nn/a: MPI_THREAD_MULTIPLE not granted by shmpi, "
                      "Open MPI\n", text)


# What render_report needs besides the tables.
REPORT_FIELDS = {"mpi_versions": {}, "handoff": None, "twoline": None, "latency_floor": {},
                 "machine": "m", "date": "d", "repeats": 1, "reproduce": "r", "elapsed_s": 1.0,
                 "load_before": "0", "load_after": "0", "notes": [], "failures": [],
                 "commands": []}


class PlacementPairing(unittest.TestCase):
    def test_a_ratio_pairs_only_repeats_run_in_one_placement(self):
        shmpi = {1: 1.0, 2: 10.0, 3: 1.0}
        peer = {1: 2.0, 2: 2.0, 3: 3.0}
        self.assertEqual(compare_report.paired_ratio("latency", shmpi, peer), 2.0)  # 2, 0.2, 3
        self.assertEqual(compare_report.paired_ratio("latency", shmpi, peer, {1, 3}), 2.5)
        self.assertEqual(compare_report.paired_ratio("latency", shmpi, peer, set()), 2.0)  # none: all

    def test_same_placement_needs_one_placement_that_held_through_both_runs(self):
        data = {"placements": {"bw": {
            "shmpi": {1: "separate cores", 2: "moved", 3: "one core", 4: "different dies"},
            "openmpi": {1: "separate cores", 2: "moved", 3: "separate cores", 4: "different dies"}}}}
        self.assertEqual(compare_report.same_placement(data, "bw", "openmpi"), {1, 4})
        self.assertIsNone(compare_report.same_placement({}, "bw", "openmpi"))
        line = compare_report.placement_line(data)[0]
        self.assertIn("1 one core, 3 separate cores, 2 different dies, 2 moved", line)

    def test_the_bounds_sort_hand_off_times_into_placements(self):
        sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "compare"))
        import compare  # noqa: E402
        self.assertEqual(compare.placement_of(0.028), "one core")
        self.assertEqual(compare.placement_of(0.057), "separate cores")
        self.assertEqual(compare.placement_of(0.166), "different dies")
        self.assertEqual(compare.bracketed_placement("one core", "one core"), "one core")
        self.assertEqual(compare.bracketed_placement("one core", "different dies"), "moved")
        self.assertIsNone(compare.bracketed_placement(None, "one core"))


class OnePairMark(unittest.TestCase):
    def test_a_ratio_one_pair_decided_alone_is_marked(self):
        data = {"repeats": 3, "kinds": {"bw": "bandwidth"},
                "per_repeat": {"bw": {"shmpi": {"MB/s": {8: {1: 2.0, 2: 2.0, 3: 2.0}}},
                                      "openmpi": {"MB/s": {8: {1: 1.0, 2: 4.0, 3: 4.0}}}}},
                "placements": {"bw": {
                    "shmpi": {1: "separate cores", 2: "separate cores", 3: "one core"},
                    "openmpi": {1: "separate cores", 2: "different dies", 3: "separate cores"}}}}
        self.assertTrue(compare_report.one_pair(data, "bw", "MB/s", 8, "openmpi"))
        self.assertEqual(compare_report.ratio_cell(data, "bw", "MB/s", 8, "openmpi"), "2.00\u00b9")
        data["placements"]["bw"]["openmpi"][2] = "separate cores"  # now two pairs: 2.0 and 0.5
        self.assertFalse(compare_report.one_pair(data, "bw", "MB/s", 8, "openmpi"))
        self.assertEqual(compare_report.ratio_cell(data, "bw", "MB/s", 8, "openmpi"), "1.25")
        data["repeats"] = 1  # a run of one repeat has nothing else to pair
        data["placements"]["bw"]["openmpi"][2] = "different dies"
        self.assertFalse(compare_report.one_pair(data, "bw", "MB/s", 8, "openmpi"))


if __name__ == "__main__":
    unittest.main()
