"""WPA 1.2, the lag for the break (RULES §2.4): ``rules.lag.judge_lag`` on hand-built lag
shots, one test per clause, and ``cueref judge`` on a stream that starts with a lag."""

from __future__ import annotations

import json

import pytest
from test_cli_judge import judge, write_jsonl
from test_rules_helpers import POOL, check_json, shot

from adjudication.calls import Outcome
from adjudication.declarations import Declaration
from adjudication.rules.base import Judgement
from adjudication.rules.lag import judge_lag
from adjudication.settings import RuleSettings
from calibration.tables import BALL_RADIUS_MM
from cueref.stream import validation_errors

PLAYERS = ("ann", "bob")  # ann lags the right-hand ball (y < 0), bob the left (y > 0)
A, B = "cue_ball#1", "cue_ball#2"
BEFORE = [("cue_ball", -700, -300, 1), ("cue_ball", -700, 300, 2)]
HEAD = -1270.0  # head cushion nose on a 9 ft table
FOOT = 1270.0 - BALL_RADIUS_MM  # ball centre touching the foot cushion
NEAR, FAR = (-1200.0, -260.0), (-1100.0, 280.0)  # 41.4 mm and 141.4 mm from the head cushion


def lag_shot(a_rest=NEAR, b_rest=(-1100.0, 280.0), *, extra=(), b_struck=0.05, a_foot=(1.5,),
             b_foot=(1.55,), a_foot_y=-250.0):
    """A lag: ann's ball struck at 0 s, bob's at ``b_struck``; each touches the foot cushion at
    the given times; ``None`` as a rest position means the ball left the bed."""
    evs = [("shot_start", 0.0, A), ("shot_start", b_struck, B)]
    evs += [("cushion", t, A, "foot", (FOOT, a_foot_y)) for t in a_foot]
    evs += [("cushion", t, B, "foot", (FOOT, 260.0)) for t in b_foot]
    evs = sorted([*evs, *extra], key=lambda r: r[1])
    after = [("cue_ball", *xy, i) for i, xy in ((1, a_rest), (2, b_rest)) if xy is not None]
    return shot(BEFORE, evs, after)


def lag(s, settings=None, declaration=None):
    return judge_lag(s, POOL, PLAYERS, settings, declaration)


def faults(res, player):
    return res.balls[player].faults


def call_of(res, player):
    return next(c for c in res.calls if c.player == PLAYERS[player])


def assert_wins(res, winner):
    assert (res.winner, res.relag) == (winner, False)
    assert [(c.player, c.rule, c.outcome) for c in res.calls] == [
        (PLAYERS[winner], "WPA 1.2", Outcome.LEGAL),
        (PLAYERS[1 - winner], "WPA 1.2", Outcome.LOSS_OF_TURN),
    ]
    check_json(Judgement(res.calls, _state()))


def assert_relag(res):
    assert (res.winner, res.breaker, res.relag) == (None, None, True)
    assert [(c.rule, c.outcome) for c in res.calls] == [("WPA 1.2", Outcome.REPLAY)]


def _state():
    from adjudication.rules import engine_for

    return engine_for("9ball", POOL).start(PLAYERS)


# ------------------------------------------------------------------------ the winner


@pytest.mark.parametrize(
    "a_rest, b_rest, winner, gaps",
    [(NEAR, FAR, 0, (41.4, 141.4)), ((-1100.0, -260.0), (-1200.0, 280.0), 1, (141.4, 41.4)),
     ((-1241.4, -260.0), FAR, 0, (0.0, 141.4))],
    ids=["ann_closer", "bob_closer", "ann_frozen_to_head_cushion"],
)
def test_wpa_1_2_lag_closest_to_head_cushion_wins(a_rest, b_rest, winner, gaps) -> None:
    res = lag(lag_shot(a_rest, b_rest))
    assert_wins(res, winner)
    assert res.breaker == winner
    win = call_of(res, winner)
    assert win.assumed and f"{PLAYERS[winner]} breaks" in win.text
    lags = win.evidence["lags"]
    assert (lags["ann"]["head_gap_mm"], lags["bob"]["head_gap_mm"]) == pytest.approx(gaps, abs=0.1)
    assert (lags["ann"]["side"], lags["bob"]["side"]) == ("right", "left")
    assert lags["ann"]["faults"] == lags["bob"]["faults"] == []


@pytest.mark.parametrize("option, breaker", [("break_self", 0), ("break_opponent", 1)])
def test_wpa_1_2_lag_winner_chooses_who_breaks(option, breaker) -> None:
    res = lag(lag_shot(), declaration=Declaration(option=option))
    assert_wins(res, 0)
    assert res.breaker == breaker
    win = call_of(res, 0)
    assert not win.assumed and win.evidence["breaker"] == PLAYERS[breaker]
    with pytest.raises(ValueError, match="not a lag winner's choice"):
        lag(lag_shot(), declaration=Declaration(option="accept"))


# ------------------------------------------------------------------------ bad lags (a-e)


@pytest.mark.parametrize(
    "kw",
    [
        {"a_foot_y": 40.0},  # it touched the foot cushion on bob's half
        {"a_rest": (-1200.0, 30.0)},  # it came to rest on bob's half
        {"extra": [("line_cross", 1.0, A, "long_string", (900.0, 0.0))]},
    ],
    ids=["cushion_on_other_half", "rests_on_other_half", "line_cross_event"],
)
def test_wpa_1_2_lag_crossing_long_string_is_bad(kw) -> None:
    res = lag(lag_shot(**kw))
    assert faults(res, 0) == ("a",) and faults(res, 1) == ()
    assert_wins(res, 1)  # bob wins although his ball is farther from the head cushion
    assert "crossed the long string" in call_of(res, 0).text


@pytest.mark.parametrize("a_foot", [(1.5, 3.5), ()], ids=["twice", "never"])
def test_wpa_1_2_lag_foot_cushion_twice_is_bad(a_foot) -> None:
    res = lag(lag_shot(a_foot=a_foot))
    assert faults(res, 0) == ("b",)
    assert_wins(res, 1)
    assert f"touched the foot cushion {len(a_foot)} times" in call_of(res, 0).text
    assert call_of(res, 0).evidence["lags"]["ann"]["foot_cushions"] == len(a_foot)


@pytest.mark.parametrize("cushion", ["right_foot", "right_head"])
def test_wpa_1_2_lag_side_cushion_is_bad(cushion) -> None:
    res = lag(lag_shot(extra=[("cushion", 2.5, A, cushion, (-600.0, -606.4))]))
    assert faults(res, 0) == ("d",)
    assert_wins(res, 1)
    assert call_of(res, 0).evidence["lags"]["ann"]["fault_events"][0]["cushion"] == cushion


@pytest.mark.parametrize(
    "extra, a_rest, fault",
    [
        ([("pocket", 3.0, A, "head_right", (-1260.0, -625.0))], None, ("c",)),
        ([("off_table", 3.0, A, "head", (-1280.0, -200.0))], None, ("c",)),
        ([], (-1280.0, -600.0), ("e",)),  # at rest in the head-right jaws, past the nose
    ],
    ids=["pocketed", "off_table", "past_head_cushion_nose"],
)
def test_wpa_1_2_lag_pocketed_is_bad(extra, a_rest, fault) -> None:
    res = lag(lag_shot(a_rest, extra=extra))
    assert faults(res, 0) == fault
    assert_wins(res, 1)
    head_gap = call_of(res, 0).evidence["lags"]["ann"]["head_gap_mm"]
    assert head_gap is None if a_rest is None else head_gap < 0


# ------------------------------------------------------------------------ re-lags


@pytest.mark.parametrize("b_struck, relag", [(1.6, True), (1.4, False)])
def test_wpa_1_2_lag_struck_after_other_reached_foot_cushion_relag(b_struck, relag) -> None:
    res = lag(lag_shot(b_struck=b_struck, b_foot=(3.0,)))
    if not relag:
        assert_wins(res, 0)
        return
    assert_relag(res)
    c = res.calls[0]
    assert c.player == "bob" and c.evidence["reason"] == "late_stroke"
    assert "bob struck after ann's ball had reached the foot cushion" in c.text


def test_wpa_1_2_lag_both_bad_relag() -> None:
    res = lag(lag_shot(b_rest=None, extra=[("cushion", 2.5, A, "right_foot", (600.0, -606.4)),
                                           ("pocket", 3.0, B, "head_left", (-1260.0, 625.0))]))
    assert_relag(res)
    assert faults(res, 0) == ("d",) and faults(res, 1) == ("c",)
    assert res.calls[0].evidence["reason"] == "both_bad"
    assert "touched a side cushion" in res.calls[0].text


@pytest.mark.parametrize("tie_mm, relag", [(3.0, True), (1.0, False)])
def test_wpa_1_2_lag_tie_relag(tie_mm, relag) -> None:
    s = lag_shot(NEAR, (-1198.5, 280.0))  # 41.4 mm against 42.9 mm
    res = lag(s, RuleSettings(lag_tie_mm=tie_mm))
    if relag:
        assert_relag(res)
        assert res.calls[0].evidence["reason"] == "tie"
    else:
        assert_wins(res, 0)


def test_wpa_1_2_lag_needs_two_balls_one_each_side() -> None:
    one = shot(BEFORE, [("shot_start", 0.0, A), ("cushion", 1.5, A, "foot", (FOOT, -250.0))])
    with pytest.raises(ValueError, match="two struck balls"):
        lag(one)
    same = shot([("cue_ball", -700, -300, 1), ("cue_ball", -700, -100, 2)],
                [("shot_start", 0.0, A), ("shot_start", 0.05, B)])
    with pytest.raises(ValueError, match="either side"):
        lag(same)
    with pytest.raises(ValueError, match="lag_tie_mm"):
        RuleSettings(lag_tie_mm=-1.0)


# ------------------------------------------------------------------------ cueref judge


def _ev(kind, t, shot_no, objs, xy=(0.0, 0.0), **kw):
    return {"v": 1, "type": "event", "kind": kind, "t_s": t, "frame": int(t * 30),
            "shot": shot_no, "objects": [{"id": i, "label": lab} for i, lab in objs],
            "xy_mm": list(xy), "confidence": 1.0, **kw}


def _rest(*balls):
    return {"v": 1, "type": "state", "turn": "Ann", "scores": {},
            "objects": [{"id": i, "label": "cue_ball", "xy_mm": list(xy)} for i, xy in balls]}


def _lag_lines(n, t, ann_rest, ben_rest, extra=()):
    """Lag shot ``n`` from time ``t``: ann's ball (id 1, right) and ben's (id 2, left)."""
    a, b = (1, "cue_ball"), (2, "cue_ball")
    return [
        _ev("placed", t, n - 1, [a], (-700.0, -300.0)),
        _ev("placed", t + 0.1, n - 1, [b], (-700.0, 300.0)),
        _ev("shot_start", t + 1.0, n, [a], (-700.0, -300.0)),
        _ev("shot_start", t + 1.05, n, [b], (-700.0, 300.0)),
        _ev("cushion", t + 2.5, n, [a], (FOOT, -250.0), cushion="foot"),
        _ev("cushion", t + 2.55, n, [b], (FOOT, 260.0), cushion="foot"),
        *extra,
        _ev("shot_end", t + 6.0, n, []),
        _rest((1, ann_rest), (2, ben_rest)),
    ]


def test_wpa_1_2_cueref_judge_lag_relag_then_break(tmp_path) -> None:
    """A lag with both balls on a side cushion (re-lag), a lag that Ben wins, then Ben's
    break from the standard rack: the break is judged by the 9-ball engine."""
    start = {"v": 1, "type": "match_start", "game": "9ball", "table": "pool-9ft",
             "source": "hand-written", "fps": 30.0, "frame_wh": [1280, 720],
             "players": ["Ann", "Ben"], "lag": True}
    both_bad = [_ev("cushion", 3.0, 1, [(1, "cue_ball")], (-300.0, -606.4), cushion="right_head"),
                _ev("cushion", 3.1, 1, [(2, "cue_ball")], (-300.0, 606.4), cushion="left_head")]
    cue, one = (1, "cue_ball"), (21, "ball_1")
    brk = [
        _ev("shot_start", 20.0, 3, [cue], (-800.0, 0.0)),
        _ev("contact", 20.2, 3, [cue, one], (600.0, 0.0)),
        *[_ev("cushion", 20.3 + k / 10, 3, [(22 + k, f"ball_{k + 2}")], (0.0, 0.0),
              cushion="foot") for k in range(4)],
        _ev("shot_end", 22.0, 3, []),
    ]
    lines = [start, *_lag_lines(1, 0.0, (-1100.0, -300.0), (-1100.0, 300.0), both_bad),
             *_lag_lines(2, 8.0, (-1100.0, -260.0), (-1200.0, 280.0)), *brk]
    r = judge(write_jsonl(tmp_path / "events.jsonl", lines), "--game", "9ball")
    assert r.returncode == 0, r.stderr
    out = [json.loads(t) for t in r.stdout.splitlines()]
    assert all(validation_errors(line) == [] for line in out)
    assert out[0]["type"] == "match_start" and out[0]["lag"] is True
    calls = [(c["shot"], c["player"], c["rule"], c["outcome"], c["assumed"])
             for c in out if c["type"] == "call"]
    assert calls[:3] == [
        (1, "Ann", "WPA 1.2", "replay", False),
        (2, "Ben", "WPA 1.2", "legal", True),
        (2, "Ann", "WPA 1.2", "loss_of_turn", False),
    ]
    assert {c[0] for c in calls[3:]} == {3} and (3, "Ben", "WPA 2.3", "legal", False) in calls
    states = [s for s in out if s["type"] == "state"]
    assert [s["shot"] for s in states] == [0, 3]  # lag shots write calls only
    first = states[0]
    assert first["turn"] == "Ben" and first["breaking"] is True and "unseen" not in first
    assert first["ball_in_hand"] == "behind_head_string"
    assert len(first["on_table"]) == 9 and states[1]["breaking"] is False


def test_wpa_1_2_cueref_judge_rejects_a_lag_with_a_turn(tmp_path) -> None:
    start = {"v": 1, "type": "match_start", "game": "9ball", "table": "pool-9ft",
             "source": "hand-written", "fps": 30.0, "frame_wh": [1280, 720],
             "players": ["Ann", "Ben"], "lag": True, "turn": "Ann"}
    r = judge(write_jsonl(tmp_path / "events.jsonl", [start]), "--game", "9ball")
    assert r.returncode == 2 and "no turn yet" in r.stderr
