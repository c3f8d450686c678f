#!/usr/bin/env python3
"""The tolerance check of scripts/figures.py: a figure edited beyond its tolerance fails,
one within it passes (run by scripts/figures.sh --check before the rerun)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import figures  # noqa: E402


def table(ratio="1.57×", recall="100.0 % / 94.3 %", ms="9.46", name="`walk`"):
    return figures.Table(["session", "ms", "ratio", "recall"], [[name, ms, ratio, recall]],
                         ["text", "ms", "ratio", "pp"])


def written(t: figures.Table) -> str:
    return t.markdown()


class ToleranceTests(unittest.TestCase):
    def check(self, old, new):
        return figures.differences(written(old), new, figures.kinds_of(new))

    def test_the_same_table_passes(self):
        self.assertEqual(self.check(table(), table()), [])

    def test_a_ratio_within_15_percent_passes_and_beyond_fails(self):
        self.assertEqual(self.check(table(ratio="1.40×"), table(ratio="1.57×")), [])
        self.assertEqual(len(self.check(table(ratio="1.20×"), table(ratio="1.57×"))), 1)

    def test_a_recall_moved_by_more_than_two_points_fails(self):
        self.assertEqual(self.check(table(recall="98.6 % / 94.3 %"), table()), [])
        self.assertEqual(len(self.check(table(recall="90.0 % / 94.3 %"), table())), 1)

    def test_a_time_may_move_by_half(self):
        self.assertEqual(self.check(table(ms="6.5"), table()), [])
        self.assertEqual(len(self.check(table(ms="4.0"), table())), 1)

    def test_text_must_match_and_rows_must_agree(self):
        self.assertEqual(len(self.check(table(name="`hard`"), table())), 1)
        two = table()
        two.rows.append(list(two.rows[0]))
        self.assertEqual(len(self.check(table(), two)), 1)

    def test_the_overview_checks_its_figure_column_by_row(self):
        t = figures.Table(["what", "figure", "reproduce with"], [["a", "1.57×", "x"], ["b", "0 of 20", "y"]],
                          ["text", "text", "text"], row_kinds=["ratio", "text"])
        moved = figures.Table(t.header, [["a", "1.90×", "x"], ["b", "1 of 20", "y"]], t.kinds)
        self.assertEqual(len(figures.differences(moved.markdown(), t, figures.kinds_of(t))), 2)


class ParsingTests(unittest.TestCase):
    """The parsers of commands' text output (the generators that rerun them take minutes)."""

    def test_bench_localize_with_a_venue_keeps_both_arcloud_rows_and_the_venue_ratio(self):
        out = """pipeline         success  within(5cm,2°)  median err (cm / deg)   median ms/frame   frames/s
orb only             -          -               -                     5.91           164.2
arcloud          100.0 %   100.0 %         0.62 / 0.101                8.21           117.3
arcloud venue    100.0 %    97.1 %         0.63 / 0.102                8.96            99.0
speed-up arcloud / opencv:            45.1x frames/s (target >= 20x)
arcloud end-to-end / ORB alone:       1.50x time per frame (target <= 1.3x)
arcloud on the venue / on the map alone: 1.19x time per frame (target <= 1.3x); 0 accepted outside (25 cm, 5°)"""
        b = figures.parse_bench_localize(out)
        self.assertEqual(b["rows"]["arcloud"][4], 8.21)
        self.assertEqual(b["rows"]["arcloud venue"][1], 97.1)
        self.assertEqual((b["venue"], b["venueOff"], b["orb"]), (1.19, 0, 1.50))

    def test_sanitize_and_fuzz_lines(self):
        out = ("sanitize tsan: build 300 s\n\u2714 Test run with 120 tests in 30 suites passed after 500 s.\n"
               "\u2714 Test run with 53 tests in 7 suites passed after 400 s.\n"
               "sanitize tsan: 173 tests run in 951 s\nsanitize tsan: clean\n")
        self.assertEqual(figures.parse_sanitize(out, "tsan"),
                         {"build": 300, "tests": 173, "seconds": 951, "suites": 37, "clean": True})
        fuzz = ("target              seconds   executions     exec/s   corpus  result\n"
                "image                    21       500000      23809      310  ok\n"
                "map                      20       460000      23000       90  FAILED (exit 1): ERROR: libFuzzer: deadly signal\n")
        self.assertEqual(figures.parse_fuzz(fuzz), {"targets": 2, "executions": 960000, "findings": ["map"]})

    def test_the_venue_cache_checks_lines(self):
        out = ("maps in memory: big 844 MB, small 13 MB; cache budget 851 MB\n"
               "turn 1 big  : 70/70 within (5 cm, 2°), 0 wrong, 0 unlike alone; cache loads 1, evictions 0, hits 69, "
               "resident 844 MB of 851 MB; process 1038 MB\n"
               "turn 1 small: 69/70 within (5 cm, 2°), 0 wrong, 1 unlike alone; cache loads 2, evictions 1, hits 138, "
               "resident 13 MB of 851 MB; process 277 MB\n")
        d = figures.parse_venue_cache(out)
        self.assertEqual((d["big"], d["small"], d["budget"]), (844, 13, 851))
        self.assertEqual([(t["map"], t["within"], t["differ"], t["evictions"], t["process"]) for t in d["turns"]],
                         [("big", 70, 0, 0, 1038), ("small", 69, 1, 1, 277)])

    def test_a_span_of_runs(self):
        self.assertEqual(figures.span([1.98, 2.01, 2.0]), "1.98–2.01")
        self.assertEqual(figures.span([0.9, 0.9]), "0.90")
        self.assertEqual(figures.span([-0.25, 0.07], signed=True), "−0.25 to +0.07")


if __name__ == "__main__":
    unittest.main()
