"""The event benchmark's first-contact table: a right call under the rules' review
threshold is counted apart, and right, review and wrong add up to every shot."""

from __future__ import annotations

import re

from benchmarks.events import report, run_table


def test_first_contact_row_counts_right_calls_under_review_apart_and_adds_up():
    res = run_table("pool-9ft", 6, 0)
    s = res["stats"]
    assert s["shots"] == 6 and 0 <= s["first_ok_low"] <= s["first_ok"]
    text = report([res], 6, [0])
    header = next(line for line in text.splitlines() if "first contact right" in line)
    cols = [c.strip() for c in header.strip("|").split("|")]
    assert cols[3:7] == ["first contact right", "right, low conf.",
                         "review (wrong, low conf.)", "wrong"]
    row = next(line for line in text.splitlines() if line.startswith("| pool-9ft | 0 | 6 |"))
    right, low, review, wrong = (float(re.sub(r"[ %]", "", c))
                                 for c in row.strip("|").split("|")[3:7])
    assert abs(right + review + wrong - 100.0) < 0.2 and low <= right
