"""Cross-game pool calls (RULES §2.5 P1–P19) and 9-ball (§3), one test per clause."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from test_rules_helpers import FOOT_X, check_json, engine, has, orders_of, shot

from adjudication.calls import Outcome
from adjudication.declarations import Declaration

TABLE = [
    ("cue_ball", -300, 0),
    ("ball_1", 300, 100),
    ("ball_2", 400, -200),
    ("ball_3", 100, 400),
    ("ball_9", 500, 300),
]
HIT_1 = ("contact", 1.0, "cue_ball", "ball_1")
RAIL_1 = ("cushion", 1.5, "ball_1", "foot")


def nine(**kw):
    e = engine("9ball", **kw)
    s = e.start(["ann", "bob"])
    return e, s.with_(breaking=False, ball_in_hand=None)


def test_wpa_8_2_legal_shot_passes_turn_nine_ball() -> None:
    e, s = nine()
    j = e.judge(s, shot(TABLE, [HIT_1, RAIL_1]))
    assert has(j, "WPA 8.2", Outcome.LEGAL)
    assert has(j, "WPA 2.5", Outcome.LOSS_OF_TURN)
    assert j.state.shooter == "bob" and j.state.ball_in_hand is None
    check_json(j)


@pytest.mark.parametrize(
    "events, rule, text",
    [
        ([HIT_1, RAIL_1, ("pocket", 2.0, "cue_ball", "head_left")], "WPA 6.1", "pocketed"),
        ([HIT_1, RAIL_1, ("off_table", 2.0, "cue_ball")], "WPA 6.1", "left the table"),
        (
            [("contact", 1.0, "cue_ball", "ball_2"), ("cushion", 1.5, "ball_2", "foot")],
            "WPA 6.2",
            "hit the 2",
        ),
        ([("cushion", 1.0, "cue_ball", "foot")], "WPA 6.3", "no object ball"),
        ([HIT_1], "WPA 6.3", "rail"),
        ([HIT_1, RAIL_1, ("off_table", 2.0, "ball_2")], "WPA 6.5", "left the table"),
    ],
    ids=["p1_scratch", "p2_cue_off", "p3_wrong_ball", "p4_no_contact", "p5_no_rail", "p6_off"],
)
def test_wpa_6_standard_fouls_give_ball_in_hand_nine_ball(events, rule, text) -> None:
    e, s = nine()
    j = e.judge(s, shot(TABLE, events))
    fouls = [c for c in j.calls if c.outcome is Outcome.FOUL]
    assert fouls and fouls[0].rule == rule and text in fouls[0].text
    assert has(j, "WPA 2.7", Outcome.BALL_IN_HAND)
    assert j.state.shooter == "bob" and j.state.ball_in_hand == "anywhere"
    assert j.state.fouls_in_a_row == (1, 0)
    check_json(j)


def test_wpa_6_2_wrong_ball_first_nine_ball_evidence() -> None:
    e, s = nine()
    j = e.judge(
        s,
        shot(
            TABLE, [("contact", 1.2, "cue_ball", "ball_3"), ("cushion", 1.5, "ball_3", "left_foot")]
        ),
    )
    c = next(c for c in j.calls if c.rule == "WPA 6.2")
    assert c.evidence["legal_targets"] == ["ball_1"]
    assert c.evidence["first_contact"]["t_s"] == 1.2


def test_wpa_6_2_simultaneous_hit_with_other_ball_is_foul() -> None:
    e, s = nine()
    ev = [HIT_1, ("contact", 1.005, "cue_ball", "ball_2"), RAIL_1]
    assert has(e.judge(s, shot(TABLE, ev)), "WPA 6.2", Outcome.FOUL)


def test_wpa_6_3_pocketed_ball_counts_as_rail() -> None:
    e, s = nine()
    j = e.judge(s, shot(TABLE, [HIT_1, ("pocket", 2.0, "ball_1", "foot_left")]))
    assert j.calls[0].outcome is not Outcome.FOUL
    assert has(j, "WPA 2.5", Outcome.LEGAL) and j.state.shooter == "ann"


def test_wpa_8_4_frozen_ball_counts_only_when_it_leaves() -> None:
    e, s = nine()
    table = [("cue_ball", -300, 0), ("ball_1", 300, 606.4)]  # frozen to the left rail
    touch = ("cushion", 1.01, "ball_1", "left_foot", (300, 606.4))
    d = Declaration(frozen=("ball_1",))
    assert has(e.judge(s, shot(table, [HIT_1, touch]), d), "WPA 6.3", Outcome.FOUL)
    assert not has(e.judge(s, shot(table, [HIT_1, touch])), "WPA 6.3", Outcome.FOUL)
    back = ("cushion", 2.0, "ball_1", "left_foot", (500, 606.4))
    assert not has(e.judge(s, shot(table, [HIT_1, touch, back]), d), "WPA 6.3", Outcome.FOUL)


def test_wpa_6_9_shot_while_ball_moving() -> None:
    e, s = nine()
    j = e.judge(s, shot(TABLE, [HIT_1, RAIL_1], moving=("ball_3",)))
    assert has(j, "WPA 6.9", Outcome.FOUL)
    s2 = shot(TABLE, [("cushion", -0.2, "ball_3", "foot"), HIT_1, RAIL_1])
    assert has(e.judge(s, s2), "WPA 6.9", Outcome.FOUL)


def test_wpa_6_6_moving_ball_touched_during_the_shot() -> None:
    e, s = nine()
    j = e.judge(s, shot(TABLE, [HIT_1, ("moved", 1.4, "ball_1"), RAIL_1]))
    assert has(j, "WPA 6.6", Outcome.FOUL)


def test_wpa_6_6_ball_moved_between_shots() -> None:
    e, s = nine()
    j = e.judge(s, shot(TABLE, [HIT_1, RAIL_1], between=[("moved", -1.0, "ball_2")]))
    assert has(j, "WPA 6.6", Outcome.FOUL)


def test_wpa_6_6_cue_ball_placed_with_ball_in_hand_is_fine() -> None:
    e, s = nine()
    s = s.with_(ball_in_hand="anywhere")
    j = e.judge(
        s,
        shot(
            TABLE,
            [HIT_1, RAIL_1],
            between=[("moved", -1.0, "cue_ball"), ("placed", -0.5, "cue_ball")],
        ),
    )
    assert not any(c.outcome is Outcome.FOUL for c in j.calls)
    j2 = e.judge(
        s.with_(ball_in_hand=None),
        shot(TABLE, [HIT_1, RAIL_1], between=[("moved", -1.0, "cue_ball")]),
    )
    assert has(j2, "WPA 6.6", Outcome.FOUL)


def test_wpa_6_10_cue_ball_not_behind_head_string() -> None:
    e, s = nine()
    s = s.with_(ball_in_hand="behind_head_string")
    j = e.judge(s, shot(TABLE, [HIT_1, RAIL_1]))  # cue ball at x = -300, head string -635
    c = next(c for c in j.calls if c.rule == "WPA 6.10")
    assert c.outcome is Outcome.FOUL and c.evidence["past_string_mm"] == pytest.approx(335.0)
    table = [("cue_ball", -900, 0), *TABLE[1:]]
    assert not has(e.judge(s, shot(table, [HIT_1, RAIL_1])), "WPA 6.10", Outcome.FOUL)


def test_wpa_6_11_first_ball_behind_head_string() -> None:
    e, s = nine()
    s = s.with_(ball_in_hand="behind_head_string")
    table = [("cue_ball", -900, 0), ("ball_1", -700, 300)]
    ev = [("contact", 1.0, "cue_ball", "ball_1"), ("cushion", 1.5, "ball_1", "left_head")]
    assert has(e.judge(s, shot(table, ev)), "WPA 6.11", Outcome.FOUL)
    kick = [("cushion", 0.8, "cue_ball", "foot"), *ev]
    assert not has(e.judge(s, shot(table, kick)), "WPA 6.11", Outcome.FOUL)


def test_wpa_2_3_break_needs_four_rails() -> None:
    e = engine("9ball")
    s = e.start(["ann", "bob"])
    table = [
        ("cue_ball", -900, 0),
        ("ball_1", FOOT_X, 0),
        ("ball_2", 700, 30),
        ("ball_3", 700, -30),
    ]
    ev = [
        ("contact", 1.0, "cue_ball", "ball_1"),
        ("cushion", 1.5, "ball_2", "foot"),
        ("cushion", 1.6, "ball_3", "foot"),
    ]
    j = e.judge(s, shot(table, ev))
    assert has(j, "WPA 2.3", Outcome.FOUL) and j.state.ball_in_hand == "anywhere"
    table4 = table + [("ball_4", 720, 0)]
    ev4 = ev + [("cushion", 1.7, "ball_1", "foot"), ("cushion", 1.8, "ball_4", "left_foot")]
    j4 = e.judge(s, shot(table4, ev4))
    assert has(j4, "WPA 2.3", Outcome.LEGAL)
    assert j4.state.pool.push_out_available and j4.state.shooter == "bob"


def test_wpa_2_5_nine_on_the_break_wins_rack() -> None:
    e = engine("9ball", race_to=3)
    s = e.start(["ann", "bob"])
    table = [("cue_ball", -900, 0), ("ball_1", FOOT_X, 0), ("ball_9", 700, 0)]
    ev = [
        ("contact", 1.0, "cue_ball", "ball_1"),
        ("contact", 1.1, "ball_1", "ball_9"),
        ("pocket", 2.0, "ball_9", "foot_left"),
    ]
    j = e.judge(s, shot(table, ev))
    assert has(j, "WPA 2.5", Outcome.RACK_WIN)
    assert j.state.scores == (1, 0) and j.state.breaking and j.state.shooter == "bob"
    rerack = orders_of(j, "rerack")[0]
    assert rerack.labels[0] == "ball_1" and rerack.xy_mm[0] == pytest.approx((FOOT_X, 0.0))
    assert len(rerack.labels) == 9 and rerack.labels[4] == "ball_9"


def test_wpa_2_6_nine_spotted_after_foul() -> None:
    e, s = nine()
    ev = [
        ("contact", 1.0, "cue_ball", "ball_2"),
        ("contact", 1.2, "ball_2", "ball_9"),
        ("pocket", 2.0, "ball_9", "foot_left"),
    ]
    j = e.judge(s, shot(TABLE, ev))
    assert has(j, "WPA 6.2", Outcome.FOUL) and has(j, "WPA 2.6", Outcome.SPOT)
    spot = orders_of(j, "spot")[0]
    assert spot.labels == ("ball_9",) and spot.xy_mm[0] == pytest.approx((FOOT_X, 0.0))
    assert "ball_9" in j.state.on_table and not has(j, "WPA 2.5", Outcome.RACK_WIN)


def test_wpa_1_4_spot_frozen_behind_blocking_ball() -> None:
    e, s = nine()
    table = [*TABLE, ("ball_4", FOOT_X, 0)]
    ev = [("contact", 1.0, "cue_ball", "ball_2"), ("off_table", 2.0, "ball_9")]
    j = e.judge(s, shot(table, ev))
    x, y = orders_of(j, "spot")[0].xy_mm[0]
    assert y == 0.0 and x == pytest.approx(FOOT_X + 57.15)


def test_wpa_2_4_push_out_only_when_declared() -> None:
    e, s = nine()
    s = replace(s, pool=replace(s.pool, push_out_available=True))
    ev = [("contact", 1.0, "cue_ball", "ball_3")]  # wrong ball, no rail: legal on a push-out
    j = e.judge(s, shot(TABLE, ev), Declaration(push_out=True))
    assert has(j, "WPA 2.4", Outcome.LEGAL) and not any(c.outcome is Outcome.FOUL for c in j.calls)
    assert j.state.shooter == "bob" and any(c.assumed for c in j.calls)
    j2 = e.judge(s, shot(TABLE, ev), Declaration(push_out=True, option="return"))
    assert j2.state.shooter == "ann"
    j3 = e.judge(s, shot(TABLE, [HIT_1, RAIL_1]))
    assert j3.calls[0].assumed and j3.calls[0].rule == "WPA 8.2"


def test_wpa_6_14_three_fouls_lose_the_rack_nine_ball() -> None:
    e, s = nine()
    miss = shot(TABLE, [("cushion", 1.0, "cue_ball", "foot")])
    j1 = e.judge(s, miss)
    j2 = e.judge(j1.state.with_(turn=0), miss)
    assert j2.state.fouls_in_a_row == (2, 0)
    j3 = e.judge(j2.state.with_(turn=0), miss)
    assert has(j3, "WPA 6.14", Outcome.SERIOUS_FOUL) and has(j3, "WPA 2.8", Outcome.RACK_LOSS)
    assert j3.state.scores == (0, 1) and j3.state.fouls_in_a_row == (0, 0) and j3.state.breaking


def test_wpa_6_14_legal_shot_resets_counter() -> None:
    e, s = nine()
    s = s.with_(fouls_in_a_row=(2, 0))
    assert e.judge(s, shot(TABLE, [HIT_1, RAIL_1])).state.fouls_in_a_row == (0, 0)


def test_nine_ball_rack_won_on_a_combo_sequence() -> None:
    e = engine("9ball", race_to=1)
    s = e.start(["ann", "bob"])
    brk = shot(
        [("cue_ball", -900, 0), ("ball_1", FOOT_X, 0), ("ball_2", 700, 30), ("ball_9", 750, 0)],
        [("contact", 1.0, "cue_ball", "ball_1"), ("pocket", 2.0, "ball_2", "foot_left")],
        number=1,
    )
    j = e.judge(s, brk)
    assert j.state.shooter == "ann" and j.state.on_table == ("ball_1", "ball_9")
    combo = shot(
        [("cue_ball", 0, 0), ("ball_1", 300, 0), ("ball_9", 600, 100)],
        [
            ("contact", 1.0, "cue_ball", "ball_1"),
            ("contact", 1.3, "ball_1", "ball_9"),
            ("pocket", 2.0, "ball_9", "foot_left"),
        ],
        number=2,
    )
    j2 = e.judge(j.state, combo)
    assert has(j2, "WPA 2.5", Outcome.RACK_WIN) and has(j2, "Reg. 15", Outcome.MATCH_WIN)
    assert j2.state.winner == 0
    with pytest.raises(ValueError, match="over"):
        e.judge(j2.state, combo)
    check_json(j2)


def test_legal_targets_nine_ball_lowest() -> None:
    e, s = nine()
    assert e.legal_targets(s, shot(TABLE).before) == {"ball_1"}


def test_wpa_6_13_wrong_player_is_flagged_for_review() -> None:
    e, s = nine()
    j = e.judge(s, shot(TABLE, [HIT_1, RAIL_1], player="bob"))
    assert has(j, "WPA 6.13", Outcome.REVIEW)


@pytest.mark.parametrize("game", ["9ball", "10ball", "8ball", "14.1"])
def test_wpa_1_7_ball_settling_into_a_pocket_is_put_back(game) -> None:
    e = engine(game)
    s = e.start(["ann", "bob"]).with_(breaking=False, ball_in_hand=None)
    if game == "14.1":
        s = s.with_(pool=replace(s.pool, opening_break=False))
    sh = shot(TABLE, [HIT_1, RAIL_1], between=[("pocket", -1.0, "ball_2", "foot_left")])
    j = e.judge(s, sh, Declaration(safety=True) if game in ("8ball", "10ball", "14.1") else None)
    assert has(j, "WPA 1.7", Outcome.SPOT)
    assert not any(c.outcome is Outcome.FOUL for c in j.calls)
    (order,) = orders_of(j, "restore")
    assert order.labels == ("ball_2",) and order.rule == "WPA 1.7"
    assert "ball_2" in j.state.on_table
    check_json(j)


def _weak(sh, kind, conf=0.3):
    evs = tuple(replace(e, confidence=conf) if e.kind.value == kind else e for e in sh.events)
    return replace(sh, events=evs)


def test_wpa_6_2_review_on_doubt_first_contact() -> None:
    e, s = nine()
    sh = shot(TABLE, [("contact", 1.0, "cue_ball", "ball_2"), ("cushion", 1.5, "ball_2", "foot")])
    j = e.judge(s, _weak(sh, "contact"))
    c = next(c for c in j.calls if c.outcome is Outcome.REVIEW)
    assert c.rule == "WPA 6.2" and c.evidence["doubtful"][0]["labels"] == ["cue_ball", "ball_2"]
    assert not any(c.outcome is Outcome.REVIEW for c in e.judge(s, sh).calls)
    e2, s2 = nine(review_below=0.2)
    assert not any(c.outcome is Outcome.REVIEW for c in e2.judge(s2, _weak(sh, "contact")).calls)


@pytest.mark.parametrize(("game", "asks"), [("9ball", True), ("10ball", True),
                                             ("8ball", False), ("14.1", False)])
def test_a_doubtful_first_contact_on_a_break_is_for_review_only_where_it_matters(
        game, asks) -> None:
    # a 9-ball or 10-ball break must hit the lowest ball first (WPA 6.2); an 8-ball break
    # (3.3) and a 14.1 opening break (4.3) may hit any: which one is no question there
    e = engine(game)
    s = e.start(["ann", "bob"])
    assert s.breaking
    sh = shot(TABLE, [HIT_1, RAIL_1, ("cushion", 1.6, "ball_2", "foot"),
                      ("cushion", 1.7, "cue_ball", "head")])
    j = e.judge(s, _weak(sh, "contact"))
    assert has(j, "WPA 6.2", Outcome.REVIEW) is asks


def test_wpa_6_1_review_on_doubt_scratch_pocket() -> None:
    e, s = nine()
    sh = shot(TABLE, [HIT_1, RAIL_1, ("pocket", 2.0, "cue_ball", "head_left")])
    j = e.judge(s, _weak(sh, "pocket"))
    assert has(j, "WPA 6.1", Outcome.REVIEW) and not has(j, "WPA 6.1", Outcome.FOUL)
    assert "doubtful" in next(c for c in j.calls if c.rule == "WPA 6.1").evidence


def test_wpa_calibration_untrusted_and_referee_overrule() -> None:
    from adjudication.declarations import RefereeCall

    e, s = nine()
    j = e.judge(s, replace(shot(TABLE, [HIT_1, RAIL_1]), calibration_untrusted=True))
    assert j.calls[0].rule == "WPA camera review" and j.calls[0].outcome is Outcome.REVIEW
    d = Declaration(overrule=(RefereeCall("WPA 6.2", "foul", "The 2 was hit first."),))
    k = e.judge(s, shot(TABLE, [HIT_1, RAIL_1]), d)
    assert [(c.rule, c.outcome.value) for c in k.calls] == [("WPA 6.2", "foul")]
    assert k.calls[0].evidence["by"] == "referee"


# ------------------------------------------------------------- WPA 6.15 shot clock (P15)


def _timed(game: str, limit, wait, between=()):
    e = engine(game, shot_clock_s=limit)
    s = e.start(["ann", "bob"]).with_(breaking=False, ball_in_hand=None)
    s = s.with_(clock_from_s=None if wait is None else -float(wait))
    return e, e.judge(s, shot(TABLE, [HIT_1, RAIL_1], between=between))


@pytest.mark.parametrize(
    "game, limit, wait, between, foul, then",
    [
        ("9ball", None, 300, (), False, None),  # off by default: a referee imposes it
        ("9ball", 35, 30, (), False, None),
        ("9ball", 35, 40, (), True, ("WPA 2.7", Outcome.BALL_IN_HAND)),
        ("10ball", 35, 40, (), True, ("WPA 9.10", Outcome.BALL_IN_HAND)),
        ("8ball", 35, 40, (), True, ("WPA 3.9", Outcome.BALL_IN_HAND)),
        ("14.1", 35, 40, (), True, ("WPA 4.9", Outcome.POINT)),
        # the referee spotted a ball 5 s before the stroke: the clock starts there
        ("9ball", 35, 40, [("placed", -5.0, "ball_2")], False, None),
        # the cue ball placed in hand is the shooter's own time
        ("9ball", 35, 40, [("placed", -5.0, "cue_ball")], True, None),
        ("9ball", 35, None, (), False, None),  # after a re-rack, no placement seen: untimed
    ],
    ids=["off", "in_time", "late_9", "late_10", "late_8", "late_14_1", "spotted_ball",
         "cue_in_hand", "fresh_rack"],
)
def test_wpa_6_15_shot_clock(game, limit, wait, between, foul, then) -> None:
    _e, j = _timed(game, limit, wait, between)
    assert has(j, "WPA 6.15", Outcome.FOUL) is foul
    if foul:
        c = next(c for c in j.calls if c.rule == "WPA 6.15")
        assert c.evidence["limit_s"] == limit and c.evidence["took_s"] > limit
        assert j.state.shooter == "bob" and j.state.fouls_in_a_row[0] == 1
    if then:
        assert has(j, *then)
    check_json(j)


def test_wpa_6_15_clock_restarts_at_shot_end_and_waits_after_a_rerack() -> None:
    e, s = nine(shot_clock_s=35)
    sh = shot(TABLE, [HIT_1, RAIL_1])
    assert e.judge(s, sh).state.clock_from_s == sh.t_end_s
    win = shot(TABLE, [HIT_1, ("pocket", 1.5, "ball_9", "foot_left")])
    j = e.judge(s, win)
    assert has(j, "WPA 2.5", Outcome.RACK_WIN) and j.state.clock_from_s is None
    assert "clock_from_s" not in j.state.to_json()


# ---------------------------------------------------------------- WPA 8.3 ball on the lip

ON_LIP = (1215.0, -580.0)  # at rest in the jaws of foot_right (pocket centre 1270, -635)


def _lip_state(game: str, clock):
    e = engine(game)
    s = e.start(["ann", "bob"]).with_(breaking=False, ball_in_hand=None, clock_from_s=clock)
    if game == "14.1":
        s = s.with_(pool=replace(s.pool, opening_break=False))
    return e, s


@pytest.mark.parametrize("game", ["9ball", "10ball", "8ball", "14.1"])
def test_wpa_8_3_ball_hanging_on_the_lip_then_dropping_is_put_back(game) -> None:
    """Came to rest when the last shot ended (-8 s), dropped 7 s later: not pocketed."""
    e, s = _lip_state(game, -8.0)
    drop = ("pocket", -1.0, "ball_2", "foot_right", (1250.0, -615.0))
    j = e.judge(s, shot(TABLE, [HIT_1, RAIL_1], between=[drop]), Declaration(safety=True)
                if game in ("8ball", "10ball", "14.1") else None)
    c = next(c for c in j.calls if c.rule == "WPA 8.3")
    assert c.outcome is Outcome.SPOT and "not pocketed" in c.text
    assert c.evidence["waited_s"] == pytest.approx(7.0) and c.evidence["wait_s"] == 5.0
    assert not has(j, "WPA 1.7", Outcome.SPOT) and not any(
        c.outcome in (Outcome.FOUL, Outcome.REVIEW) for c in j.calls)
    (order,) = orders_of(j, "restore")
    assert order.rule == "WPA 8.3" and order.labels == ("ball_2",)
    # put back just outside the point of no return (40 mm from the pocket centre), on the lip
    x, y = order.xy_mm[0]
    assert math.dist((x, y), (1270.0, -635.0)) == pytest.approx(41.0)
    assert "ball_2" in j.state.on_table and j.state.shooter == "bob"
    check_json(j)


def test_wpa_8_3_drop_within_the_wait_after_a_judged_shot_goes_to_the_referee() -> None:
    """Dropped 2 s after the last shot ended: it belongs to that shot, already judged."""
    e, s = _lip_state("9ball", -3.0)
    s = s.with_(shot=4)
    drop = ("pocket", -1.0, "ball_2", "foot_right", (1250.0, -615.0))
    j = e.judge(s, shot(TABLE, [HIT_1, RAIL_1], between=[drop], number=5))
    c = next(c for c in j.calls if c.rule == "WPA 8.3")
    assert c.outcome is Outcome.REVIEW and c.evidence["counts_for_shot"] == 4
    assert c.evidence["waited_s"] == pytest.approx(2.0)
    assert orders_of(j, "restore")[0].rule == "WPA 8.3"
    # the first shot of a rack cannot be timed: the general WPA 1.7 applies
    e2, s2 = _lip_state("9ball", None)
    j2 = e2.judge(s2, shot(TABLE, [HIT_1, RAIL_1], between=[drop]))
    assert has(j2, "WPA 1.7", Outcome.SPOT) and not any(c.rule == "WPA 8.3" for c in j2.calls)
    # the wait is a setting: 7 s on the lip is within a 10 s wait
    e3 = engine("9ball", pocket_lip_wait_s=10.0)
    s3 = e3.start(["ann", "bob"]).with_(breaking=False, ball_in_hand=None, clock_from_s=-8.0)
    assert has(e3.judge(s3, shot(TABLE, [HIT_1, RAIL_1], between=[drop])), "WPA 8.3",
               Outcome.REVIEW)
    with pytest.raises(ValueError, match="pocket_lip_wait_s"):
        engine("9ball", pocket_lip_wait_s=0.0)


@pytest.mark.parametrize(
    "clock, touched, counted",
    [
        (-10.0, False, False),  # hung 11 s, nothing touched it: not pocketed, put back
        (-10.0, True, True),  # the 1 knocked it in: pocketed on this shot
        (None, False, True),  # not timed (first shot of the rack): judged as seen
    ],
    ids=["hung_untouched", "knocked_in", "untimed"],
)
def test_wpa_8_3_ball_on_the_lip_dropping_during_the_next_shot(clock, touched, counted) -> None:
    e, s = _lip_state("9ball", clock)
    table = [*TABLE, ("ball_4", *ON_LIP)]
    evs = [HIT_1, RAIL_1, ("pocket", 1.2 + 0.4 * touched, "ball_4", "foot_right")]
    if touched:
        evs.insert(2, ("contact", 1.3, "ball_1", "ball_4"))
    j = e.judge(s, shot(table, evs))
    assert has(j, "WPA 2.5", Outcome.LEGAL) is counted  # pocketed a ball: continues
    assert has(j, "WPA 8.3", Outcome.SPOT) is not counted
    if not counted:
        (order,) = orders_of(j, "restore")
        assert order.xy_mm[0] == pytest.approx(ON_LIP) and "ball_4" in j.state.on_table
        assert j.state.shooter == "bob"


def _stream_referee(*lines):
    from test_rules_helpers import POOL

    from adjudication.games import Game
    from adjudication.replay import StreamReferee

    ref = StreamReferee(Game.NINE_BALL, POOL)
    objects = [{"id": k + 1, "label": lab, "xy_mm": [x, y]}
               for k, (lab, x, y) in enumerate(TABLE)]
    out = ref.feed(1, {"v": 1, "type": "match_start", "game": "9ball", "players": ["ann", "bob"],
                       "breaking": False, "objects": objects})
    for n, line in enumerate(lines, start=2):
        out += ref.feed(n, line)
    return out + ref.close()


def _ev(kind, t, shot_no, *objs, **kw):
    ids = {lab: k + 1 for k, (lab, _x, _y) in enumerate(TABLE)}
    return {"v": 1, "type": "event", "kind": kind, "t_s": t, "frame": int(t * 30),
            "shot": shot_no, "objects": [{"id": ids[o], "label": o} for o in objs],
            "xy_mm": [1250.0, -615.0], "confidence": 1.0, **kw}


@pytest.mark.parametrize("late_s, counted", [(3.0, True), (7.0, False)])
def test_wpa_8_3_replay_late_drop_within_the_wait_counts_for_its_shot(late_s, counted) -> None:
    """``cueref judge``: the 2 stops on the lip at the end of shot 1 and drops ``late_s``
    later, before anything else happens."""
    out = _stream_referee(
        _ev("shot_start", 1.0, 1, "cue_ball"),
        _ev("contact", 1.2, 1, "cue_ball", "ball_1"),
        _ev("contact", 1.4, 1, "ball_1", "ball_2"),
        _ev("cushion", 1.6, 1, "ball_1", cushion="foot"),
        _ev("shot_end", 4.0, 1),
        _ev("pocket", 4.0 + late_s, 1, "ball_2", pocket="foot_right"),
        _ev("shot_start", 20.0, 2, "cue_ball"),
        _ev("contact", 20.2, 2, "cue_ball", "ball_1"),
        _ev("cushion", 20.5, 2, "ball_1", cushion="foot"),
        _ev("shot_end", 22.0, 2),
    )
    calls = [(c["shot"], c["rule"], c["outcome"]) for c in out if c["type"] == "call"]
    assert ((1, "WPA 2.5", "legal") in calls) is counted  # the 2 is down: ann continues
    assert ((2, "WPA 8.3", "spot") in calls) is not counted
    states = [x for x in out if x["type"] == "state"]
    assert ("ball_2" in states[-1]["on_table"]) is not counted


@pytest.mark.parametrize(
    "change, breaking",
    [
        ("none", True),  # the full rack, labels as racked
        ("misread", True),  # the detector's labels in a rack are wrong: positions decide
        ("three_missed", True),  # 3 of 15 balls not seen between their neighbours
        ("four_missed", True),  # 4: the 14.1 sample's rack as tracked from its pixels
        ("five_missed", False),  # too few rack places taken: a game in progress
        ("scattered", False),  # the same 15 balls spread over the table
    ],
)
def test_a_full_rack_in_view_starts_with_a_break_whatever_the_labels(change, breaking) -> None:
    from adjudication.games import Game
    from adjudication.replay import state_from_layout
    from adjudication.rules.pool_common import rack_order
    from adjudication.shot import Layout
    from calibration.tables import get_table

    spec = get_table("pool-9ft")
    rack = rack_order(Game.EIGHT_BALL, spec)
    rows = [(lab, x, y) for lab, (x, y) in zip(rack.labels, rack.xy_mm, strict=True)]
    if change == "misread":
        rows = [("ball_9" if lab in ("ball_12", "ball_14") else lab, x, y) for lab, x, y in rows]
    elif change == "three_missed":
        rows = rows[:4] + rows[7:]
    elif change == "four_missed":
        rows = rows[:4] + rows[8:]
    elif change == "five_missed":
        rows = rows[:4] + rows[9:]
    elif change == "scattered":
        rows = [(lab, -800 + 110 * i, 300 - 40 * i) for i, (lab, _, _) in enumerate(rows)]
    layout = Layout.from_rows([("cue_ball", -900, 0), *rows])
    e = engine("8ball")
    state, unseen = state_from_layout(e, Game.EIGHT_BALL, spec, ("ann", "bob"), layout)
    assert state.breaking is breaking
    if breaking:
        assert len(state.on_table) == 15 and unseen == []
    else:
        assert "scores" in unseen
