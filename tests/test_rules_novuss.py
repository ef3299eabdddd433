"""Novuss singles and doubles (RULES §1.5, §1.6, §1.8). A stands at cushion a (y = -500)
and plays the red pawns toward cushion b; zone lines at ±370 mm, circle r = 125 mm."""

from __future__ import annotations

import pytest
from test_rules_helpers import NOVUSS, check_json, engine, has, orders_of, shot

from adjudication.calls import Outcome
from adjudication.rules.novuss import NovussGeometry

PUCK = ("puck", 0, -450, 99)
# 5 red (A's) pawns, all light; 3 black. Ids: red 1-5, black 11-13.
TABLE = [
    PUCK,
    ("red_pawn", 0, 300, 1),
    ("red_pawn", 100, 200, 2),
    ("red_pawn", -200, 250, 3),
    ("red_pawn", 250, -100, 4),
    ("red_pawn", -250, 0, 5),
    ("black_pawn", 50, -200, 11),
    ("black_pawn", -100, -250, 12),
    ("black_pawn", 200, 100, 13),
]
HIT_RED = ("contact", 1.0, "puck#99", "red_pawn#1")
POT_RED = ("pocket", 1.5, "red_pawn#1", "b_left")


def novuss(**kw):
    e = engine("novuss", **kw)
    s = e.start(["ann", "bob"])
    return e, s.with_(on_table=tuple(r[0] for r in TABLE[1:]))


def with_pawns(rows):
    return [PUCK, *rows]


def test_rules_1_3_hole_test_dark_and_light() -> None:
    g = NovussGeometry.from_spec(NOVUSS)
    xy = [[0, -374.4], [0, -374.6], [0, 120.4], [120.6, 0], [-480, -480]]
    dark, beyond, r = g.dark("a", xy)
    assert dark.tolist() == [False, True, True, False, True]
    assert beyond[0] == pytest.approx(4.4)
    assert not g.dark("a", [[-480, -480]], corner_squares=False)[0][0]
    assert g.dark("left", [[-380, 0]])[0][0] and not g.dark("b", [[-380, 0]])[0][0]


def test_novuss_18_1_a_correct_shot_pocketing_own_pawn_continues() -> None:
    e, s = novuss()
    j = e.judge(s, shot(TABLE, [HIT_RED, POT_RED]))
    assert has(j, "Novuss E2 correct shot", Outcome.LEGAL) and has(
        j, "Novuss 18.1.а", Outcome.LEGAL
    )
    assert j.state.shooter == "ann" and j.state.on_table.count("red_pawn") == 4
    check_json(j)


def test_novuss_18_1_a_nothing_pocketed_loses_turn() -> None:
    e, s = novuss()
    j = e.judge(s, shot(TABLE, [HIT_RED]))
    assert has(j, "Novuss 18.1.а", Outcome.LOSS_OF_TURN) and j.state.shooter == "bob"
    assert not j.orders


def test_novuss_17_1_b_opponent_pawn_first() -> None:
    e, s = novuss()
    j = e.judge(s, shot(TABLE, [("contact", 1.0, "puck#99", "black_pawn#11")]))
    assert has(j, "Novuss 17.1.б", Outcome.FOUL) and has(j, "Novuss 17.1.б", Outcome.PENALTY_PAWN)
    pawn = orders_of(j, "penalty_pawn")[0]
    assert pawn.labels == ("red_pawn",) and pawn.xy_mm[0] == pytest.approx((0.0, 485.0))
    assert j.state.shooter == "bob" and j.state.on_table.count("red_pawn") == 6


def test_novuss_17_1_b_simultaneous_own_and_opponent() -> None:
    e, s = novuss()
    ev = [HIT_RED, ("contact", 1.004, "puck#99", "black_pawn#13")]
    assert has(e.judge(s, shot(TABLE, ev)), "Novuss 17.1.б", Outcome.FOUL)


def test_novuss_17_1_z_own_dark_pawn_first_is_restored() -> None:
    e, s = novuss()
    table = with_pawns(
        [("red_pawn", 0, -420, 1), ("red_pawn", 0, 300, 2), ("black_pawn", 300, 0, 11)]
    )
    j = e.judge(
        s,
        shot(
            table, [("contact", 1.0, "puck#99", "red_pawn#1")], moved_to={"red_pawn#1": (0, -300)}
        ),
    )
    assert has(j, "Novuss 17.1.з", Outcome.FOUL)
    c = next(c for c in j.calls if c.rule == "Novuss 17.1.з")
    assert (
        c.evidence["first_pawn_status"] == "dark" and c.evidence["beyond_own_zone_line_mm"] == 50.0
    )
    restore = orders_of(j, "restore")[0]
    assert restore.ids == (1,) and restore.xy_mm[0] == (0.0, -420.0)


def test_novuss_16_1_g_dark_pawn_first_then_two_pawns_loses_set() -> None:
    e, s = novuss()
    table = with_pawns(
        [("red_pawn", 0, -420, 1), ("red_pawn", 40, -300, 2), ("black_pawn", 300, 0, 11)]
    )
    ev = [("contact", 1.0, "puck#99", "red_pawn#1"), ("contact", 1.2, "puck#99", "red_pawn#2")]
    j = e.judge(s, shot(table, ev))
    assert has(j, "Novuss 16.1.г", Outcome.SET_LOSS) and j.state.scores == (0, 1)
    assert j.state.novuss.sides == ("b", "a") and j.state.shooter == "bob"  # bob now at a
    j2 = e.__class__(e.spec, e.settings.__class__(n3_counts_dark_pawn=False)).judge(
        s, shot(table, ev)
    )
    assert not has(j2, "Novuss 16.1.г", Outcome.SET_LOSS)


def test_novuss_17_1_v_rebound_then_opponent_pawn() -> None:
    e, s = novuss()
    ev = [("cushion", 0.8, "puck#99", "b"), ("contact", 1.0, "puck#99", "black_pawn#13")]
    assert has(e.judge(s, shot(TABLE, ev)), "Novuss 17.1.в", Outcome.FOUL)


def test_novuss_17_1_a_rebound_touching_no_own_pawn_with_light_pawns() -> None:
    e, s = novuss()
    assert has(
        e.judge(s, shot(TABLE, [("cushion", 0.8, "puck#99", "b")])), "Novuss 17.1.а", Outcome.FOUL
    )
    ok = [("cushion", 0.8, "puck#99", "b"), ("contact", 1.0, "puck#99", "red_pawn#4")]
    assert has(e.judge(s, shot(TABLE, ok)), "Novuss E2 correct shot", Outcome.LEGAL)


def test_novuss_n6_rebound_with_only_dark_pawns_is_correct() -> None:
    e, s = novuss()
    table = with_pawns(
        [("red_pawn", 0, -420, 1), ("red_pawn", 0, 0, 2), ("black_pawn", 300, 0, 11)]
    )
    ev = [
        ("cushion", 0.8, "puck#99", "b"),
        ("contact", 1.5, "puck#99", "red_pawn#1"),
        ("pocket", 2.0, "red_pawn#1", "a_left"),
    ]
    j = e.judge(s, shot(table, ev))
    assert has(j, "Novuss E2 correct shot", Outcome.LEGAL) and j.state.shooter == "ann"


def test_novuss_17_1_e_all_dark_must_rebound() -> None:
    e, s = novuss()
    table = with_pawns([("red_pawn", 0, 0, 1), ("black_pawn", 300, 0, 11)])  # dark: circle
    j = e.judge(s, shot(table, [("contact", 1.0, "puck#99", "black_pawn#11")]))
    assert has(j, "Novuss 17.1.б", Outcome.FOUL)
    j2 = e.judge(s, shot(table, []))
    assert has(j2, "Novuss 17.1.е", Outcome.FOUL)


def test_novuss_17_1_i_side_rail_shot() -> None:
    e, s = novuss()
    ev = [("cushion", 0.8, "puck#99", "left"), ("contact", 1.0, "puck#99", "red_pawn#3")]
    assert has(e.judge(s, shot(TABLE, ev)), "Novuss 17.1.и", Outcome.FOUL)
    table = with_pawns(
        [("red_pawn", 30, 30, 1), ("red_pawn", 0, 300, 2), ("black_pawn", 300, 0, 11)]
    )
    ok = [("cushion", 0.8, "puck#99", "left"), ("contact", 1.0, "puck#99", "red_pawn#1")]
    assert has(e.judge(s, shot(table, ok)), "Novuss E2 correct shot", Outcome.LEGAL)


def test_novuss_n9_puck_touches_nothing() -> None:
    e, s = novuss()
    assert has(e.judge(s, shot(TABLE, [])), "Novuss 17.1.а", Outcome.FOUL)


@pytest.mark.parametrize(
    "event, rule",
    [
        (("pocket", 2.0, "puck#99", "b_left"), "Novuss 17.1.г"),
        (("off_table", 2.0, "puck#99"), "Novuss 17.1.д"),
    ],
)
def test_novuss_17_1_g_d_puck_pocketed_or_off(event, rule) -> None:
    e, s = novuss()
    j = e.judge(s, shot(TABLE, [HIT_RED, POT_RED, event]))
    assert has(j, rule, Outcome.FOUL) and j.state.shooter == "bob"
    assert j.state.on_table.count("red_pawn") == 5  # pocketed one back as a penalty pawn


def test_novuss_16_1_a_penalized_shot_knocks_two_own_pawns_out_of_dark() -> None:
    e, s = novuss()
    table = with_pawns(
        [
            ("red_pawn", 0, 0, 1),
            ("red_pawn", 20, -60, 2),
            ("red_pawn", 0, 300, 3),
            ("black_pawn", 0, -200, 11),
        ]
    )
    ev = [
        ("contact", 1.0, "puck#99", "black_pawn#11"),
        ("contact", 1.1, "black_pawn#11", "red_pawn#2"),
    ]
    j = e.judge(s, shot(table, ev, moved_to={"red_pawn#1": (0, 200), "red_pawn#2": (150, 0)}))
    assert has(j, "Novuss 16.1.а", Outcome.SET_LOSS)


def test_novuss_17_1_r_penalized_shot_knocks_opponent_pawn_off_restored() -> None:
    e, s = novuss()
    ev = [
        ("contact", 1.0, "puck#99", "black_pawn#11"),
        ("off_table", 1.5, "black_pawn#11", "right"),
    ]
    j = e.judge(s, shot(TABLE, ev))
    assert has(j, "Novuss 17.1.р", Outcome.FOUL)
    r = orders_of(j, "restore")[0]
    assert r.ids == (11,) and r.xy_mm[0] == (50.0, -200.0)


def test_novuss_18_1_b_own_with_opponent_pawn_loses_turn() -> None:
    e, s = novuss()
    ev = [HIT_RED, POT_RED, ("pocket", 1.6, "black_pawn#13", "b_right")]
    j = e.judge(s, shot(TABLE, ev))
    assert (
        has(j, "Novuss 18.1.б", Outcome.LOSS_OF_TURN) and j.state.on_table.count("black_pawn") == 2
    )


def test_novuss_18_1_v_own_pawn_off_table_to_circle() -> None:
    e, s = novuss()
    ev = [HIT_RED, POT_RED, ("off_table", 1.8, "red_pawn#2", "b")]
    j = e.judge(s, shot(TABLE, ev))
    assert has(j, "Novuss 18.1.в", Outcome.LOSS_OF_TURN)
    assert orders_of(j, "to_circle")[0].xy_mm[0] == (0.0, 0.0)
    table = [*TABLE, ("black_pawn", 0, 0, 14)]  # centre taken: on the axis toward rail b
    j2 = e.judge(s, shot(table, ev))
    assert orders_of(j2, "to_circle")[0].xy_mm[0] == pytest.approx((0.0, 110.0))


def test_novuss_18_1_d_puck_crosses_back_into_own_zone() -> None:
    e, s = novuss()
    ev = [
        ("line_cross", 0.5, "puck#99", "zone_a"),
        HIT_RED,
        POT_RED,
        ("line_cross", 2.0, "puck#99", "zone_a"),
    ]
    j = e.judge(s, shot(TABLE, ev))
    assert has(j, "Novuss 18.1.д", Outcome.LOSS_OF_TURN)
    e2, s2 = novuss(back_cross_at_rest=True)
    j2 = e2.judge(s2, shot(TABLE, ev, moved_to={"puck#99": (0, -200)}))
    assert not has(j2, "Novuss 18.1.д", Outcome.LOSS_OF_TURN) and j2.state.shooter == "ann"


def test_novuss_17_1_l_puck_touches_pawn_while_placed() -> None:
    e, s = novuss()
    j = e.judge(
        s, shot(TABLE, [HIT_RED, POT_RED], between=[("contact", -1.0, "puck#99", "black_pawn#12")])
    )
    assert has(j, "Novuss 17.1.л", Outcome.FOUL) and j.state.shooter == "bob"


def test_novuss_17_1_n_moving_pawn_touched_goes_to_the_referee() -> None:
    e, s = novuss()
    j = e.judge(s, shot(TABLE, [HIT_RED, ("moved", 1.5, "red_pawn#1")]))
    assert has(j, "Novuss 17.1.н", Outcome.REVIEW)
    assert not has(e.judge(s, shot(TABLE, [HIT_RED])), "Novuss 17.1.н", Outcome.REVIEW)


def test_novuss_16_1_d_two_pawns_moved_outside_a_shot() -> None:
    e, s = novuss()
    btw = [("moved", -1.0, "black_pawn#12"), ("moved", -1.0, "red_pawn#4")]
    assert has(e.judge(s, shot(TABLE, [HIT_RED], between=btw)), "Novuss 16.1.д", Outcome.SET_LOSS)


def test_novuss_17_4_penalty_becomes_debt_when_none_pocketed() -> None:
    e, s = novuss()
    rows = [("red_pawn", -105 + 30 * k, 485, k + 1) for k in range(8)] + [
        ("black_pawn", 0, -200, 11)
    ]
    j = e.judge(s, shot(with_pawns(rows), [("contact", 1.0, "puck#99", "black_pawn#11")]))
    assert has(j, "Novuss 17.1.б", Outcome.PENALTY_PAWN) and not orders_of(j, "penalty_pawn")
    assert j.state.penalty_debt == (1, 0)
    assert j.state.to_json()["penalty_debt"] == {"ann": 1, "bob": 0}


def test_novuss_17_3_penalty_pawn_next_to_occupied_middle() -> None:
    e, s = novuss()
    rows = [
        ("red_pawn", 0, 485, 1),  # middle of A's target row is taken
        ("red_pawn", 200, 300, 2),
        ("red_pawn", 250, 200, 3),  # more of A's pawns on +x
        ("black_pawn", 0, -200, 11),
    ]
    j = e.judge(s, shot(with_pawns(rows), [("contact", 1.0, "puck#99", "black_pawn#11")]))
    x, y = orders_of(j, "penalty_pawn")[0].xy_mm[0]
    assert y == pytest.approx(485.0) and x == pytest.approx(-30.0)


def test_novuss_series_with_penalty_pawn_and_debt_sequence() -> None:
    e, s = novuss()
    # Shot 1: ann pockets a red and continues.
    j1 = e.judge(s, shot(TABLE, [HIT_RED, POT_RED], number=1))
    assert j1.state.shooter == "ann"
    after1 = [r for r in TABLE if r[3] != 1]
    # Shot 2: ann hits black first: penalty pawn placed on (0, 485), bob to shoot.
    j2 = e.judge(j1.state, shot(after1, [("contact", 1.0, "puck#99", "black_pawn#11")], number=2))
    pawn = orders_of(j2, "penalty_pawn")[0]
    assert pawn.xy_mm == ((0.0, 485.0),) and j2.state.shooter == "bob"
    assert j2.state.on_table.count("red_pawn") == 5
    # Shot 3: bob (at b, plays black toward a) misses everything: penalty at rail a middle.
    bob_table = [("puck", 0, 450, 98), *after1[1:], ("red_pawn", 0, 485, 20)]
    j3 = e.judge(j2.state, shot(bob_table, [], number=3))
    assert has(j3, "Novuss 17.1.а", Outcome.FOUL)
    assert orders_of(j3, "penalty_pawn")[0].xy_mm[0] == pytest.approx((0.0, -485.0))
    assert j3.state.shooter == "ann"
    check_json(j3)


def test_novuss_20_3_last_pawn_wins_set_and_match() -> None:
    e, s = novuss(sets_per_match=3)
    table = with_pawns([("red_pawn", 0, 300, 1), ("black_pawn", 300, 0, 11)])
    s = s.with_(on_table=("red_pawn", "black_pawn"))
    j = e.judge(s, shot(table, [HIT_RED, POT_RED]))
    assert has(j, "Novuss 20.3", Outcome.SET_WIN) and j.state.scores == (1, 0)
    assert j.state.novuss.sides == ("b", "a") and j.state.novuss.set_no == 2
    assert j.state.shooter == "bob"  # bob now sits at a, the first-shot side
    assert orders_of(j, "rerack") and j.state.on_table.count("red_pawn") == 8
    j2 = e.judge(
        j.state.with_(scores=(1, 0), turn=0, on_table=("red_pawn", "black_pawn")),
        shot(table, [HIT_RED, POT_RED]),
    )
    assert has(j2, "Novuss 23.1", Outcome.MATCH_WIN) and j2.state.winner == 0


def test_novuss_20_3_no_set_win_with_debt() -> None:
    e, s = novuss()
    table = with_pawns([("red_pawn", 0, 300, 1), ("black_pawn", 300, 0, 11)])
    s = s.with_(on_table=("red_pawn", "black_pawn"), penalty_debt=(2, 0))
    j = e.judge(s, shot(table, [HIT_RED, POT_RED]))
    assert not has(j, "Novuss 20.3", Outcome.SET_WIN)
    assert (
        has(j, "Novuss 17.5", Outcome.PENALTY_PAWN)
        and len(orders_of(j, "penalty_pawn")[0].labels) == 2
    )
    assert j.state.penalty_debt == (0, 0) and j.state.shooter == "ann"


def test_novuss_20_5_both_last_pawns_replay() -> None:
    e, s = novuss()
    table = with_pawns([("red_pawn", 0, 300, 1), ("black_pawn", 30, 330, 11)])
    s = s.with_(on_table=("red_pawn", "black_pawn"))
    ev = [
        HIT_RED,
        ("contact", 1.1, "red_pawn#1", "black_pawn#11"),
        POT_RED,
        ("pocket", 1.6, "black_pawn#11", "b_left"),
    ]
    j = e.judge(s, shot(table, ev))
    assert has(j, "Novuss 20.5", Outcome.REPLAY) and j.state.scores == (0, 0)


def test_novuss_21_doubles_clockwise_partner_pawns_own_side() -> None:
    e = engine("novuss-doubles")
    s = e.start(["a1", "b1", "a2", "b2"])
    assert s.novuss.sides == ("a", "left", "b", "right") and s.novuss.colours[2] == "red"
    setup = e.setup_order(s)
    assert setup.labels.count("red_pawn") == 16 and len(setup.labels) == 32
    table = [
        ("puck", 0, -450, 99),
        ("red_pawn", 0, 300, 1),
        ("red_pawn", 0, 485, 2),
        ("black_pawn", 200, 100, 11),
        ("black_pawn", -420, 0, 12),  # dark for the player at `left` (x < -374.5)
        ("black_pawn", 420, 0, 13),  # light for him (partner's row)
    ]
    s = s.with_(on_table=tuple(r[0] for r in table[1:]))
    j = e.judge(s, shot(table, [HIT_RED, POT_RED]))
    assert j.state.shooter == "a1"
    j2 = e.judge(s, shot(table, [HIT_RED]))
    assert j2.state.shooter == "b1"  # clockwise: a -> left
    left_table = [("puck", -450, 0, 98), *table[1:]]
    j3 = e.judge(j2.state, shot(left_table, [("contact", 1.0, "puck#98", "black_pawn#13")]))
    assert has(j3, "Novuss E2 correct shot", Outcome.LEGAL)
    j4 = e.judge(j2.state, shot(left_table, [("contact", 1.0, "puck#98", "black_pawn#12")]))
    assert has(j4, "Novuss 17.1.з", Outcome.FOUL)
    assert orders_of(j4, "penalty_pawn")[0].xy_mm[0] == pytest.approx((485.0, 0.0))


def test_novuss_legal_targets() -> None:
    e, s = novuss()
    assert e.legal_targets(s, shot(TABLE).before) == {"red_pawn"}
    dark = shot(with_pawns([("red_pawn", 0, 0, 1)])).before
    assert e.legal_targets(s, dark) == frozenset()
