"""14.1 straight pool (RULES §6, WPA 4.x, EST)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_rules_helpers import FOOT_X, check_json, engine, has, orders_of, shot

from adjudication.calls import Outcome
from adjudication.declarations import Declaration

TABLE = [("cue_ball", -300, 0), ("ball_1", 300, 100), ("ball_2", 400, -200), ("ball_3", 100, 400)]
HIT_1 = ("contact", 1.0, "cue_ball", "ball_1")
POT_1 = ("pocket", 2.0, "ball_1", "foot_left")


def sp(**kw):
    e = engine("14.1", **kw)
    s = e.start(["ann", "bob"])
    return e, s.with_(breaking=False, ball_in_hand=None, pool=replace(s.pool, opening_break=False))


def test_wpa_4_7_point_per_ball_and_continue() -> None:
    e, s = sp()
    ev = [
        HIT_1,
        ("contact", 1.2, "ball_1", "ball_2"),
        POT_1,
        ("pocket", 2.1, "ball_2", "foot_right"),
    ]
    j = e.judge(s, shot(TABLE, ev), Declaration(called_ball="ball_1", called_pocket="foot_left"))
    assert (
        has(j, "WPA 4.7", Outcome.POINT) and j.state.scores == (2, 0) and j.state.shooter == "ann"
    )
    check_json(j)


def test_wpa_4_4_miss_spots_illegally_pocketed_balls() -> None:
    e, s = sp()
    d = Declaration(called_ball="ball_1", called_pocket="side_left")
    j = e.judge(s, shot(TABLE, [HIT_1, POT_1]), d)
    assert has(j, "WPA 4.4", Outcome.LOSS_OF_TURN) and has(j, "WPA 4.6", Outcome.SPOT)
    assert orders_of(j, "spot")[0].xy_mm[0] == pytest.approx((FOOT_X, 0.0))
    assert j.state.scores == (0, 0) and "ball_1" in j.state.on_table


def test_wpa_4_9_foul_minus_one_no_ball_in_hand_unless_scratch() -> None:
    e, s = sp()
    j = e.judge(s, shot(TABLE, [HIT_1]))  # no rail
    assert has(j, "WPA 6.3", Outcome.FOUL) and j.state.scores == (-1, 0)
    assert j.state.ball_in_hand is None and j.state.shooter == "bob"
    j2 = e.judge(s, shot(TABLE, [HIT_1, ("pocket", 2.0, "cue_ball", "head_left")]))
    assert j2.state.ball_in_hand == "behind_head_string"


def test_wpa_6_2_does_not_apply_in_straight_pool() -> None:
    e, s = sp()
    j = e.judge(
        s,
        shot(
            TABLE, [("contact", 1.0, "cue_ball", "ball_3"), ("cushion", 1.3, "ball_3", "left_foot")]
        ),
    )
    assert not any(c.outcome is Outcome.FOUL for c in j.calls)


def test_wpa_4_3_opening_break_breaking_foul_minus_two() -> None:
    e = engine("14.1")
    s = e.start(["ann", "bob"])
    table = [("cue_ball", -900, 0), ("ball_1", FOOT_X, 0), ("ball_2", 700, 30)]
    ev = [("contact", 1.0, "cue_ball", "ball_1"), ("cushion", 1.5, "ball_1", "foot")]
    j = e.judge(s, shot(table, ev))
    assert has(j, "WPA 4.3", Outcome.FOUL) and j.state.scores == (-2, 0)
    assert j.state.fouls_in_a_row == (0, 0) and j.state.shooter == "bob"
    j2 = e.judge(s, shot(table, ev), Declaration(option="rebreak"))
    assert j2.state.shooter == "ann" and j2.state.breaking and orders_of(j2, "rerack")
    ok = ev + [("cushion", 1.6, "ball_2", "left_foot"), ("cushion", 1.8, "cue_ball", "head")]
    j3 = e.judge(s, shot(table, ok))
    assert has(j3, "WPA 4.3", Outcome.LEGAL) and j3.state.scores == (0, 0)


def test_est_6_scratch_on_otherwise_legal_break_is_standard_foul() -> None:
    e = engine("14.1")
    s = e.start(["ann", "bob"])
    table = [("cue_ball", -900, 0), ("ball_1", FOOT_X, 0), ("ball_2", 700, 30)]
    ev = [
        ("contact", 1.0, "cue_ball", "ball_1"),
        ("cushion", 1.5, "ball_1", "foot"),
        ("cushion", 1.6, "ball_2", "foot"),
        ("pocket", 2.0, "cue_ball", "head_left"),
    ]
    j = e.judge(s, shot(table, ev))
    assert has(j, "WPA 6.1", Outcome.FOUL) and j.state.scores == (-1, 0)
    assert j.state.ball_in_hand == "behind_head_string" and j.state.fouls_in_a_row == (1, 0)


def test_wpa_4_11_three_fouls_minus_fifteen_rerack() -> None:
    e, s = sp()
    miss = shot(TABLE, [("cushion", 1.0, "cue_ball", "foot")])
    j = e.judge(s, miss)
    j = e.judge(j.state.with_(turn=0), miss)
    j = e.judge(j.state.with_(turn=0), miss)
    assert has(j, "WPA 4.11", Outcome.SERIOUS_FOUL)
    assert j.state.scores == (-18, 0) and j.state.fouls_in_a_row == (0, 0)
    assert j.state.shooter == "ann" and j.state.breaking and j.state.pool.opening_break
    rack = orders_of(j, "rerack")[0]
    assert len(rack.labels) == 15 and rack.labels[10] == "ball_1" and rack.labels[14] == "ball_5"


def test_wpa_4_4_rerack_when_one_ball_left_sequence() -> None:
    e, s = sp(straight_pool_target=150)
    table = [("cue_ball", -300, 0), ("ball_1", 300, 100), ("ball_2", 0, -400)]
    s = s.with_(on_table=("ball_1", "ball_2"), scores=(13, 0))
    j = e.judge(
        s, shot(table, [HIT_1, POT_1]), Declaration(called_ball="ball_1", called_pocket="foot_left")
    )
    assert j.state.scores == (14, 0) and j.state.shooter == "ann"
    rack = orders_of(j, "rerack")[0]
    assert len(rack.labels) == 14 and "ball_2" not in rack.labels
    assert all(abs(x - FOOT_X) > 1 or abs(y) > 1 for x, y in rack.xy_mm)  # apex empty
    assert len(j.state.on_table) == 15
    # next shot breaks the rack off the 15th ball: a normal called shot
    nxt = shot(
        [
            ("cue_ball", -300, 0),
            ("ball_2", 0, -400),
            *((lab, x, y) for lab, (x, y) in zip(rack.labels, rack.xy_mm, strict=True)),
        ],
        [("contact", 1.0, "cue_ball", "ball_2"), ("pocket", 2.0, "ball_2", "side_right")],
        number=2,
    )
    j2 = e.judge(j.state, nxt)
    assert j2.state.scores == (15, 0) and len(j2.state.on_table) == 14


def test_wpa_4_8_fifteenth_ball_in_rack_area_goes_to_head_spot() -> None:
    e, s = sp()
    table = [("cue_ball", -300, 0), ("ball_1", 300, 100), ("ball_2", 700, 0)]
    j = e.judge(s, shot(table, [HIT_1, POT_1]), Declaration(called_ball="ball_1"))
    spot = [o for o in j.orders if o.kind == "spot" and o.rule == "WPA 4.8"]
    assert (
        spot and spot[0].labels == ("ball_2",) and spot[0].xy_mm[0] == pytest.approx((-635.0, 0.0))
    )


def test_wpa_4_4_target_score_wins_match() -> None:
    e, s = sp(straight_pool_target=50)
    s = s.with_(scores=(49, 10))
    j = e.judge(s, shot(TABLE, [HIT_1, POT_1]))
    assert has(j, "WPA 4.4", Outcome.MATCH_WIN) and j.state.winner == 0


def test_est_7_4_safety_pocketed_balls_spotted() -> None:
    e, s = sp()
    j = e.judge(s, shot(TABLE, [HIT_1, POT_1]), Declaration(safety=True))
    assert has(j, "EST §7.4", Outcome.LOSS_OF_TURN) and orders_of(j, "spot")
    assert j.state.scores == (0, 0)


IN_RACK = (FOOT_X + 60, 0)  # inside the rack outline
HEAD_SPOT = (-635.0, 0.0)
CENTRE_SPOT = (0.0, 0.0)


@pytest.mark.parametrize(
    "bb, cb, rack15, bb_to, cb_to, bih",
    [
        # 4.8a: BB pocketed with the 14th (no ball left): all 15; CB in the rack -> BIH-HS
        (None, (-300, 0), True, None, None, None),
        (None, IN_RACK, True, None, None, "behind_head_string"),
        # 4.8b: both in the rack area -> all 15, BIH-HS
        ((FOOT_X + 120, 30), IN_RACK, True, None, None, "behind_head_string"),
        # 4.8c: BB in the rack, CB on the head spot -> centre spot; else head spot
        (IN_RACK, HEAD_SPOT, False, CENTRE_SPOT, None, None),
        (IN_RACK, (-300, 200), False, HEAD_SPOT, None, None),
        # 4.8d: CB in the rack; BB behind the string -> CB to the head spot
        ((-900, 300), IN_RACK, False, None, HEAD_SPOT, None),
        # ... head spot blocked by BB -> centre spot
        ((-660, 0), IN_RACK, False, None, CENTRE_SPOT, None),
        # ... BB on the head string or in front of it -> BIH-HS
        ((-635, 300), IN_RACK, False, None, None, "behind_head_string"),
        ((0, 300), IN_RACK, False, None, None, "behind_head_string"),
        # neither interferes: both stay
        ((0, 300), (-300, 0), False, None, None, None),
    ],
)
def test_wpa_4_8_rerack_table(bb, cb, rack15, bb_to, cb_to, bih) -> None:
    e, s = sp()
    table = [("cue_ball", *cb), ("ball_1", 300, 100)]
    on = ("ball_1",)
    events = [HIT_1, POT_1]
    if bb is not None:
        table.append(("ball_2", *bb))
        on = ("ball_1", "ball_2")
    else:
        table.append(("ball_2", 400, -300))
        on = ("ball_1", "ball_2")
        events.append(("pocket", 2.2, "ball_2", "foot_right"))
    s = s.with_(on_table=on)
    call = Declaration(called_ball="ball_1", called_pocket="foot_left")
    j = e.judge(s, shot(table, events), call)
    racks = orders_of(j, "rerack")
    assert len(racks[0].labels) == (15 if rack15 else 14)
    spots = {o.labels[0]: o.xy_mm[0] for o in j.orders if o.kind == "spot" and o.rule == "WPA 4.8"}
    assert spots.get("ball_2") == (pytest.approx(bb_to) if bb_to else None)
    assert spots.get("cue_ball") == (pytest.approx(cb_to) if cb_to else None)
    assert j.state.ball_in_hand == bih
    assert len(j.state.on_table) == 15 and j.state.shooter == "ann"
    check_json(j)


def test_wpa_4_8_string_ball_cue_in_rack_bca_setting() -> None:
    """§8.19: the BCA table sends the cue ball to the centre spot instead of BIH-HS."""
    e, s = sp(rerack_string_ball_cue="centre_spot")
    table = [("cue_ball", *IN_RACK), ("ball_1", 300, 100), ("ball_2", -635, 300)]
    s = s.with_(on_table=("ball_1", "ball_2"))
    j = e.judge(s, shot(table, [HIT_1, POT_1]), Declaration(called_ball="ball_1"))
    (o,) = [o for o in j.orders if o.kind == "spot" and o.labels == ("cue_ball",)]
    assert o.xy_mm[0] == pytest.approx(CENTRE_SPOT) and j.state.ball_in_hand is None


def test_wpa_6_14_warning_when_on_two_fouls() -> None:
    e, s = sp()
    s = s.with_(fouls_in_a_row=(1, 0))
    j = e.judge(s, shot(TABLE, []))
    (c,) = [c for c in j.calls if c.rule == "WPA 4.9" and c.outcome is Outcome.POINT]
    assert "two fouls" in c.evidence["warning"] and j.state.fouls_in_a_row == (2, 0)


# ------------------------------------------------ WPA 1.5 / EST §7.7 spotting on request

BEHIND = [
    ("cue_ball", -300, 0),
    ("ball_1", -700, 100),
    ("ball_2", -900, 300),
    ("ball_3", -1000, -200),
]
SCRATCH = [
    ("contact", 1.0, "cue_ball", "ball_1"),
    ("cushion", 1.3, "ball_1", "left_head"),
    ("pocket", 2.0, "cue_ball", "head_left"),
]


@pytest.mark.parametrize(
    "table, events, asked, spotted, refused",
    [
        (BEHIND, SCRATCH, True, "ball_1", None),
        (BEHIND, SCRATCH, False, None, None),  # no request: nothing happens
        ([*BEHIND[:3], ("ball_3", 100, -200)], SCRATCH, True, None, "the 3 is not behind"),
        (BEHIND, SCRATCH[:2], True, None, "does not have ball in hand"),  # no scratch
        # the 1 and the 2 equally near: the shooter picks; undeclared, the lower number
        ([*BEHIND[:2], ("ball_2", -700, -300), BEHIND[3]], SCRATCH, True, "ball_1", None),
    ],
    ids=["granted", "not_requested", "ball_in_front", "no_bih_hs", "tie"],
)
def test_wpa_1_5_spot_request_when_every_ball_is_behind_the_head_string(
    table, events, asked, spotted, refused
) -> None:
    e, s = sp()
    j = e.judge(s, shot(table, events), Declaration(spot_request=asked))
    calls = [c for c in j.calls if c.rule == "WPA 1.5"]
    spots = [o for o in orders_of(j, "spot") if o.rule == "WPA 1.5"]
    if spotted:
        (c,) = calls
        assert c.outcome is Outcome.SPOT and c.player == "bob"
        assert c.evidence["ball"] == spotted and c.assumed is (table[2][1] == -700)
        assert spots[0].labels == (spotted,) and spots[0].xy_mm[0] == pytest.approx((FOOT_X, 0))
        assert j.state.ball_in_hand == "behind_head_string" and spotted in j.state.on_table
    else:
        assert not spots
        assert [c.outcome for c in calls] == ([Outcome.LEGAL] if refused else [])
        if refused:
            assert refused in calls[0].text and "no foul" in calls[0].text
    fouls = [c.rule for c in j.calls if c.outcome is Outcome.FOUL]
    assert fouls == (["WPA 6.1"] if len(events) == 3 else [])
    check_json(j)


# --------------------------------------------------------- EST §7.2 ball near the rail

NEAR = 635.0 - 57.15 / 2 - 30.0  # the 1 lies 30 mm from the left rail's nose
NEAR_TABLE = [("cue_ball", -300, 0), ("ball_1", 300, NEAR), ("ball_2", 400, -200),
              ("ball_3", 100, 400)]
TO_ITS_RAIL = [("contact", 1.0, "cue_ball", "ball_1"), ("cushion", 1.2, "ball_1", "left_foot")]
ELSEWHERE = [("contact", 1.0, "cue_ball", "ball_2"), ("cushion", 1.3, "ball_2", "right_foot")]


def _innings(e, s, plays):
    """ann and bob alternate (a shot that pockets nothing ends the inning); each play is
    ann's shot, bob answering with a shot at the 2."""
    j = None
    for ev in plays:
        j = e.judge(s, shot(NEAR_TABLE, ev))
        if j.state.shooter == "bob":
            s = e.judge(j.state, shot(NEAR_TABLE, ELSEWHERE)).state
        else:
            s = j.state
    return j, s


def test_est_7_2_near_rail_ball_third_time_to_its_rail_counts_as_frozen() -> None:
    e, s = sp()
    j, s = _innings(e, s, [TO_ITS_RAIL, TO_ITS_RAIL])
    assert not any(c.outcome is Outcome.FOUL for c in j.calls)
    assert s.pool.near_rail[0].shots == 2 and s.pool.near_rail[1] is None  # bob's count
    j, s = _innings(e, s, [TO_ITS_RAIL])
    (c,) = [c for c in j.calls if c.outcome is Outcome.FOUL]
    assert c.rule == "EST §7.2" and "counts as frozen" in c.text and "3rd" in c.text
    assert c.evidence["gap_mm"] == pytest.approx(30.0) and c.evidence["rail"] == "left"
    assert j.state.scores[0] == -1 and j.state.fouls_in_a_row == (1, 0)
    check_json(j)


@pytest.mark.parametrize(
    "third, foul",
    [
        (TO_ITS_RAIL, True),
        (TO_ITS_RAIL + [("cushion", 1.4, "cue_ball", "head")], False),  # the cue ball: a rail
        (TO_ITS_RAIL + [("cushion", 2.0, "ball_1", "left_foot")], False),  # left and came back
        (ELSEWHERE, False),
    ],
    ids=["only_its_rail", "cue_ball_to_a_rail", "left_and_returned", "other_ball"],
)
def test_est_7_2_third_attempt_needs_a_rail_besides_its_own(third, foul) -> None:
    e, s = sp()
    _j, s = _innings(e, s, [TO_ITS_RAIL, TO_ITS_RAIL])
    j, _s = _innings(e, s, [third])
    assert has(j, "EST §7.2", Outcome.FOUL) is foul


def test_est_7_2_another_ball_played_starts_the_count_again() -> None:
    e, s = sp()
    _j, s = _innings(e, s, [TO_ITS_RAIL, TO_ITS_RAIL, ELSEWHERE])
    assert s.pool.near_rail[0] is None
    j, s = _innings(e, s, [TO_ITS_RAIL, TO_ITS_RAIL])
    assert not has(j, "EST §7.2", Outcome.FOUL) and s.pool.near_rail[0].shots == 2


def test_est_7_2_ball_a_ball_width_away_or_setting_off_is_not_near() -> None:
    e, s = sp()
    far = [NEAR_TABLE[0], ("ball_1", 300, 635.0 - 57.15 / 2 - 60.0), *NEAR_TABLE[2:]]
    for _ in range(3):
        j = e.judge(s.with_(turn=0), shot(far, TO_ITS_RAIL))
        s = j.state
    assert not any(c.outcome is Outcome.FOUL for c in j.calls)
    e2, s2 = sp(est_near_rail=False)
    _j, s2 = _innings(e2, s2, [TO_ITS_RAIL, TO_ITS_RAIL])
    j2, _s = _innings(e2, s2, [TO_ITS_RAIL])
    assert not any(c.outcome is Outcome.FOUL for c in j2.calls)
    with pytest.raises(ValueError, match="est_near_rail_trigger"):
        sp(est_near_rail_trigger="second")


def test_est_7_2_on_two_fouls_the_breach_is_the_third_foul() -> None:
    """RULES §8.18: a breach while on two fouls is the third foul (EST §12: −1, −15, re-rack,
    the offender breaks); with the "after_foul" trigger (§8.23) it applies at once."""
    e, s = sp()
    _j, s = _innings(e, s, [TO_ITS_RAIL, TO_ITS_RAIL])
    s = s.with_(fouls_in_a_row=(2, 0), scores=(10, 0))
    j = e.judge(s, shot(NEAR_TABLE, TO_ITS_RAIL))
    assert has(j, "EST §7.2", Outcome.FOUL) and has(j, "WPA 4.11", Outcome.SERIOUS_FOUL)
    assert j.state.scores == (-6, 0) and j.state.breaking and j.state.shooter == "ann"
    assert j.state.pool.near_rail == (None, None)
    e2, s2 = sp(est_near_rail_trigger="after_foul")
    s2 = s2.with_(fouls_in_a_row=(1, 0))
    k = e2.judge(s2, shot(NEAR_TABLE, TO_ITS_RAIL))  # his first near-rail shot
    c = next(c for c in k.calls if c.rule == "EST §7.2")
    assert c.outcome is Outcome.FOUL and "on a foul" in c.text
    assert not has(e.judge(s2, shot(NEAR_TABLE, TO_ITS_RAIL)), "EST §7.2", Outcome.FOUL)
