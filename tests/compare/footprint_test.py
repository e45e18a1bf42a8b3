"""Unit tests of compare.py --bench footprint's parsing and report merging
(no MPI, no gnuplot)."""
import os
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # keep the source tree clean

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "compare"))
import compare_report  # noqa: E402
import footprint  # noqa: E402

LINE = ("footprint: ranks 64 iters 10 init_epoch_s 100.5 ring_s 0.125 ring_shmem_kib 13276 "
        "alltoall_s 1.25 alltoall_shmem_kib 28088")


class ParseLine(unittest.TestCase):
    def test_every_field_is_read(self):
        values = footprint.parse_line("noise\n" + LINE + "\n")
        self.assertEqual(values["init_epoch_s"], 100.5)
        self.assertEqual(values["ring_shmem_kib"], 13276)
        self.assertEqual(values["alltoall_s"], 1.25)

    def test_a_missing_field_or_line_is_none(self):
        self.assertIsNone(footprint.parse_line(LINE.replace(" alltoall_s 1.25", "")))
        self.assertIsNone(footprint.parse_line("no such line"))
        self.assertIsNone(footprint.parse_line(None))


class Table(unittest.TestCase):
    def test_a_job_not_run_shows_a_dash(self):
        results = {"shmpi": {8: {"startup_s": 0.5, "ring_s": 0.01, "alltoall_s": 0.02,
                                 "ring_shmem_mib": 1.0, "alltoall_shmem_mib": 2.5}}}
        lines = footprint.table(results, ["shmpi"], [8, 256], "alltoall_shmem_mib", "{:.1f}")
        self.assertEqual(lines[0], "| Ranks | shmpi |")
        self.assertEqual(lines[2], "| 8 | 2.5 |")
        self.assertEqual(lines[3], "| 256 | – |")


class MergeSection(unittest.TestCase):
    def section(self, text):
        return f"{footprint.BEGIN}\n## Many ranks\n{text}\n{footprint.END}\n"

    def test_appended_then_replaced_and_the_rest_kept(self):
        first = footprint.merge_section("# Report\n\n## osu_bw\ntable\n", self.section("one"))
        self.assertTrue(first.startswith("# Report\n\n## osu_bw\ntable\n\n" + footprint.BEGIN))
        second = footprint.merge_section(first + "\n## Later\n", self.section("two"))
        self.assertIn("two", second)
        self.assertNotIn("one", second)
        self.assertEqual(second.count(footprint.BEGIN), 1)
        self.assertIn("## osu_bw\ntable", second)
        self.assertTrue(second.endswith("## Later\n"))

    def test_plots_join_the_folder_beside_the_results_file(self):
        with tempfile.TemporaryDirectory() as top:
            os.makedirs(os.path.join(top, "RESULTS.plots"))
            with open(os.path.join(top, "RESULTS.plots", "osu_bw.png"), "w") as f:
                f.write("old")
            with open(os.path.join(top, "footprint_shmem.png"), "w") as f:
                f.write("new")
            results = os.path.join(top, "RESULTS.md")
            prefix = footprint.write_results(results, self.section("x"), {"footprint_shmem": "footprint_shmem.png"}, top)
            self.assertEqual(prefix, "RESULTS.plots/")
            self.assertTrue(os.path.exists(os.path.join(top, "RESULTS.plots", "osu_bw.png")))
            self.assertTrue(os.path.exists(os.path.join(top, "RESULTS.plots", "footprint_shmem.png")))
            with open(results) as f:
                self.assertIn(footprint.BEGIN, f.read())


class MainReportKeepsTheSection(unittest.TestCase):
    def test_a_run_of_the_other_benchmarks_keeps_the_footprint_section_and_plots(self):
        with tempfile.TemporaryDirectory() as top:
            results = os.path.join(top, "RESULTS.md")
            plots = os.path.join(top, "RESULTS.plots")
            os.makedirs(plots)
            for name in ("osu_bw.png", "footprint_shmem.png"):
                with open(os.path.join(plots, name), "w") as f:
                    f.write("old")
            section = f"{footprint.BEGIN}\n## Many ranks\nkept\n{footprint.END}\n"
            with open(results, "w") as f:
                f.write("# Old report\n\n" + section)
            self.assertEqual(compare_report.footprint_section(results), section)
            compare_report.copy_plots({}, top, results)
            self.assertEqual(os.listdir(plots), ["footprint_shmem.png"])


if __name__ == "__main__":
    unittest.main()
