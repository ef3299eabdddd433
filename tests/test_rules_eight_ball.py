"""8-ball (RULES §5, WPA 3.x)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_rules_helpers import FOOT_X, check_json, engine, has, orders_of, shot

from adjudication.calls import Outcome
from adjudication.declarations import Declaration

TABLE = [
    ("cue_ball", -300, 0),
    ("ball_1", 300, 100),
    ("ball_2", 400, -200),
    ("ball_8", 0, 300),
    ("ball_10", 500, 300),
    ("ball_11", -500, -300),
]


def eight(groups=(None, None), **kw):
    e = engine("8ball", **kw)
    s = e.start(["ann", "bob"])
    return e, s.with_(breaking=False, ball_in_hand=None, pool=replace(s.pool, groups=groups))


def pot(ball, pocket="foot_left", t=2.0):
    return ("pocket", t, ball, pocket)


def test_wpa_3_4_open_table_called_ball_assigns_group() -> None:
    e, s = eight()
    j = e.judge(s, shot(TABLE, [("contact", 1.0, "cue_ball", "ball_10"), pot("ball_10")]))
    c = next(c for c in j.calls if c.rule == "WPA 3.4")
    assert c.assumed and j.state.pool.groups == ("stripes", "solids")
    assert j.state.shooter == "ann"
    check_json(j)


def test_wpa_3_4_open_table_eight_first_is_foul() -> None:
    e, s = eight()
    j = e.judge(
        s,
        shot(
            TABLE, [("contact", 1.0, "cue_ball", "ball_8"), ("cushion", 1.2, "ball_8", "left_foot")]
        ),
    )
    assert has(j, "WPA 6.2", Outcome.FOUL) and has(j, "WPA 3.9", Outcome.BALL_IN_HAND)


def test_wpa_6_2_wrong_group_first_eight_ball() -> None:
    e, s = eight(("solids", "stripes"))
    j = e.judge(
        s,
        shot(TABLE, [("contact", 1.0, "cue_ball", "ball_10"), ("cushion", 1.2, "ball_10", "foot")]),
    )
    assert has(j, "WPA 6.2", Outcome.FOUL) and j.state.ball_in_hand == "anywhere"


def test_wpa_3_5_called_ball_missed_passes_turn_keeps_table_open() -> None:
    e, s = eight()
    d = Declaration(called_ball="ball_1", called_pocket="foot_right")
    j = e.judge(
        s, shot(TABLE, [("contact", 1.0, "cue_ball", "ball_1"), pot("ball_1", "foot_left")]), d
    )
    assert has(j, "WPA 3.5", Outcome.LOSS_OF_TURN)
    assert j.state.pool.groups == (None, None) and j.state.shooter == "bob"


def test_wpa_3_8_eight_early_loses_rack() -> None:
    e, s = eight(("solids", "stripes"))
    ev = [
        ("contact", 1.0, "cue_ball", "ball_1"),
        ("contact", 1.2, "ball_1", "ball_8"),
        pot("ball_8"),
    ]
    j = e.judge(s, shot(TABLE, ev))
    assert has(j, "WPA 3.8", Outcome.SERIOUS_FOUL) and has(j, "WPA 3.8", Outcome.RACK_LOSS)
    assert j.state.scores == (0, 1) and orders_of(j, "rerack")


def test_wpa_3_8_foul_when_pocketing_eight() -> None:
    e, s = eight(("solids", "stripes"))
    table = [("cue_ball", -300, 0), ("ball_8", 0, 300), ("ball_10", 500, 300)]
    ev = [("contact", 1.0, "cue_ball", "ball_8"), pot("ball_8"), pot("cue_ball", "side_left", 2.5)]
    j = e.judge(s, shot(table, ev))
    assert has(j, "WPA 6.1", Outcome.FOUL) and has(j, "WPA 3.8", Outcome.RACK_LOSS)


def test_wpa_3_8_eight_in_wrong_pocket() -> None:
    e, s = eight(("solids", "stripes"))
    table = [("cue_ball", -300, 0), ("ball_8", 0, 300), ("ball_10", 500, 300)]
    ev = [("contact", 1.0, "cue_ball", "ball_8"), pot("ball_8", "side_left")]
    j = e.judge(s, shot(table, ev), Declaration(called_ball="ball_8", called_pocket="foot_left"))
    assert has(j, "WPA 3.8", Outcome.RACK_LOSS)
    j2 = e.judge(s, shot(table, ev))
    win = next(c for c in j2.calls if c.outcome is Outcome.RACK_WIN)
    assert win.rule == "WPA 3.5" and win.assumed and j2.state.scores == (1, 0)


def test_wpa_3_8_eight_off_table() -> None:
    e, s = eight(("solids", "stripes"))
    table = [("cue_ball", -300, 0), ("ball_8", 0, 300), ("ball_10", 500, 300)]
    j = e.judge(
        s, shot(table, [("contact", 1.0, "cue_ball", "ball_8"), ("off_table", 2.0, "ball_8")])
    )
    assert has(j, "WPA 3.8", Outcome.RACK_LOSS)


@pytest.mark.parametrize("loses, expected", [(True, (0, 1)), (False, (1, 0))])
def test_rules_8_13_eight_with_last_group_ball(loses, expected) -> None:
    e, s = eight(("solids", "stripes"), eight_with_last_group_loses=loses)
    table = [("cue_ball", -300, 0), ("ball_7", 300, 0), ("ball_8", 0, 300), ("ball_10", 500, 300)]
    ev = [
        ("contact", 1.0, "cue_ball", "ball_7"),
        ("contact", 1.1, "ball_7", "ball_8"),
        pot("ball_7"),
        pot("ball_8", "side_left", 2.2),
    ]
    assert e.judge(s, shot(table, ev)).state.scores == expected


def test_wpa_3_3_illegal_break_opponent_option() -> None:
    e = engine("8ball")
    s = e.start(["ann", "bob"])
    table = [("cue_ball", -900, 0), ("ball_1", FOOT_X, 0), ("ball_8", 700, 0)]
    ev = [("contact", 1.0, "cue_ball", "ball_1"), ("cushion", 1.5, "ball_1", "foot")]
    j = e.judge(s, shot(table, ev))
    assert has(j, "WPA 3.3", Outcome.FOUL) and j.state.shooter == "bob"
    assert any(c.assumed and c.evidence.get("option") == "accept" for c in j.calls)
    j2 = e.judge(s, shot(table, ev), Declaration(option="rerack_breaker"))
    assert j2.state.breaking and j2.state.shooter == "ann" and orders_of(j2, "rerack")
    j3 = e.judge(s, shot(table, ev), Declaration(option="rerack_self"))
    assert j3.state.breaking and j3.state.shooter == "bob"


def test_wpa_3_3_eight_on_break_spot_and_continue_assumed() -> None:
    e = engine("8ball")
    s = e.start(["ann", "bob"])
    table = [("cue_ball", -900, 0), ("ball_1", FOOT_X, 0), ("ball_8", 700, 0)]
    ev = [
        ("contact", 1.0, "cue_ball", "ball_1"),
        ("contact", 1.1, "ball_1", "ball_8"),
        pot("ball_8"),
    ]
    j = e.judge(s, shot(table, ev))
    assert has(j, "WPA 3.3", Outcome.LEGAL) and has(j, "WPA 3.7", Outcome.SPOT)
    assert any(c.assumed and c.evidence.get("option") == "spot_and_continue" for c in j.calls)
    assert j.state.shooter == "ann" and "ball_8" in j.state.on_table
    assert orders_of(j, "spot")[0].labels == ("ball_8",)


def test_wpa_3_3_eight_and_scratch_on_break() -> None:
    e = engine("8ball")
    s = e.start(["ann", "bob"])
    table = [("cue_ball", -900, 0), ("ball_1", FOOT_X, 0), ("ball_8", 700, 0)]
    ev = [("contact", 1.0, "cue_ball", "ball_1"), pot("ball_8"), pot("cue_ball", "head_left", 2.5)]
    j = e.judge(s, shot(table, ev))
    assert j.state.shooter == "bob" and j.state.ball_in_hand == "behind_head_string"
    assert orders_of(j, "spot") and j.state.scores == (0, 0)


def test_wpa_3_3_legal_break_with_ball_down_continues_open_table() -> None:
    e = engine("8ball")
    s = e.start(["ann", "bob"])
    table = [("cue_ball", -900, 0), ("ball_1", FOOT_X, 0), ("ball_9", 700, 0)]
    ev = [("contact", 1.0, "cue_ball", "ball_1"), pot("ball_9")]
    j = e.judge(s, shot(table, ev))
    assert j.state.shooter == "ann" and j.state.pool.groups == (None, None) and not j.state.breaking


def test_wpa_6_14_not_used_in_eight_ball() -> None:
    e, s = eight(("solids", "stripes"))
    s = s.with_(fouls_in_a_row=(2, 0))
    j = e.judge(s, shot(TABLE, [("cushion", 1.0, "cue_ball", "foot")]))
    assert not any(c.outcome is Outcome.RACK_LOSS for c in j.calls)
    assert j.state.ball_in_hand == "anywhere"


def test_legal_targets_eight_ball() -> None:
    e, s = eight(("solids", "stripes"))
    lay = shot(TABLE).before
    assert e.legal_targets(s, lay) == {"ball_1", "ball_2"}
    assert e.legal_targets(s.with_(turn=1), lay) == {"ball_10", "ball_11"}
    e2, s2 = eight()
    assert "ball_8" not in e2.legal_targets(s2, lay)


def test_wpa_reg_10_groups_swapped_mid_rack_replays_with_the_original_breaker() -> None:
    e, s = eight(("solids", "stripes"))
    s = s.with_(breaker=1, scores=(2, 1), rack=4, fouls_in_a_row=(0, 0))
    sh = shot(TABLE, [("contact", 1.0, "cue_ball", "ball_1"), pot("ball_1")])
    j = e.judge(s, sh, Declaration(groups_swapped=True))
    (c,) = j.calls
    assert c.rule == "WPA Reg. 10" and c.outcome is Outcome.REPLAY and "bob breaks" in c.text
    assert c.evidence["groups"] == {"ann": "solids", "bob": "stripes"}
    (rack,) = orders_of(j, "rerack")
    assert len(rack.labels) == 15 and rack.rule == "WPA Reg. 10"
    st = j.state
    assert st.breaking and st.shooter == "bob" and st.breaker == 1
    assert st.ball_in_hand == "behind_head_string" and st.pool.groups == (None, None)
    assert st.scores == (2, 1) and st.rack == 4 and len(st.on_table) == 15
    # not declared: the shot is judged as usual
    assert e.judge(s, sh).state.shooter == "ann"
    check_json(j)


def test_wpa_reg_10_groups_swapped_on_an_open_table_is_a_review() -> None:
    e, s = eight()
    sh = shot(TABLE, [("contact", 1.0, "cue_ball", "ball_10"), pot("ball_10")])
    j = e.judge(s, sh, Declaration(groups_swapped=True))
    assert has(j, "WPA Reg. 10", Outcome.REVIEW) and not orders_of(j, "rerack")
    assert j.state.pool.groups == ("stripes", "solids")


def test_wpa_1_5_spot_request_after_a_break_foul_eight_ball() -> None:
    """3.3(h): the breaker scratches; bob has ball in hand behind the head string and every
    object ball has come to rest behind it: at his request the nearest one is spotted."""
    e = engine("8ball")
    s = e.start(["ann", "bob"])
    table = [("cue_ball", -900, 0), ("ball_1", FOOT_X, 0), ("ball_8", 700, 0),
             ("ball_9", 740, 30)]
    ev = [("contact", 1.0, "cue_ball", "ball_1"), pot("cue_ball", "side_left", 2.5)]
    rest = {"ball_1": (-700, 100), "ball_8": (-1000, 0), "ball_9": (-660, -300)}
    j = e.judge(s, shot(table, ev, moved_to=rest), Declaration(spot_request=True))
    assert j.state.shooter == "bob" and j.state.ball_in_hand == "behind_head_string"
    c = next(c for c in j.calls if c.rule == "WPA 1.5")
    assert c.outcome is Outcome.SPOT and c.evidence["ball"] == "ball_9"
    spot = next(o for o in orders_of(j, "spot") if o.rule == "WPA 1.5")
    assert spot.labels == ("ball_9",) and spot.xy_mm[0] == pytest.approx((FOOT_X, 0.0))
    assert "ball_9" in j.state.on_table


def test_wpa_3_6_declared_safety_ends_inning_pocketed_ball_stays_down() -> None:
    e, s = eight(("solids", "stripes"))
    ev = [("contact", 1.0, "cue_ball", "ball_1"), pot("ball_1")]
    j = e.judge(s, shot(TABLE, ev), Declaration(safety=True))
    assert has(j, "WPA 3.6", Outcome.LEGAL)
    assert j.state.shooter == "bob" and "ball_1" not in j.state.on_table
    assert not orders_of(j, "spot")
    check_json(j)


@pytest.mark.parametrize("winner_breaks, breaker", [(False, "bob"), (True, "ann")])
def test_wpa_3_1_rack_won_next_rack_breaks_alternate_or_winner(winner_breaks, breaker) -> None:
    e, s = eight(("solids", "stripes"), race_to=2, winner_breaks=winner_breaks)
    table = [("cue_ball", -300, 0), ("ball_8", 0, 300)]
    ev = [("contact", 1.0, "cue_ball", "ball_8"), pot("ball_8")]
    j = e.judge(s, shot(table, ev), Declaration(called_ball="ball_8", called_pocket="foot_left"))
    assert has(j, "WPA 3.5", Outcome.RACK_WIN) and not has(j, "Reg. 15", Outcome.MATCH_WIN)
    assert j.state.scores == (1, 0) and j.state.rack == 2 and j.state.breaking
    assert j.state.shooter == breaker and j.state.pool.groups == (None, None)
    assert orders_of(j, "rerack")
    j2 = e.judge(s.with_(scores=(1, 0)), shot(table, ev),
                 Declaration(called_ball="ball_8", called_pocket="foot_left"))
    assert has(j2, "Reg. 15", Outcome.MATCH_WIN) and j2.state.winner == 0
