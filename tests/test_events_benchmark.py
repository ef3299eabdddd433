"""The event benchmark's first-contact table: a right call under the rules' review
threshold is counted apart, right, review and wrong add up to every shot, and a split hit
named for review is told from the physics' log."""

from __future__ import annotations

import re

from benchmarks.events import report, run_table, split_pair


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


def test_a_split_hit_is_a_second_object_met_less_than_a_frame_after_the_first():
    def contact(t, other):
        return {"kind": "contact", "t": t, "ids": (1, other)}

    assert split_pair([contact(0.500, 3), contact(0.500, 3), contact(0.512, 7)]) == {3, 7}
    assert split_pair([contact(0.500, 3), contact(0.540, 7)]) is None  # over a frame apart
    assert split_pair([contact(0.500, 3), contact(0.510, 3)]) is None  # the same one again
    assert split_pair([]) is None


def test_first_contact_right_or_split_for_review_counts_only_a_split_named_for_review():
    # (Novuss seed 3 shot 2: the puck meets pawn 16, then 15 3 ms later, and 15 is named
    # for review)
    res = run_table("novuss", 8, 3)
    s = res["stats"]
    assert s["split_review"] == 1 and s["first_ok"] == 7
    assert 0 <= s["split_ok"] + s["split_review"] <= s["split"] <= s["shots"]
    assert s["split_review"] <= s["first_review"]
    text = report([res], 8, [3])
    header = next(line for line in text.splitlines() if "first contact right" in line)
    cols = [c.strip() for c in header.strip("|").split("|")]
    row = next(line for line in text.splitlines() if line.startswith("| novuss | 3 | 8 |"))
    vals = [c.strip() for c in row.strip("|").split("|")]
    got = float(vals[cols.index("right, or split for review")].rstrip(" %"))
    assert abs(got - 100.0 * (s["first_ok"] + s["split_review"]) / 8) < 0.1
