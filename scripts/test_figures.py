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


if __name__ == "__main__":
    unittest.main()
