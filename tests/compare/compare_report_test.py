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


if __name__ == "__main__":
    unittest.main()
