"""Novuss singles and doubles (RULES §1.5, §1.6, §1.8). A stands at cushion a (y = -500)
and plays the red pawns toward cushion b; zone lines at ±370 mm, circle r = 125 mm."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from test_rules_helpers import NOVUSS, check_json, engine, has, orders_of, shot

from adjudication.calls import Outcome
from adjudication.declarations import Declaration
from adjudication.games import Game
from adjudication.replay import declarations_from_lines
from adjudication.rules.novuss import NovussGeometry
from adjudication.settings import RuleSettings
from cueref.stream import validation_errors
from simulation.bots import BotSettings, puck_placement_ok
from simulation.match import ClipSettings, direct

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
    at_b = [("puck", 0, 450, 99), *table[1:]]  # ann now plays from rail b
    j2 = e.judge(
        j.state.with_(scores=(1, 0), turn=0, on_table=("red_pawn", "black_pawn")),
        shot(at_b, [HIT_RED, POT_RED]),
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
    # §21.5: the penalty goes to his partner (at `right`), on the partner's target row.
    assert orders_of(j4, "penalty_pawn")[0].xy_mm[0] == pytest.approx((-485.0, 0.0))
    e5 = engine("novuss-doubles", doubles_penalty_to_partner=False)
    j5 = e5.judge(j2.state, shot(left_table, [("contact", 1.0, "puck#98", "black_pawn#12")]))
    assert orders_of(j5, "penalty_pawn")[0].xy_mm[0] == pytest.approx((485.0, 0.0))


def test_novuss_legal_targets() -> None:
    e, s = novuss()
    assert e.legal_targets(s, shot(TABLE).before) == {"red_pawn"}
    dark = shot(with_pawns([("red_pawn", 0, 0, 1)])).before
    assert e.legal_targets(s, dark) == frozenset()


# --------------------------------------------------------------- clauses added later


def full_rows(colour_row_y: float, label: str, first_id: int) -> list[tuple]:
    return [(label, -105 + 30 * k, colour_row_y, first_id + k) for k in range(8)]


def test_novuss_20_4_first_series_clear_stops_and_opponent_answers() -> None:
    e = engine("novuss")
    s = e.start(["ann", "bob"])
    table = [PUCK, ("red_pawn", 0, 300, 1), *full_rows(-485, "black_pawn", 11)]
    s = s.with_(on_table=tuple(r[0] for r in table[1:]))
    j = e.judge(s, shot(table, [HIT_RED, POT_RED]))
    assert has(j, "Novuss 20.4", Outcome.LEGAL) and not has(j, "Novuss 20.3", Outcome.SET_WIN)
    assert j.state.shooter == "bob" and j.state.novuss.cleared_first == 0
    bob_table = [("puck", 0, 450, 98), ("black_pawn", 0, -300, 11)]
    hit = [("contact", 1.0, "puck#98", "black_pawn#11"), ("pocket", 1.5, "black_pawn#11", "a_left")]
    st = j.state.with_(on_table=("black_pawn",))
    both = e.judge(st, shot(bob_table, hit))  # bob clears too: replay, sides and first swapped
    assert has(both, "Novuss 20.4", Outcome.REPLAY) and both.state.scores == (0, 0)
    assert both.state.novuss.sides == ("b", "a") and both.state.shooter == "bob"
    miss = e.judge(st, shot(bob_table, [("contact", 1.0, "puck#98", "black_pawn#11")]))
    assert has(miss, "Novuss 20.4", Outcome.SET_WIN) and miss.state.scores == (1, 0)


def test_novuss_20_4_flawed_last_shot_loses_the_set() -> None:
    e = engine("novuss")
    s = e.start(["ann", "bob"])
    table = [PUCK, ("red_pawn", 0, 300, 1), *full_rows(-485, "black_pawn", 11)]
    s = s.with_(on_table=tuple(r[0] for r in table[1:]))
    flawed = [HIT_RED, POT_RED, ("line_cross", 0.5, "puck#99", "zone_a"),
              ("line_cross", 2.0, "puck#99", "zone_a")]  # N19: the turn is lost on the clear
    j = e.judge(s, shot(table, flawed))
    assert j.state.novuss.cleared_flawed and j.state.shooter == "bob"
    bob_table = [("puck", 0, 450, 98), ("black_pawn", 0, -300, 11)]
    hit = [("contact", 1.0, "puck#98", "black_pawn#11"), ("pocket", 1.5, "black_pawn#11", "a_left")]
    k = e.judge(j.state.with_(on_table=("black_pawn",)), shot(bob_table, hit))
    assert has(k, "Novuss 20.4", Outcome.SET_WIN) and k.state.scores == (0, 1)


def test_novuss_20_4_not_known_mid_set() -> None:
    e, s = novuss()  # mid-set position: bob's pawns are not all on the table
    table = with_pawns([("red_pawn", 0, 300, 1), ("black_pawn", 300, 0, 11)])
    j = e.judge(s.with_(on_table=("red_pawn", "black_pawn")), shot(table, [HIT_RED, POT_RED]))
    assert has(j, "Novuss 20.3", Outcome.SET_WIN) and not has(j, "Novuss 20.4", Outcome.LEGAL)


def test_novuss_20_5_last_pawns_together_with_a_penalty_loses_the_set() -> None:
    e, s = novuss()
    table = with_pawns([("red_pawn", 0, 300, 1), ("black_pawn", 30, 330, 11)])
    s = s.with_(on_table=("red_pawn", "black_pawn"))
    ev = [HIT_RED, ("contact", 1.1, "red_pawn#1", "black_pawn#11"), POT_RED,
          ("pocket", 1.6, "black_pawn#11", "b_left"), ("pocket", 1.8, "puck#99", "b_right")]
    j = e.judge(s, shot(table, ev))
    assert has(j, "Novuss 20.5", Outcome.SET_LOSS) and j.state.scores == (0, 1)


def test_novuss_20_6_three_misses_on_dark_pawns() -> None:
    e, s = novuss()
    ann_table = [PUCK, ("red_pawn", 0, -420, 1), ("black_pawn", 0, 420, 11)]
    bob_table = [("puck", 0, 450, 98), *ann_table[1:]]
    s = s.with_(on_table=("red_pawn", "black_pawn"))
    miss = [("cushion", 0.8, "puck#99", "b")]
    bob_miss = [("cushion", 0.8, "puck#98", "a")]
    for k in range(3):
        assert not any(c.rule == "Novuss 20.6" for c in e.judge(s, shot(ann_table, miss)).calls)
        s = e.judge(s, shot(ann_table, miss)).state
        j = e.judge(s, shot(bob_table, bob_miss))
        s = j.state
        assert s.novuss.dark_misses == (k + 1, k + 1) or has(j, "Novuss 20.6", Outcome.REPLAY)
    assert has(j, "Novuss 20.6", Outcome.REPLAY) and j.state.scores == (0, 0)
    assert j.state.novuss.sides == ("a", "b") and j.state.shooter == "ann"  # first shot kept
    hit = [("cushion", 0.8, "puck#99", "b"), ("contact", 1.2, "puck#99", "red_pawn#1")]
    s2 = s.with_(novuss=s.novuss.__class__(**{**_fields(s.novuss), "dark_misses": (2, 2)}))
    assert e.judge(s2, shot(ann_table, hit)).state.novuss.dark_misses == (0, 2)  # §8.7


def _fields(info):
    return {k: getattr(info, k) for k in info.__slots__}


def test_novuss_21_5_doubles_penalty_goes_to_the_partner() -> None:
    e = engine("novuss-doubles")
    s = e.start(["a1", "b1", "a2", "b2"])
    table = [("puck", 0, -450, 99), ("red_pawn", 0, 300, 1), ("black_pawn", 200, 100, 11)]
    s = s.with_(on_table=("red_pawn",) * 10 + ("black_pawn",) * 16)
    j = e.judge(s, shot(table, [("contact", 1.0, "puck#99", "black_pawn#11")]))
    c = next(c for c in j.calls if c.outcome is Outcome.PENALTY_PAWN)
    assert c.text.startswith("Penalty pawn to a2") and c.evidence["offender"] == "a1"
    assert orders_of(j, "penalty_pawn")[0].xy_mm[0] == pytest.approx((0.0, -485.0))


def test_novuss_21_6_no_penalty_pawn_while_the_target_row_is_untouched() -> None:
    e = engine("novuss-doubles")
    s = e.start(["a1", "b1", "a2", "b2"])
    rows = full_rows(-485, "red_pawn", 1)  # a2's target row (rail a) untouched
    table = [("puck", 0, -300, 99), *rows, ("red_pawn", 0, 300, 20), ("black_pawn", 200, 100, 11)]
    s = s.with_(on_table=("red_pawn",) * 10 + ("black_pawn",) * 16)
    j = e.judge(s, shot(table, [("contact", 1.0, "puck#99", "black_pawn#11")]))
    assert has(j, "Novuss 21.6", Outcome.PENALTY_PAWN) and not orders_of(j, "penalty_pawn")
    assert j.state.penalty_debt == (0, 0, 1, 0)


def test_novuss_21_7_doubles_clear_in_first_series_one_answer() -> None:
    e = engine("novuss-doubles")
    s = e.start(["a1", "b1", "a2", "b2"])
    table = [("puck", 0, -450, 99), ("red_pawn", 0, 300, 1), ("black_pawn", 200, 100, 11)]
    s = s.with_(on_table=("red_pawn", "black_pawn"))
    j = e.judge(s, shot(table, [HIT_RED, POT_RED]))
    assert has(j, "Novuss 21.7", Outcome.LEGAL) and j.state.shooter == "b1"
    b1_table = [("puck", -450, 0, 98), ("black_pawn", 200, 100, 11)]
    miss = e.judge(j.state.with_(on_table=("black_pawn",)), shot(b1_table, []))
    assert has(miss, "Novuss 21.7", Outcome.SET_WIN) and miss.state.scores == (1, 0, 1, 0)
    hit = [("contact", 1.0, "puck#98", "black_pawn#11"), ("pocket", 1.5, "black_pawn#11", "a_left")]
    both = e.judge(j.state.with_(on_table=("black_pawn",)), shot(b1_table, hit))
    assert has(both, "Novuss 20.4", Outcome.REPLAY)  # §21.1: stay, b1 opens the replay
    assert both.state.novuss.sides == ("a", "left", "b", "right") and both.state.shooter == "b1"


def test_novuss_8_24_own_zone_pawn_hit_at_the_start() -> None:
    e, s = novuss()
    table = with_pawns([("red_pawn", 0, -372, 1), ("red_pawn", 0, 300, 2),
                        ("black_pawn", 100, -420, 11)])  # red 1 straddles the line: light
    j = e.judge(s, shot(table, [("contact", 1.0, "puck#99", "red_pawn#1")]))
    assert has(j, "Novuss 17.1.а", Outcome.FOUL)
    j2 = e.judge(s, shot(table, [("contact", 1.0, "puck#99", "black_pawn#11")]))
    assert has(j2, "Novuss 17.1.а", Outcome.FOUL) and has(j2, "Novuss 17.1.б", Outcome.FOUL)
    e3, s3 = novuss(own_zone_first_penalized=False)
    assert has(e3.judge(s3, shot(table, [("contact", 1.0, "puck#99", "red_pawn#1")])),
               "Novuss E2 correct shot", Outcome.LEGAL)


def test_novuss_17_1_s_broken_puck() -> None:
    e, s = novuss()
    lost = [HIT_RED, ("pocket", 1.5, "puck#99", "b_left"), ("pocket", 1.6, "puck#98", "b_left")]
    j = e.judge(s, shot(TABLE, lost))
    assert has(j, "Novuss 17.1.с", Outcome.FOUL) and not has(j, "Novuss 17.1.г", Outcome.FOUL)
    part = shot(TABLE, [HIT_RED, ("pocket", 1.5, "puck#99", "b_left")],
                after=[r for r in TABLE if r[3] != 99] + [("puck", 10, 10, 98)])
    assert has(e.judge(s, part), "Novuss 17.1.с", Outcome.REVIEW)
    assert has(e.judge(s, shot(TABLE, [HIT_RED, ("pocket", 1.5, "puck#99", "b")])),
               "Novuss 17.1.г", Outcome.FOUL)  # one puck: N10 as before


def test_novuss_n15_penalized_direct_shot_drives_opponent_pawn_into_his_dark_area() -> None:
    e, s = novuss()
    ev = [("contact", 1.0, "puck#99", "black_pawn#13")]  # opponent's pawn first: penalized
    j = e.judge(s, shot(TABLE, ev, moved_to={"black_pawn#13": (200, 450)}))  # bob's zone
    assert has(j, "Novuss 21.3", Outcome.FOUL)
    assert (13, (200.0, 100.0)) in zip(orders_of(j, "restore")[0].ids,
                                       orders_of(j, "restore")[0].xy_mm, strict=True)
    e2, s2 = novuss(n15_restore=False)
    j2 = e2.judge(s2, shot(TABLE, ev, moved_to={"black_pawn#13": (200, 450)}))
    assert has(j2, "Novuss 21.3", Outcome.FOUL) and not orders_of(j2, "restore")


@pytest.mark.parametrize("to, rule, restored", [((0, 20), "Novuss 21.4", True),
                                                ((450, 0), "Novuss 17.1.ф", False)])
def test_novuss_17_1_f_and_21_4_doubles_driven_opponent_pawn(to, rule, restored) -> None:
    e = engine("novuss-doubles")
    s = e.start(["a1", "b1", "a2", "b2"])
    table = [("puck", 0, -450, 99), ("red_pawn", 0, 300, 1), ("black_pawn", 200, 100, 11)]
    s = s.with_(on_table=("red_pawn", "black_pawn"))
    j = e.judge(s, shot(table, [("contact", 1.0, "puck#99", "black_pawn#11")],
                        moved_to={"black_pawn#11": to}))
    assert has(j, rule, Outcome.FOUL) and bool(orders_of(j, "restore")) is restored


def test_novuss_review_on_doubt_first_pawn_and_pocket() -> None:
    e, s = novuss()
    doubt = [("contact", 1.0, "puck#99", "black_pawn#11")]
    sh = shot(TABLE, doubt)
    weak = replace_confidence(sh, 0.3)
    j = e.judge(s, weak)
    c = next(c for c in j.calls if c.outcome is Outcome.REVIEW)
    assert c.rule == "Novuss E2 correct shot" and c.evidence["doubtful"][0]["confidence"] == 0.3
    assert len(c.evidence["doubtful"]) == 1  # (the first contact, named once)
    assert not any(c.outcome is Outcome.REVIEW for c in e.judge(s, sh).calls)
    pot = replace_confidence(shot(TABLE, [HIT_RED, POT_RED]), 0.2, kind="pocket")
    assert has(e.judge(s, pot), "Novuss 18.1.а", Outcome.REVIEW)
    e2, s2 = novuss(review_below=0.1)
    assert not any(c.outcome is Outcome.REVIEW for c in e2.judge(s2, weak).calls)


def replace_confidence(sh, conf, kind="contact"):
    from dataclasses import replace

    evs = tuple(replace(e, confidence=conf) if e.kind.value == kind else e for e in sh.events)
    return replace(sh, events=evs)


def test_novuss_calibration_untrusted_and_referee_overrule() -> None:
    from dataclasses import replace

    from adjudication.declarations import Declaration, RefereeCall

    e, s = novuss()
    j = e.judge(s, replace(shot(TABLE, [HIT_RED]), calibration_untrusted=True))
    assert j.calls[0].outcome is Outcome.REVIEW and j.calls[0].rule == "Novuss camera review"
    d = Declaration(overrule=(RefereeCall("Novuss 17.1.б", "foul", "Opponent's pawn first."),))
    k = e.judge(s, shot(TABLE, [HIT_RED]), d)
    assert [(c.rule, c.outcome) for c in k.calls] == [("Novuss 17.1.б", Outcome.FOUL)]
    assert k.calls[0].evidence["by"] == "referee" and k.calls[0].evidence["engine_calls"]
    assert Declaration.from_json(d.to_json()) == d
    with pytest.raises(ValueError, match="outcome"):
        RefereeCall("Novuss 17.1.б", "maybe", "x")


# ------------------------------------------- N25–N27, N29, N30: outside the shot, the clock


@pytest.mark.parametrize(
    "limit, wait, faults, rule, outcome, pawn",
    [
        (None, 300, (0, 0), None, None, False),  # off by default: a referee imposes it
        (30, 20, (0, 0), None, None, False),
        (30, 40, (0, 0), "Novuss 18.1.ж", Outcome.LOSS_OF_TURN, False),  # first breach
        (30, 40, (1, 0), "Novuss 17.1.т", Outcome.FOUL, True),  # again: penalty pawn too
    ],
    ids=["off", "in_time", "first_breach", "repeated"],
)
def test_novuss_18_1_zh_shot_time(limit, wait, faults, rule, outcome, pawn) -> None:
    e, s = novuss(shot_clock_s=limit)
    s = s.with_(clock_from_s=-float(wait), novuss=replace(s.novuss, time_faults=faults))
    j = e.judge(s, shot(TABLE, [HIT_RED, POT_RED]))
    if rule is None:
        assert j.state.shooter == "ann" and not any("18.1.ж" in c.rule for c in j.calls)
        return
    assert has(j, rule, outcome) and j.state.shooter == "bob"
    assert bool(orders_of(j, "penalty_pawn")) is pawn
    assert j.state.novuss.time_faults[0] == faults[0] + 1
    c = next(c for c in j.calls if c.rule == rule)
    assert c.evidence["took_s"] == pytest.approx(wait) and c.evidence["limit_s"] == limit
    check_json(j)


def test_novuss_17_1_t_shot_time_counts_from_the_referee_placing_pawns() -> None:
    e, s = novuss(shot_clock_s=30)
    s = s.with_(clock_from_s=-40.0)
    placed = [("placed", -10.0, "red_pawn#30", None, (0, 485))]  # the referee's last action
    j = e.judge(s, shot(TABLE, [HIT_RED, POT_RED], between=placed))
    assert j.state.shooter == "ann" and j.state.novuss.time_faults == (0, 0)


@pytest.mark.parametrize(
    "between, table, opponent, loser",
    [
        ([("off_table", -1.0, "black_pawn#12")], TABLE, False, "ann"),  # lifted off the table
        ([("moved", -1.0, "red_pawn#1")], [PUCK, ("red_pawn", 0, 300, 1)], False, "ann"),
        ([("off_table", -1.0, "black_pawn#12")], TABLE, True, "bob"),  # §8.8 operator: bob
    ],
    ids=["lifted", "last_pawn_moved", "lifted_by_opponent"],
)
def test_novuss_16_1_e_pawn_lifted_or_last_pawn_moved(between, table, opponent, loser) -> None:
    from adjudication.declarations import Declaration

    e, s = novuss()
    s = s.with_(on_table=tuple(r[0] for r in table[1:]))
    j = e.judge(s, shot(table, [HIT_RED], between=between),
                Declaration(touched_by_opponent=opponent))
    c = next(c for c in j.calls if c.rule == "Novuss 16.1.е")
    assert c.outcome is Outcome.SET_LOSS and c.player == loser
    assert j.state.scores == ((0, 1) if loser == "ann" else (1, 0))


def test_novuss_16_1_e_pawn_dropping_into_a_pocket_between_shots_is_not_lifted() -> None:
    e, s = novuss()
    j = e.judge(s, shot(TABLE, [HIT_RED], between=[("pocket", -1.0, "black_pawn#12", "a_left")]))
    assert not any(c.rule == "Novuss 16.1.е" for c in j.calls)


@pytest.mark.parametrize(
    "moves, settings, review, set_loss",
    [
        ([(-1.00, 11), (-1.05, 12), (-1.10, 13)], {}, True, False),  # together: shaken
        ([(-1.0, 11), (-1.5, 12), (-2.0, 13)], {}, False, True),  # one after another: hands
        ([(-1.00, 11), (-1.05, 12)], {}, False, True),  # two pawns: a hand (16.1.д)
        ([(-1.00, 11), (-1.05, 12), (-1.10, 13)], {"shake_min_pawns": 4}, False, True),
    ],
    ids=["three_together", "spread_in_time", "two_pawns", "min_pawns_4"],
)
def test_novuss_16_1_b_table_shaken(moves, settings, review, set_loss) -> None:
    e, s = novuss(**settings)
    between = [("moved", t, f"black_pawn#{i}") for t, i in moves]
    j = e.judge(s, shot(TABLE, [HIT_RED, POT_RED], between=between))
    assert has(j, "Novuss 16.1.б", Outcome.REVIEW) is review
    assert has(j, "Novuss 16.1.д", Outcome.SET_LOSS) is set_loss


def test_novuss_16_1_b_contact_between_shots_is_not_a_shake() -> None:
    e, s = novuss()
    between = [("contact", -1.2, "black_pawn#11", "black_pawn#12"),
               ("moved", -1.0, "black_pawn#11"), ("moved", -1.05, "black_pawn#12"),
               ("moved", -1.1, "black_pawn#13")]
    j = e.judge(s, shot(TABLE, [HIT_RED, POT_RED], between=between))
    assert not has(j, "Novuss 16.1.б", Outcome.REVIEW)
    assert has(j, "Novuss 16.1.д", Outcome.SET_LOSS)


@pytest.mark.parametrize(
    "between, clock, lost",
    [
        ([("placed", -3.0, "puck#99"), ("placed", -2.0, "red_pawn#30", None, (0, 485))],
         -10.0, True),
        ([("placed", -3.0, "red_pawn#30", None, (0, 485)), ("placed", -2.0, "puck#99")],
         -10.0, False),
        ([("placed", -3.0, "puck#99"), ("placed", -2.0, "red_pawn#30", None, (0, 485))],
         None, False),  # a fresh set-up (new set, stream start): players set the rows
    ],
    ids=["puck_first", "pawns_first", "set_up"],
)
def test_novuss_18_1_z_puck_placed_before_the_referee_finished(between, clock, lost) -> None:
    e, s = novuss()
    j = e.judge(s.with_(clock_from_s=clock), shot(TABLE, [HIT_RED, POT_RED], between=between))
    assert has(j, "Novuss 18.1.з", Outcome.LOSS_OF_TURN) is lost
    assert j.state.shooter == ("bob" if lost else "ann")


@pytest.mark.parametrize("skip", [False, True], ids=["penalty_only", "skips_turn"])
def test_novuss_17_1_p_pawn_moved_while_the_opponent_has_the_turn(skip) -> None:
    from adjudication.declarations import Declaration

    e, s = novuss(n25_skip_turn=skip)
    by_bob = Declaration(touched_by_opponent=True)
    moved = [("moved", -1.0, "black_pawn#12")]
    j = e.judge(s, shot(TABLE, [HIT_RED, POT_RED], between=moved), by_bob)
    c = next(c for c in j.calls if c.rule == "Novuss 17.1.п")
    assert c.outcome is Outcome.FOUL and c.player == "bob"
    assert not has(j, "Novuss 17.1.о", Outcome.FOUL) and j.state.shooter == "ann"
    assert j.state.novuss.deferred == (0, 1)
    after = [r for r in TABLE if r[3] != 1]
    k = e.judge(j.state, shot(after, [("contact", 1.0, "puck#99", "red_pawn#2")], number=2))
    pawn = next(c for c in k.calls if c.rule == "Novuss 17.1.п")
    assert pawn.outcome is Outcome.PENALTY_PAWN and pawn.player == "bob"
    spot = next(o for o in orders_of(k, "penalty_pawn") if o.labels == ("black_pawn",))
    assert spot.xy_mm[0] == pytest.approx((0.0, -485.0))  # bob's target row, rail a
    assert k.state.novuss.deferred == (0, 0)
    assert k.state.shooter == ("ann" if skip else "bob")
    assert has(k, "Novuss 17.1.п", Outcome.LOSS_OF_TURN) is skip
    plain = e.judge(s, shot(TABLE, [HIT_RED, POT_RED], between=moved))  # default: ann's touch
    assert has(plain, "Novuss 17.1.о", Outcome.FOUL) and plain.state.shooter == "bob"


def test_novuss_17_1_m_stroke_while_something_moves() -> None:
    e, s = novuss()
    j = e.judge(s, shot(TABLE, [HIT_RED, POT_RED], moving=("black_pawn",)))
    assert has(j, "Novuss 17.1.м", Outcome.FOUL) and j.state.shooter == "bob"
    assert not has(e.judge(s, shot(TABLE, [HIT_RED, POT_RED])), "Novuss 17.1.м", Outcome.FOUL)


def test_novuss_16_1_z_wrong_player_goes_to_the_referee() -> None:
    e, s = novuss()
    assert has(e.judge(s, shot(TABLE, [HIT_RED], player="bob")), "Novuss 16.1.з", Outcome.REVIEW)
    assert not has(e.judge(s, shot(TABLE, [HIT_RED], player="ann")), "Novuss 16.1.з",
                   Outcome.REVIEW)


# ------------------------------- §19.1.а puck placement, §15.3 warnings, §16.1.ж set opener


def mid_set(s):
    """The state once the set's first shot has been made (§16.1.ж looks at that one only)."""
    return s.with_(novuss=replace(s.novuss, set_started=True))


@pytest.mark.parametrize(
    "puck, settings, outcome, line",
    [
        ((0, -450), {}, None, None),  # in the zone, no line in the hole
        ((0, -375.6), {}, None, None),  # the zone line just hidden (c.y <= -375.6)
        ((0, -372), {}, Outcome.WARNING, True),  # zone line in the hole, 3.6 mm past
        ((0, -374), {}, None, None),  # 1.6 mm: within the camera's error, the player's
        ((0, -374), {"puck_placement_doubt_mm": 0.0}, Outcome.WARNING, True),
        ((366, -450), {}, None, None),  # the side line at the hole's edge: within the error
        ((369, -450), {}, Outcome.WARNING, True),  # the side line 3.4 mm into the hole
        ((420, -450), {}, Outcome.WARNING, False),  # in the corner square, past the side line
        ((0, -200), {}, Outcome.WARNING, False),  # shot from where it lay, in front of the zone
    ],
    ids=["ok", "just_hidden", "zone_line", "doubt", "doubt_off", "side_line", "side_line_past",
         "corner", "away"],
)
def test_novuss_19_1_a_puck_placed_wrongly_draws_a_warning(puck, settings, outcome, line) -> None:
    e, s = novuss(**settings)
    table = [("puck", *puck, 99), *TABLE[1:]]
    j = e.judge(mid_set(s), shot(table, [HIT_RED, POT_RED]))
    calls = [c for c in j.calls if c.rule == "Novuss 19.1.а"]
    assert [c.outcome for c in calls] == ([] if outcome is None else [outcome])
    assert j.state.shooter == "ann" and has(j, "Novuss 18.1.а", Outcome.LEGAL)  # shot stands
    assert j.state.novuss.warnings == ((1, 0) if outcome is Outcome.WARNING else (0, 0))
    if outcome is not None:
        c = calls[0]
        assert c.player == "ann" and c.evidence["puck_xy_mm"] == [float(puck[0]), float(puck[1])]
        assert c.evidence["line_in_hole"] is line
    for c in j.calls:
        assert validation_errors(c.to_json()) == []


def test_novuss_19_1_a_placement_test_agrees_with_the_simulated_players() -> None:
    """The engine's hole test and the bots' placement rule (RULES §1.4) are one test."""
    g = NovussGeometry.from_spec(NOVUSS)
    rng = np.random.default_rng(7)
    xy = rng.uniform(-477, 477, size=(4000, 2))
    xy[:1000, 1] = rng.uniform(-380, -370, size=1000)  # crowd the zone line of a
    xy[1000:2000, 0] = rng.uniform(360, 370, size=1000)  # and a side line
    for side in ("a", "b", "left", "right"):
        engine_ok = [g.puck_breach(side, p)[0] <= 1e-9 for p in xy]
        assert engine_ok == [puck_placement_ok(NOVUSS, p, side) for p in xy]
        assert 50 < sum(engine_ok) < len(xy) - 50


def test_novuss_19_1_a_simulated_misplaced_puck_is_warned() -> None:
    bot = BotSettings(fault_rate=1.0, faults=("foul_placement_line",))
    script = direct(ClipSettings(game=Game.NOVUSS, seed=0, shots=5, bot=bot))
    calls = [c for rec in script.shots for c in rec.judgement.calls]
    assert any(c.rule == "Novuss 19.1.а" and c.outcome is Outcome.WARNING for c in calls)
    assert all(c.outcome in (Outcome.WARNING, Outcome.REVIEW)
               for c in calls if c.rule == "Novuss 19.1.а")


@pytest.mark.parametrize(
    "sets, scores, set_no, k, winner",
    [
        (3, (1, 0), 2, 2, 1),  # ann loses sets 2 and 3: bob wins 2-1
        (3, (0, 0), 1, 3, 1),  # the set in progress counts too: 3-0
        (4, (2, 0), 3, 2, None),  # even number of sets: 2-2, a draw for the referee
    ],
    ids=["two_left", "all_three", "level"],
)
def test_novuss_15_3_third_warning_loses_the_sets_not_yet_played(
    sets, scores, set_no, k, winner
) -> None:
    e, s = novuss(sets_per_match=sets)
    s = s.with_(scores=scores, novuss=replace(mid_set(s).novuss, set_no=set_no, warnings=(2, 0)))
    table = [("puck", 0, -300, 99), *TABLE[1:]]  # misplaced: ann's third warning
    j = e.judge(s, shot(table, [HIT_RED, POT_RED]))
    assert [(c.rule, c.outcome.value, c.player) for c in j.calls[:1 + 2 * k]] == [
        ("Novuss 19.1.а", "warning", "ann"),
        *[(r, o, p) for _ in range(k) for r, o, p in (("Novuss 15.3", "set_loss", "ann"),
                                                       ("Novuss 15.3", "set_win", "bob"))],
    ]
    assert [c.evidence["set"] for c in j.calls if c.outcome is Outcome.SET_LOSS] == list(
        range(set_no, set_no + k))
    assert j.state.scores == (scores[0], scores[1] + k) and j.state.winner == winner
    assert has(j, "Novuss 23.1", Outcome.MATCH_WIN if winner is not None else Outcome.REVIEW)
    assert not has(j, "Novuss 18.1.а", Outcome.LEGAL)  # the shot no longer matters
    check_json(j)
    two = e.judge(s.with_(novuss=replace(s.novuss, warnings=(1, 0))), shot(table, [HIT_RED]))
    assert two.state.novuss.warnings == (2, 0) and two.state.winner is None  # 2nd: no more


@pytest.mark.parametrize(
    "warning, warned, rule, player, counts",
    [
        ("в", None, "Novuss 19.1.в", "ann", (1, 0)),  # puck set against a side rail
        ("19.1.д", None, "Novuss 19.1.д", "ann", (1, 0)),  # cue over the rail corner
        ("zh", "bob", "Novuss 19.1.ж", "bob", (0, 1)),  # Latin keyboard; the other player
        ("19.3", None, "Novuss 19.3", "ann", (1, 0)),  # the stalling warning
        ("argued with the referee", "bob", "Novuss 19.1", "bob", (0, 1)),
    ],
)
def test_novuss_15_3_declared_warnings_count_with_the_cameras(
    warning, warned, rule, player, counts
) -> None:
    e, s = novuss()
    d = Declaration(warning=warning, warned=warned)
    assert Declaration.from_json(d.to_json()) == d
    assert declarations_from_lines([(1, {"shot": 1, "warning": warning, "warned": warned})]) == {
        1: d}
    j = e.judge(mid_set(s), shot(TABLE, [HIT_RED, POT_RED]), d)
    c = next(c for c in j.calls if c.outcome is Outcome.WARNING)
    assert (c.rule, c.player, c.evidence["by"]) == (rule, player, "referee")
    assert j.state.novuss.warnings == counts and j.state.shooter == "ann"
    third = e.judge(mid_set(s).with_(novuss=replace(s.novuss, warnings=(2, 2), set_started=True)),
                    shot(TABLE, [HIT_RED, POT_RED]), d)
    assert has(third, "Novuss 23.1", Outcome.MATCH_WIN)
    assert third.state.winner == (1 if player == "ann" else 0)


def test_novuss_15_3_bad_declared_warnings_are_refused() -> None:
    e, s = novuss()
    with pytest.raises(ValueError, match="not one of the players"):
        e.judge(s, shot(TABLE, [HIT_RED]), Declaration(warning="в", warned="carl"))
    with pytest.raises(ValueError, match="give the warning"):
        Declaration(warned="bob")
    with pytest.raises(ValueError, match="empty"):
        Declaration(warning=" ")


BOB_PUCK = ("puck", 0, 450, 98)  # in bob's edge zone (rail b)


@pytest.mark.parametrize(
    "turn, puck, opening, pawn, calls, scores, legal",
    [
        # bob had the right; ann, listed first, opened from her side: she loses the set
        (1, PUCK, True, "red_pawn#2", [("Novuss 16.1.ж", Outcome.SET_LOSS)], (0, 1), False),
        # the same stroke later in the set, the puck not seen set down since the last shot
        # (it may lie where that shot left it): a review, judged as the turn's (bob's)
        (1, PUCK, False, "red_pawn#2", [("Novuss 16.1.з", Outcome.REVIEW)], (0, 0), False),
        # ann had the right, bob opened: §16.1.ж names only the first-listed; judged as bob's
        # (his own black pawn first: a correct shot)
        (0, BOB_PUCK, True, "black_pawn#13", [("Novuss 16.1.ж", Outcome.REVIEW)], (0, 0), True),
        (0, PUCK, True, "red_pawn#2", [], (0, 0), True),  # the right holder opened
        (0, ("puck", 0, 200, 99), True, "red_pawn#2", [("Novuss 16.1.ж", Outcome.REVIEW)],
         (0, 0), True),  # outside both zones, on bob's half: who opened cannot be told
        (1, None, True, "red_pawn#2", [], (0, 0), False),  # no puck seen: nothing decided
    ],
    ids=["first_listed_out_of_order", "mid_set", "second_listed", "in_order",
         "cannot_tell", "puck_unseen"],
)
def test_novuss_16_1_zh_first_shot_of_a_set_out_of_order(
    turn, puck, opening, pawn, calls, scores, legal
) -> None:
    e, s = novuss()
    s = s.with_(turn=turn)
    if not opening:
        s = mid_set(s)
    table = [*([puck] if puck else []), *TABLE[1:]]
    j = e.judge(s, shot(table, [("contact", 1.0, f"puck#{puck[3] if puck else 0}", pawn)]))
    seen = [(c.rule, c.outcome) for c in j.calls if c.rule in ("Novuss 16.1.ж", "Novuss 16.1.з")]
    assert seen == calls and j.state.scores == scores
    assert has(j, "Novuss E2 correct shot", Outcome.LEGAL) is legal
    assert j.state.novuss.warnings in ((), (0, 0))  # who opened is not a placement warning
    if scores != (0, 0):
        c = next(c for c in j.calls if c.outcome is Outcome.SET_LOSS)
        assert c.player == "ann" and c.evidence["right"] == "bob"
        assert j.state.novuss.set_no == 2 and orders_of(j, "rerack")
        assert j.state.shooter == "ann"  # set 2 opens per the protocol: alternately, ann
    if puck == BOB_PUCK:
        assert next(c for c in j.calls if c.rule == "Novuss 16.1.ж").player == "bob"
        assert j.state.shooter == "ann"  # bob's series ended (nothing pocketed): ann's turn


def test_novuss_16_1_zh_doubles_opening_from_another_side_goes_to_the_referee() -> None:
    e = engine("novuss-doubles")
    s = e.start(["a1", "b1", "a2", "b2"])
    table = [("puck", -450, 0, 99), ("red_pawn", 0, 300, 1), ("black_pawn", 200, 100, 11)]
    s = s.with_(on_table=("red_pawn", "black_pawn"))
    j = e.judge(s, shot(table, [("contact", 1.0, "puck#99", "red_pawn#1")]))
    assert has(j, "Novuss 16.1.з", Outcome.REVIEW) and j.state.scores == (0, 0, 0, 0)
    assert next(c for c in j.calls if c.rule == "Novuss 16.1.з").evidence["shot_by"] == "b1"


@pytest.mark.parametrize("opener, set2", [("alternate", "bob"), ("protocol_first", "ann")])
def test_novuss_16_1_zh_set_opener_setting(opener, set2) -> None:
    e, s = novuss(novuss_set_opener=opener)
    table = with_pawns([("red_pawn", 0, 300, 1), ("black_pawn", 300, 0, 11)])
    s = s.with_(on_table=("red_pawn", "black_pawn"))
    j = e.judge(s, shot(table, [HIT_RED, POT_RED]))  # ann wins set 1
    assert j.state.scores == (1, 0) and j.state.novuss.sides == ("b", "a")
    assert j.state.shooter == set2 and not j.state.novuss.set_started
    first = j.state.novuss.first_side
    assert j.state.novuss.sides[j.state.turn] == first
    # a stream that names bob as the opener of a fresh set: his side leads from then on
    k = e.judge(s.with_(turn=1), shot([BOB_PUCK, *table[1:]],
                                      [("contact", 1.0, "puck#98", "black_pawn#11")]))
    assert k.state.novuss.first_side == "b" and k.state.novuss.set_started
    assert not any(c.rule.startswith("Novuss 16.1") for c in k.calls)
    with pytest.raises(ValueError, match="novuss_set_opener"):
        RuleSettings(novuss_set_opener="winner")
    with pytest.raises(ValueError, match="puck_placement_doubt_mm"):
        RuleSettings(puck_placement_doubt_mm=-1.0)


def test_novuss_16_1_z_puck_set_down_in_another_zone_is_judged_as_that_players_shot() -> None:
    """Mid-set, the engine's turn is bob's (a pocket it missed would do that), but the puck
    was set down in ann's edge zone: a review, and the shot is judged as ann's."""
    e, s = novuss()
    s = mid_set(s.with_(turn=1))
    table = [PUCK, *TABLE[1:]]
    j = e.judge(s, shot(table, [("contact", 1.0, f"puck#{PUCK[3]}", "red_pawn#2")],
                        between=[("placed", -1.0, f"puck#{PUCK[3]}")], player="bob"))
    review = [c for c in j.calls if c.rule == "Novuss 16.1.з"]
    assert [c.outcome for c in review] == [Outcome.REVIEW]  # one review, not two
    assert review[0].player == "ann" and review[0].evidence["puck_set_down"] is True
    assert has(j, "Novuss E2 correct shot", Outcome.LEGAL)  # her own red pawn first
    assert j.state.shooter == "bob"  # ann pocketed nothing: bob's turn


@pytest.mark.parametrize("other, review", [
    ("red_pawn#2", False),  # two own light pawns: correct whichever came first
    ("black_pawn#13", True),  # own and opponent's: 17.1.б at once, but which was first?
])
def test_novuss_doubtful_tie_at_a_junction_is_for_review_only_when_the_pawns_differ(
        other, review) -> None:
    # the puck into the junction of two touching pawns: the camera cannot tell which it
    # met first (both contacts doubtful); that matters only if each alone makes another shot
    e, s = novuss()
    tie = replace_confidence(shot(TABLE, [HIT_RED, ("contact", 1.001, "puck#99", other)]),
                             0.1)
    j = e.judge(s, tie)
    assert has(j, "Novuss E2 correct shot", Outcome.REVIEW) is review
    assert has(j, "Novuss E2 correct shot", Outcome.LEGAL) is not review
