"""10-ball (RULES §4, WPA 9.x)."""

from __future__ import annotations

from test_rules_helpers import FOOT_X, check_json, engine, has, orders_of, shot

from adjudication.calls import Outcome
from adjudication.declarations import Declaration

TABLE = [("cue_ball", -300, 0), ("ball_1", 300, 100), ("ball_2", 400, -200), ("ball_10", 500, 300)]
HIT_1 = ("contact", 1.0, "cue_ball", "ball_1")


def ten(**kw):
    e = engine("10ball", **kw)
    return e, e.start(["ann", "bob"]).with_(breaking=False, ball_in_hand=None)


def test_wpa_9_8_called_ball_pocketed_continues_assumed_call() -> None:
    e, s = ten()
    j = e.judge(s, shot(TABLE, [HIT_1, ("pocket", 2.0, "ball_1", "foot_left")]))
    c = next(c for c in j.calls if c.rule == "WPA 9.8")
    assert c.outcome is Outcome.LEGAL and c.assumed and j.state.shooter == "ann"
    check_json(j)


def test_wpa_9_7_wrong_pocket_opponent_takes_table_by_default() -> None:
    e, s = ten()
    d = Declaration(called_ball="ball_1", called_pocket="side_left")
    j = e.judge(s, shot(TABLE, [HIT_1, ("pocket", 2.0, "ball_1", "foot_left")]), d)
    assert has(j, "WPA 9.7", Outcome.LOSS_OF_TURN) and j.state.shooter == "bob"
    assert any(c.assumed and c.evidence.get("option") == "accept" for c in j.calls)
    d2 = Declaration(called_ball="ball_1", called_pocket="side_left", option="return")
    assert (
        e.judge(s, shot(TABLE, [HIT_1, ("pocket", 2.0, "ball_1", "foot_left")]), d2).state.shooter
        == "ann"
    )


def test_wpa_9_8_called_ten_wins() -> None:
    e, s = ten()
    ev = [HIT_1, ("contact", 1.2, "ball_1", "ball_10"), ("pocket", 2.0, "ball_10", "foot_left")]
    j = e.judge(s, shot(TABLE, ev), Declaration(called_ball="ball_10", called_pocket="foot_left"))
    assert has(j, "WPA 9.8", Outcome.RACK_WIN) and j.state.scores == (1, 0)


def test_wpa_9_9_uncalled_ten_is_spotted() -> None:
    e, s = ten()
    ev = [HIT_1, ("contact", 1.2, "ball_1", "ball_10"), ("pocket", 2.0, "ball_10", "foot_left")]
    j = e.judge(s, shot(TABLE, ev), Declaration(called_ball="ball_1", called_pocket="foot_right"))
    assert has(j, "WPA 9.7", Outcome.LOSS_OF_TURN) and has(j, "WPA 9.9", Outcome.SPOT)
    assert orders_of(j, "spot")[0].labels == ("ball_10",) and j.state.scores == (0, 0)


def test_rules_8_14_early_ten_respot_variant() -> None:
    e, s = ten(early_ten_wins=False)
    ev = [HIT_1, ("contact", 1.2, "ball_1", "ball_10"), ("pocket", 2.0, "ball_10", "foot_left")]
    j = e.judge(s, shot(TABLE, ev), Declaration(called_ball="ball_10", called_pocket="foot_left"))
    assert j.state.scores == (0, 0) and orders_of(j, "spot") and j.state.shooter == "ann"


def test_wpa_9_3_ten_on_the_break_is_spotted() -> None:
    e = engine("10ball")
    s = e.start(["ann", "bob"])
    table = [("cue_ball", -900, 0), ("ball_1", FOOT_X, 0), ("ball_10", 700, 0)]
    ev = [("contact", 1.0, "cue_ball", "ball_1"), ("pocket", 2.0, "ball_10", "foot_left")]
    j = e.judge(s, shot(table, ev))
    assert has(j, "WPA 9.9", Outcome.SPOT) and j.state.shooter == "ann" and j.state.scores == (0, 0)


def test_wpa_9_6_safety_with_ball_pocketed_opponent_option() -> None:
    e, s = ten()
    j = e.judge(
        s, shot(TABLE, [HIT_1, ("pocket", 2.0, "ball_2", "foot_left")]), Declaration(safety=True)
    )
    assert has(j, "WPA 9.6", Outcome.LEGAL) and j.state.shooter == "bob"


def test_wpa_9_11_three_fouls_lose_rack_ten_ball() -> None:
    e, s = ten()
    j = e.judge(s.with_(fouls_in_a_row=(2, 0)), shot(TABLE, [("cushion", 1.0, "cue_ball", "foot")]))
    assert has(j, "WPA 9.11", Outcome.RACK_LOSS) and j.state.scores == (0, 1)


def test_wpa_9_1_rack_won_on_the_ten_alternate_break_then_match() -> None:
    e, s = ten(race_to=2)
    table = [("cue_ball", -300, 0), ("ball_10", 500, 300)]
    ev = [("contact", 1.0, "cue_ball", "ball_10"), ("pocket", 2.0, "ball_10", "foot_left")]
    d = Declaration(called_ball="ball_10", called_pocket="foot_left")
    j = e.judge(s, shot(table, ev), d)
    assert any(c.outcome is Outcome.RACK_WIN and c.player == "ann" for c in j.calls)
    assert j.state.scores == (1, 0) and j.state.breaking and j.state.shooter == "bob"
    assert orders_of(j, "rerack")
    j2 = e.judge(s.with_(scores=(1, 0)), shot(table, ev), d)
    assert has(j2, "Reg. 15", Outcome.MATCH_WIN) and j2.state.winner == 0
    check_json(j2)
