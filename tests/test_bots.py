"""Racks, start rows and the player bots of the simulator."""

from __future__ import annotations

import math

import numpy as np
import pytest

from calibration.tables import get_table
from simulation.bots import (
    ALL_FAULTS,
    NOVUSS_FAULTS,
    POOL_FAULTS,
    BotSettings,
    NovussBot,
    PoolBot,
    ShotPlan,
    pocket_aim,
    puck_placement_ok,
)
from simulation.racks import cue_ball_in_kitchen, novuss_start, pool_rack

POOL = get_table("pool-9ft")
NOVUSS = get_table("novuss")
R = POOL.object_for("ball_1").radius_mm
D = 2 * R
HX, HY = POOL.half_wh_mm
HEAD_X = POOL.spots["head_spot"][0]
FOOT = np.array(POOL.spots["foot_spot"])
EXACT = BotSettings(skill=1.0, fault_rate=0.0, safety_rate=0.0)


# ----------------------------------------------------------------------------- builders


def make_pool(balls: dict[str, tuple[float, float]]) -> tuple[list[str], list[int], np.ndarray]:
    labels = list(balls)
    return labels, list(range(1, len(labels) + 1)), np.array([balls[k] for k in labels], float)


def random_pool(rng: np.random.Generator, n: int) -> tuple[list[str], list[int], np.ndarray]:
    pts: list[np.ndarray] = []
    while len(pts) < n + 1:
        p = np.array([rng.uniform(-HX + R, HX - R), rng.uniform(-HY + R, HY - R)])
        if all(np.linalg.norm(p - q) >= D + 0.5 for q in pts):
            pts.append(p)
    numbers = rng.choice(np.arange(1, 16), n, replace=False)
    labels = ["cue_ball"] + [f"ball_{k}" for k in numbers]
    return labels, list(range(1, n + 2)), np.array(pts)


def random_novuss(rng: np.random.Generator, n: int) -> tuple[list[str], list[int], np.ndarray]:
    pts: list[np.ndarray] = []
    while len(pts) < n:
        p = rng.uniform(-485.0, 485.0, 2)
        if all(np.linalg.norm(p - q) >= 30.5 for q in pts):
            pts.append(p)
    labels = [("red_pawn", "black_pawn")[int(rng.integers(2))] for _ in range(n)]
    return labels, list(range(1, n + 1)), np.array(pts)


def first_contact(c: np.ndarray, heading: float, xy: np.ndarray, skip: int) -> tuple[int, float]:
    """The ball the cue ball meets first along ``heading`` and how far it travels."""
    d = np.array([math.cos(heading), math.sin(heading)])
    best = (-1, math.inf)
    for i, b in enumerate(xy):
        if i == skip:
            continue
        w = b - c
        along = w @ d
        perp2 = w @ w - along**2
        if along <= 0 or perp2 >= D**2:
            continue
        s = along - math.sqrt(D**2 - perp2)
        if s < best[1]:
            best = (i, s)
    return best


def pairwise(xy: np.ndarray) -> np.ndarray:
    d = np.linalg.norm(xy[:, None] - xy[None], axis=-1)
    np.fill_diagonal(d, np.inf)
    return d


# ----------------------------------------------------------------------------- racks


@pytest.mark.parametrize(
    ("game", "count", "fixed"),
    [
        ("8ball", 15, {"ball_8": (2, 0.0)}),
        ("9ball", 9, {"ball_1": (0, 0.0), "ball_9": (2, 0.0)}),
        ("10ball", 10, {"ball_1": (0, 0.0), "ball_10": (2, 0.0)}),
        ("14.1", 15, {"ball_1": (4, -2.0), "ball_5": (4, 2.0)}),
        ("14.1-rerack", 14, {}),
    ],
)
def test_wpa_rack_geometry(game: str, count: int, fixed: dict[str, tuple[int, float]]) -> None:
    gap = 0.08
    labels, xy = pool_rack(game, POOL, np.random.default_rng(3), gap_mm=gap)
    assert len(labels) == len(set(labels)) == count == len(xy)
    row = (D + gap) * math.sqrt(3) / 2
    for label, (k, j) in fixed.items():
        want = FOOT + [k * row, j * (D + gap)]
        assert np.linalg.norm(xy[labels.index(label)] - want) < gap, label
    d = pairwise(xy)
    assert d.min() >= D  # frozen, never overlapping
    assert d.min(axis=1).max() <= D + 2 * gap  # every ball frozen to a neighbour
    assert (xy[:, 0] >= FOOT[0] - gap).all()  # rows grow toward the foot rail
    if game == "14.1-rerack":
        assert np.linalg.norm(xy - FOOT, axis=1).min() > D - gap  # the apex spot is empty
    else:
        assert np.linalg.norm(xy - FOOT, axis=1).min() < gap  # the apex is on the foot spot


def test_wpa_3_2_back_corners_one_solid_one_stripe() -> None:
    for seed in range(10):
        labels, xy = pool_rack("8ball", POOL, np.random.default_rng(seed))
        back = [labels[i] for i in np.flatnonzero(xy[:, 0] > xy[:, 0].max() - 1)]
        corners = sorted(back, key=lambda b: xy[labels.index(b), 1])[:: len(back) - 1]
        numbers = sorted(int(c.split("_")[1]) for c in corners)
        assert numbers[0] < 8 < numbers[1]


def test_rack_is_deterministic_and_varies_with_the_seed() -> None:
    a = pool_rack("9ball", POOL, np.random.default_rng(7))
    b = pool_rack("9ball", POOL, np.random.default_rng(7))
    c = pool_rack("9ball", POOL, np.random.default_rng(8))
    assert a[0] == b[0] and np.array_equal(a[1], b[1])
    assert a[0] != c[0] or not np.array_equal(a[1], c[1])


@pytest.mark.parametrize(
    ("game", "kwargs", "error"),
    [
        ("7ball", {}, "unknown rack"),
        ("9ball", {"gap_mm": -1.0}, "gap_mm"),
        ("14.1-rerack", {"balls": ["ball_1"]}, "14 balls"),
        ("9ball", {"balls": ["ball_1"]}, "only used"),
    ],
)
def test_pool_rack_rejects(game: str, kwargs: dict, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        pool_rack(game, POOL, np.random.default_rng(0), **kwargs)


def test_cue_ball_in_kitchen_is_behind_the_string_and_free() -> None:
    _, rack = pool_rack("9ball", POOL, np.random.default_rng(0))
    rng = np.random.default_rng(1)
    for _ in range(50):
        x, y = cue_ball_in_kitchen(POOL, rng, occupied_xy_mm=rack)
        assert -HX + R <= x < HEAD_X and abs(y) <= HY - R


@pytest.mark.parametrize("doubles", [False, True])
def test_novuss_start_rows(doubles: bool) -> None:
    labels, xy = novuss_start(NOVUSS, doubles)
    r = NOVUSS.object_for("red_pawn").radius_mm
    h = NOVUSS.half_wh_mm[0]
    assert len(labels) == (32 if doubles else 16)
    assert pairwise(xy).min() >= 2 * r
    rails = {"b": (1, 1), "a": (1, -1), "right": (0, 1), "left": (0, -1)}
    expect = (
        {"b": "red_pawn", "a": "red_pawn", "right": "black_pawn", "left": "black_pawn"}
        if doubles
        else {"b": "red_pawn", "a": "black_pawn"}
    )
    for rail, colour in expect.items():
        axis, sign = rails[rail]
        row = np.flatnonzero(np.isclose(xy[:, axis], sign * (h - r)))  # touching the rail
        assert len(row) == 8 and {labels[i] for i in row} == {colour}, rail
        along = np.sort(xy[row, 1 - axis])
        assert (along < 0).sum() == 4 and (along > 0).sum() == 4  # 4 + 4 about the middle
        assert np.allclose(np.diff(along), 2 * r + 0.1)  # touching each other


# ----------------------------------------------------------------------------- plans


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"kind": "lob"}, "unknown shot kind"),
        ({"kind": "pot", "intended_fault": "foul_miss"}, "foul's kind"),
        ({"kind": "foul_miss"}, "foul's kind"),
        ({"speed_mm_s": -1.0}, "speed"),
        ({"follow": 0.7}, "tip offsets"),
    ],
)
def test_shot_plan_rejects(kwargs: dict, error: str) -> None:
    base = {"kind": "pot", "striker": "cue_ball", "heading_rad": 0.0, "speed_mm_s": 1000.0}
    with pytest.raises(ValueError, match=error):
        ShotPlan(**(base | kwargs))


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"skill": 1.5}, "skill"),
        ({"fault_rate": -0.1}, "fault_rate"),
        ({"safety_rate": 2.0}, "safety_rate"),
        ({"faults": ("foul_bad",)}, "unknown faults"),
    ],
)
def test_bot_settings_reject(kwargs: dict, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        BotSettings(**kwargs)


def test_to_strike_carries_the_numbers() -> None:
    physics = pytest.importorskip("simulation.physics")
    plan = ShotPlan("pot", "cue_ball", 0.5, 2000.0, follow=0.3, english=-0.1)
    strike = plan.to_strike(4)
    assert isinstance(strike, physics.Strike)
    assert strike.body_id == 4 and strike.speed_mm_s == 2000.0


# ----------------------------------------------------------------------------- pool bot


def test_straight_in_shot_is_aimed_along_the_ghost_ball_line() -> None:
    pocket = POOL.pocket("foot_left")
    diag = np.array([1.0, 1.0]) / math.sqrt(2)
    mouth = (np.array(pocket.mouth_a_xy_mm) + np.array(pocket.mouth_b_xy_mm)) / 2
    b = mouth - 400 * diag
    c = b - 600 * diag
    labels, ids, xy = make_pool({"cue_ball": tuple(c), "ball_1": tuple(b)})
    bot = PoolBot(POOL, EXACT, np.random.default_rng(0))
    plan = bot.choose(labels, ids, xy, legal_targets=frozenset({"ball_1"}), ball_in_hand=None,
                      is_break=False, game="9ball")
    aim, _ = pocket_aim(b, pocket, R)
    ghost = b - D * (aim - b) / np.linalg.norm(aim - b)
    want = math.atan2(*(ghost - c)[::-1])
    assert plan.kind == "pot" and plan.pocket == "foot_left" and plan.target == "ball_1"
    assert plan.target_id == 2 and plan.place_xy_mm is None and plan.intended_fault is None
    assert abs(plan.heading_rad - want) < math.radians(0.5)
    assert abs(plan.heading_rad - math.pi / 4) < math.radians(0.5)
    assert plan.follow <= 0.0  # no follow on a straight-in shot: it would scratch
    assert 1000.0 <= plan.speed_mm_s <= 4500.0


def test_blocked_pot_is_not_chosen() -> None:
    pocket = POOL.pocket("foot_left")
    diag = np.array([1.0, 1.0]) / math.sqrt(2)
    mouth = (np.array(pocket.mouth_a_xy_mm) + np.array(pocket.mouth_b_xy_mm)) / 2
    b = mouth - 400 * diag
    c = b - 600 * diag
    for blocker in (b + 200 * diag, b - 300 * diag):  # on the object line, on the cue line
        labels, ids, xy = make_pool(
            {"cue_ball": tuple(c), "ball_1": tuple(b), "ball_2": tuple(blocker)})
        bot = PoolBot(POOL, EXACT, np.random.default_rng(0))
        plan = bot.choose(labels, ids, xy, legal_targets=frozenset({"ball_1"}),
                          ball_in_hand=None, is_break=False, game="9ball")
        assert plan.pocket != "foot_left" and plan.target == "ball_1"
        if plan.kind != "kick":
            hit, _ = first_contact(c, plan.heading_rad, xy, skip=0)
            assert labels[hit] == "ball_1"


def test_honest_pots_hit_the_target_first_and_send_it_at_the_pocket() -> None:
    rng = np.random.default_rng(11)
    bot = PoolBot(POOL, EXACT, np.random.default_rng(1))
    checked = 0
    for _ in range(60):
        labels, ids, xy = random_pool(rng, int(rng.integers(1, 15)))
        legal = frozenset(labels[1:4])
        plan = bot.choose(labels, ids, xy, legal_targets=legal, ball_in_hand=None,
                          is_break=False, game="9ball")
        if plan.kind != "pot":
            continue
        hit, s = first_contact(xy[0], plan.heading_rad, xy, skip=0)
        assert labels[hit] == plan.target and labels[hit] in legal
        contact = xy[0] + s * np.array([math.cos(plan.heading_rad), math.sin(plan.heading_rad)])
        out = (xy[hit] - contact) / D
        w = np.array(POOL.pocket(plan.pocket).centre_xy_mm) - xy[hit]
        assert abs(out[0] * w[1] - out[1] * w[0]) < POOL.pocket(plan.pocket).capture_radius_mm
        checked += 1
    assert checked > 20


def test_bank_kick_and_safety_when_no_pot_is_open() -> None:
    # ball_1 in the middle, a wall of balls on every direct line to a pocket
    balls = {"cue_ball": (-700.0, 0.0), "ball_1": (0.0, 0.0)}
    for k, pocket in enumerate(POOL.pockets):
        u = np.array(pocket.centre_xy_mm) / np.linalg.norm(pocket.centre_xy_mm)
        balls[f"ball_{k + 2}"] = tuple(150.0 * u)
    labels, ids, xy = make_pool(balls)
    kinds = set()
    for seed in range(30):
        bot = PoolBot(POOL, BotSettings(skill=1.0, fault_rate=0.0, safety_rate=0.0),
                      np.random.default_rng(seed))
        plan = bot.choose(labels, ids, xy, legal_targets=frozenset({"ball_1"}),
                          ball_in_hand=None, is_break=False, game="9ball")
        kinds.add(plan.kind)
        hit, _ = first_contact(xy[0], plan.heading_rad, xy, skip=0)
        if plan.kind in ("bank", "safety"):
            assert labels[hit] == "ball_1"
    assert kinds <= {"bank", "safety", "kick"} and "pot" not in kinds
    assert kinds & {"safety", "kick"}


def test_kick_off_a_cushion_when_every_direct_line_is_blocked() -> None:
    balls = {"cue_ball": (-700.0, 0.0), "ball_1": (0.0, 0.0)}
    for k, y in enumerate(np.arange(-330.0, 331.0, 60.0)):  # a wall between them
        balls[f"ball_{k + 2}"] = (-350.0, float(y))
    labels, ids, xy = make_pool(balls)
    bot = PoolBot(POOL, EXACT, np.random.default_rng(0))
    plan = bot.choose(labels, ids, xy, legal_targets=frozenset({"ball_1"}), ball_in_hand=None,
                      is_break=False, game="9ball")
    assert plan.kind == "kick" and plan.target == "ball_1"
    # the first leg runs to a long cushion and clears the wall
    d = np.array([math.cos(plan.heading_rad), math.sin(plan.heading_rad)])
    assert first_contact(xy[0], plan.heading_rad, xy, skip=0)[1] > (HY - R) / abs(d[1])


@pytest.mark.parametrize("ball_in_hand", ["anywhere", "behind_head_string"])
def test_ball_in_hand_placements_are_legal(ball_in_hand: str) -> None:
    rng = np.random.default_rng(5)
    bot = PoolBot(POOL, BotSettings(skill=0.7, fault_rate=0.0), np.random.default_rng(2))
    pots = 0
    for _ in range(40):
        labels, ids, xy = random_pool(rng, int(rng.integers(1, 15)))
        plan = bot.choose(labels, ids, xy, legal_targets=frozenset(labels[1:3]),
                          ball_in_hand=ball_in_hand, is_break=False, game="9ball")
        assert plan.place_xy_mm is not None
        p = np.array(plan.place_xy_mm)
        assert np.linalg.norm(xy[1:] - p, axis=1).min() >= D
        assert abs(p[0]) <= HX - R and abs(p[1]) <= HY - R
        if ball_in_hand == "behind_head_string":
            assert p[0] < HEAD_X
        pots += plan.kind == "pot"
    assert pots > 20  # in hand, the bot sets itself up for a pot


def test_break_from_the_kitchen_at_the_apex() -> None:
    for game in ("8ball", "9ball", "10ball"):
        labels, xy = pool_rack(game, POOL, np.random.default_rng(0))
        bot = PoolBot(POOL, EXACT, np.random.default_rng(0))
        plan = bot.choose(labels, list(range(len(labels))), xy, legal_targets=frozenset(labels),
                          ball_in_hand="behind_head_string", is_break=True, game=game)
        assert plan.kind == "break" and 8000.0 <= plan.speed_mm_s <= 11000.0
        assert plan.place_xy_mm is not None and plan.place_xy_mm[0] < HEAD_X
        apex = labels[int(np.argmin(np.linalg.norm(xy - FOOT, axis=1)))]
        assert plan.target == apex
        all_xy = np.vstack([xy, [plan.place_xy_mm]])
        hit, _ = first_contact(all_xy[-1], plan.heading_rad, all_xy, skip=len(xy))
        assert labels[hit] == apex


def test_14_1_opening_is_a_safe_break_on_a_back_corner_ball() -> None:
    labels, xy = pool_rack("14.1", POOL, np.random.default_rng(0))
    bot = PoolBot(POOL, EXACT, np.random.default_rng(0))
    plan = bot.choose(labels, list(range(len(labels))), xy, legal_targets=frozenset(labels),
                      ball_in_hand="behind_head_string", is_break=True, game="14.1")
    assert plan.kind == "break" and plan.speed_mm_s < 4000.0
    all_xy = np.vstack([xy, [plan.place_xy_mm]])
    hit, _ = first_contact(all_xy[-1], plan.heading_rad, all_xy, skip=len(xy))
    assert labels[hit] == plan.target and plan.target in ("ball_1", "ball_5")


@pytest.mark.parametrize("fault", [f for f in POOL_FAULTS if f != "foul_weak_break"])
def test_each_pool_fault_can_be_asked_for(fault: str) -> None:
    rng = np.random.default_rng(9)
    settings = BotSettings(skill=1.0, fault_rate=1.0, faults=(fault,))
    bot = PoolBot(POOL, settings, np.random.default_rng(0))
    seen = 0
    for _ in range(10):
        labels, ids, xy = random_pool(rng, 8)
        plan = bot.choose(labels, ids, xy, legal_targets=frozenset(labels[1:3]),
                          ball_in_hand="behind_head_string", is_break=False, game="8ball")
        seen += plan.intended_fault == fault
        if plan.intended_fault == "foul_wrong_ball":
            assert plan.target not in labels[1:3]
        if plan.intended_fault == "foul_kitchen":
            assert plan.place_xy_mm[0] >= HEAD_X
        if plan.intended_fault == "foul_miss":
            all_xy = np.vstack([xy[1:], [plan.place_xy_mm]])
            hit, s = first_contact(all_xy[-1], plan.heading_rad, all_xy, skip=len(all_xy) - 1)
            reach = plan.speed_mm_s**2 / (2 * 0.01 * 9810.0)
            assert hit < 0 or s > reach
    assert seen >= 5


@pytest.mark.parametrize("fault_rate", [0.0, 1.0])
def test_pool_fault_rate(fault_rate: float) -> None:
    rng = np.random.default_rng(4)
    bot = PoolBot(POOL, BotSettings(fault_rate=fault_rate), np.random.default_rng(0))
    faults = set()
    for k in range(80):
        labels, ids, xy = random_pool(rng, int(rng.integers(1, 15)))
        plan = bot.choose(labels, ids, xy, legal_targets=frozenset(labels[1:3]),
                          ball_in_hand=(None, "anywhere", "behind_head_string")[k % 3],
                          is_break=False, game="8ball")
        assert (plan.intended_fault is not None) == (fault_rate == 1.0)
        assert plan.kind == (plan.intended_fault or plan.kind)
        faults.add(plan.intended_fault)
    if fault_rate == 1.0:  # every pool call type shows up
        assert faults == set(POOL_FAULTS) - {"foul_weak_break"}


def test_break_faults() -> None:
    labels, xy = pool_rack("9ball", POOL, np.random.default_rng(0))
    bot = PoolBot(POOL, BotSettings(fault_rate=1.0), np.random.default_rng(0))
    seen = set()
    for _ in range(40):
        plan = bot.choose(labels, list(range(len(labels))), xy, legal_targets=frozenset(labels),
                          ball_in_hand="behind_head_string", is_break=True, game="9ball")
        seen.add(plan.intended_fault)
        if plan.intended_fault == "foul_kitchen":
            assert plan.place_xy_mm[0] >= HEAD_X
        if plan.intended_fault == "foul_weak_break":
            assert plan.speed_mm_s < 2500.0
    assert seen == {"foul_kitchen", "foul_weak_break", "foul_touched", "foul_off_table"}


def test_pool_bot_is_deterministic() -> None:
    def run(seed: int) -> list[ShotPlan]:
        rng = np.random.default_rng(21)
        bot = PoolBot(POOL, BotSettings(skill=0.6, fault_rate=0.3), np.random.default_rng(seed))
        out = []
        for k in range(15):
            labels, ids, xy = random_pool(rng, 9)
            out.append(bot.choose(labels, ids, xy, legal_targets=frozenset(labels[1:3]),
                                  ball_in_hand=(None, "anywhere")[k % 2], is_break=False,
                                  game="10ball"))
        return out

    assert run(1) == run(1)
    assert run(1) != run(2)


def test_pool_bot_rejects_bad_input() -> None:
    labels, ids, xy = make_pool({"ball_1": (0.0, 0.0)})
    bot = PoolBot(POOL, EXACT, np.random.default_rng(0))
    with pytest.raises(ValueError, match="not in hand"):
        bot.choose(labels, ids, xy, legal_targets=frozenset({"ball_1"}), ball_in_hand=None,
                   is_break=False, game="9ball")
    with pytest.raises(ValueError, match="no legal target"):
        bot.choose(labels, ids, xy, legal_targets=frozenset({"ball_2"}),
                   ball_in_hand="anywhere", is_break=False, game="9ball")
    with pytest.raises(ValueError, match="pool table"):
        PoolBot(NOVUSS, EXACT, np.random.default_rng(0))


# ----------------------------------------------------------------------------- novuss bot


@pytest.mark.parametrize(
    ("side", "xy", "ok"),
    [
        ("a", (0.0, -400.0), True),
        ("a", (364.4, -375.6), True),
        ("a", (0.0, -477.5), True),
        ("a", (0.0, -372.0), False),  # the zone line shows through the hole
        ("a", (366.0, -420.0), False),  # a side line shows
        ("a", (0.0, -480.0), False),  # under the rail
        ("b", (0.0, 400.0), True),
        ("b", (0.0, -400.0), False),
        ("left", (-400.0, 100.0), True),
        ("right", (400.0, -364.0), True),
        ("right", (400.0, -366.0), False),
    ],
)
def test_rules_1_4_puck_placement_test(side: str, xy: tuple[float, float], ok: bool) -> None:
    assert puck_placement_ok(NOVUSS, xy, side) is ok


@pytest.mark.parametrize("side", ["a", "b", "left", "right"])
def test_novuss_placements_pass_the_zone_test(side: str) -> None:
    rng = np.random.default_rng(["a", "b", "left", "right"].index(side))
    bot = NovussBot(NOVUSS, BotSettings(skill=0.8, fault_rate=0.0), np.random.default_rng(1))
    for _ in range(30):
        labels, ids, xy = random_novuss(rng, int(rng.integers(2, 33)))
        plan = bot.choose(labels, ids, xy, side=side, own_labels=frozenset({"red_pawn"}))
        assert plan.striker == "puck" and plan.place_xy_mm is not None
        assert puck_placement_ok(NOVUSS, plan.place_xy_mm, side)
        assert np.linalg.norm(xy - plan.place_xy_mm, axis=1).min() >= 37.5  # touches nothing
        assert 800.0 <= plan.speed_mm_s <= 5500.0  # 1-5 m/s give or take the noise


def test_rules_1_3_direct_shot_at_an_own_light_pawn_toward_a_pocket() -> None:
    labels = ["red_pawn", "black_pawn", "red_pawn"]
    xy = np.array([[300.0, 300.0], [-200.0, 0.0], [0.0, -420.0]])  # the last one is dark
    bot = NovussBot(NOVUSS, EXACT, np.random.default_rng(0))
    plan = bot.choose(labels, [1, 2, 3], xy, side="a", own_labels=frozenset({"red_pawn"}))
    assert plan.kind == "direct" and plan.target_id == 1 and plan.pocket == "b_right"
    place = np.array(plan.place_xy_mm)
    u = np.array([435.0, 435.0]) - xy[0]
    ghost = xy[0] - 37.5 * u / np.linalg.norm(u)
    assert abs(plan.heading_rad - math.atan2(*(ghost - place)[::-1])) < math.radians(0.5)


def test_rules_1_3_rebound_when_no_light_pawn() -> None:
    labels = ["red_pawn", "red_pawn", "black_pawn"]
    xy = np.array([[100.0, -430.0], [0.0, 30.0], [200.0, 200.0]])  # both reds dark for A
    bot = NovussBot(NOVUSS, EXACT, np.random.default_rng(0))
    plan = bot.choose(labels, [1, 2, 3], xy, side="a", own_labels=frozenset({"red_pawn"}))
    assert plan.kind == "rebound" and plan.target in ("red_pawn", None)
    assert math.sin(plan.heading_rad) > 0  # toward the opposite rail
    # the same position seen by the player at b: reds at the far side are light for him
    plan_b = bot.choose(labels, [1, 2, 3], xy, side="b", own_labels=frozenset({"red_pawn"}))
    assert plan_b.kind == "direct" and plan_b.target_id == 1


def test_rules_1_3_side_rail_shot_at_an_own_pawn_in_the_circle() -> None:
    # the only light red is caged by blacks; another red sits (dark) in the central circle
    lt = np.array([-250.0, 250.0])
    cage = [lt + 30.5 * np.array([math.cos(a), math.sin(a)])
            for a in np.linspace(0, 2 * math.pi, 6, endpoint=False)]
    xy = np.array([lt, [60.0, 0.0], *cage])
    labels = ["red_pawn", "red_pawn"] + ["black_pawn"] * 6
    bot = NovussBot(NOVUSS, EXACT, np.random.default_rng(0))
    plan = bot.choose(labels, list(range(1, 9)), xy, side="a",
                      own_labels=frozenset({"red_pawn"}))
    assert plan.kind == "side_rail" and plan.target_id == 2


@pytest.mark.parametrize("fault", NOVUSS_FAULTS)
def test_each_novuss_fault_can_be_asked_for(fault: str) -> None:
    labels, xy = novuss_start(NOVUSS, doubles=False)
    xy = xy.copy()
    xy[8] = (0.0, -430.0)  # a black pawn moved into A's own zone
    xy[0] = (40.0, -440.0)  # a red pawn in A's own zone: dark for A
    xy[1] = (120.0, -380.0)
    bot = NovussBot(NOVUSS, BotSettings(skill=1.0, fault_rate=1.0, faults=(fault,)),
                    np.random.default_rng(0))
    plan = bot.choose(labels, list(range(1, len(labels) + 1)), xy, side="a",
                      own_labels=frozenset({"red_pawn"}))
    assert plan.intended_fault == fault == plan.kind
    ok = puck_placement_ok(NOVUSS, plan.place_xy_mm, "a")
    gap = np.linalg.norm(xy - plan.place_xy_mm, axis=1).min()
    if fault == "foul_placement_line":
        assert not ok and gap >= 37.5
    elif fault == "foul_placement_touch":
        assert ok and abs(gap - 37.5) < 1e-6
    else:
        assert ok and gap >= 37.5
    if fault == "foul_opponent_pawn":
        assert plan.target == "black_pawn"
    if fault == "foul_dark_pawn":
        assert plan.target_id == 1
    if fault == "foul_puck_pocketed":
        assert plan.pocket is not None and plan.target is None
    if fault == "foul_too_hard":
        assert plan.speed_mm_s > 6000.0


@pytest.mark.parametrize("fault_rate", [0.0, 1.0])
def test_novuss_fault_rate(fault_rate: float) -> None:
    rng = np.random.default_rng(8)
    bot = NovussBot(NOVUSS, BotSettings(fault_rate=fault_rate), np.random.default_rng(0))
    faults = set()
    for k in range(60):
        labels, ids, xy = random_novuss(rng, 20)
        plan = bot.choose(labels, ids, xy, side=("a", "b", "left", "right")[k % 4],
                          own_labels=frozenset({"black_pawn"}))
        assert (plan.intended_fault is not None) == (fault_rate == 1.0)
        faults.add(plan.intended_fault)
    if fault_rate == 1.0:
        assert faults == set(NOVUSS_FAULTS)


def test_novuss_break_and_determinism() -> None:
    labels, xy = novuss_start(NOVUSS, doubles=True)
    ids = list(range(1, len(labels) + 1))

    def run(seed: int) -> list[ShotPlan]:
        bot = NovussBot(NOVUSS, BotSettings(skill=0.5, fault_rate=0.3), np.random.default_rng(seed))
        return [bot.choose(labels, ids, xy, side=side, own_labels=frozenset({colour}),
                           is_break=True)
                for side, colour in (("a", "red_pawn"), ("left", "black_pawn"))] * 3

    assert run(3) == run(3)
    assert run(3) != run(4)
    plan = NovussBot(NOVUSS, EXACT, np.random.default_rng(0)).choose(
        labels, ids, xy, side="a", own_labels=frozenset({"red_pawn"}), is_break=True)
    assert plan.kind == "break" and plan.speed_mm_s >= 3500.0
    assert xy[ids.index(plan.target_id), 1] > 0  # at A's far rail


def test_all_faults_are_named_once() -> None:
    assert len(set(ALL_FAULTS)) == len(ALL_FAULTS)
    assert set(ALL_FAULTS) == set(POOL_FAULTS) | set(NOVUSS_FAULTS)
    assert set(POOL_FAULTS) & set(NOVUSS_FAULTS) == {"foul_touch_moving"}
