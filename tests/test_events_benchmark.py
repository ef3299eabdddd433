"""The event benchmark's first-contact table: a right call under the rules' review
threshold is counted apart, right, review and wrong add up to every shot, and a split hit
named for review is told from the physics' log; a push that moves nothing a camera sees is
not in the ground truth."""

from __future__ import annotations

import re

from adjudication.detection import default_lines
from benchmarks.events import push_moved_mm, report, run_table, simulated_shots, split_pair, truth
from calibration.tables import get_table


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


def test_a_push_counts_only_if_it_moves_something_three_mm():
    # (Novuss seed 1 shot 74: the puck drives pawn 11 into cushion a, and the impulse runs
    # down the row 12-17 at 81-126 mm/s; each inner pawn moves tenths of a mm, the last 2.9)
    spec = get_table("novuss")
    lines = tuple(spec.line(n) for n in default_lines(spec))
    res = next(r for done, _, r, _ in simulated_shots(spec, 75, 1) if done == 74)
    contacts = [g for g in truth(spec, res, lines) if g["kind"] == "contact"]
    row = [g for g in contacts if 1 not in g["ids"]]
    assert [g["ids"] for g in row] == [(11, 12), (12, 13), (13, 14), (14, 15), (15, 16),
                                       (16, 17)]
    assert all(g["dont_care"] and g["unseen_push"] for g in row)
    assert 2.0 < push_moved_mm(res, 12, row[0]["t"]) < 3.0
    assert contacts[0]["ids"] == (1, 11) and not contacts[0].get("dont_care")
    # a Newton's cradle (seed 0 shot 16): the puck hits pawn 12 at 0.577 s, whose row
    # passes the impulse on to pawn 17, which slides 40 mm: every push of it counts
    res = next(r for done, _, r, _ in simulated_shots(spec, 17, 0) if done == 16)
    cradle = [g for g in truth(spec, res, lines)
              if g["kind"] == "contact" and 0.577 < g["t"] < 0.579 and 1 not in g["ids"]]
    assert [g["ids"] for g in cradle] == [(12, 13), (13, 14), (14, 15), (15, 16), (16, 17)]
    assert all(g["frozen"] and not g.get("dont_care") for g in cradle)
    # a pool break: the rack's pushes send balls off, and stay in the ground truth
    pool = get_table("pool-9ft")
    res = next(r for _, _, r, _ in simulated_shots(pool, 1, 0))
    gt = truth(pool, res, ())
    assert sum(bool(g.get("frozen")) for g in gt) >= 10
    assert not any(g.get("unseen_push") for g in gt)


def test_confidence_table_counts_each_reported_contact_once_in_its_bin():
    # every contact reported that is not a don't care lands in one confidence bin, and
    # those of them that are real add up to what the precision counts
    res = run_table("pool-9ft", 6, 0)
    s, c = res["stats"], res["per_kind"]["contact"]
    reported = sum(s[("conf", "contact", b, "det")] for b in range(4))
    real = sum(s[("conf", "contact", b, "real")] for b in range(4))
    assert reported == c["det"] and real == c["hit"] and reported > 0
    text = report([res], 6, [0])
    rows = [line for line in text.splitlines() if line.startswith("| pool-9ft | 0 | contact | 0.")]
    assert len(rows) == 4
    assert sum(int(r.strip("|").split("|")[4]) for r in rows) == reported
