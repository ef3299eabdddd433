"""Starting positions: pool racks, the cue ball in the kitchen, the Novuss start rows.

Pure geometry in the table frame of ``calibration.tables`` (mm). Every random choice (the
order of the free balls in a rack, the jitter, the cue-ball spot) is drawn from the
``numpy.random.Generator`` passed in, so a seed gives the same table every time.

Pool racks follow RULES.md §2.2: the apex ball on the foot spot, rows toward the foot rail
(+x) at a pitch of ``(D + gap)·√3/2``, balls ``gap_mm`` apart so they are frozen to the eye
but never overlap. Novuss start rows follow RULES.md §1.4.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from calibration.tables import Family, TableSpec

#: Game names as in ``adjudication.games.Game``, plus the 14-ball re-rack of 14.1.
RACK_GAMES = ("8ball", "9ball", "10ball", "14.1", "14.1-rerack")

SOLIDS = tuple(f"ball_{n}" for n in range(1, 8))
STRIPES = tuple(f"ball_{n}" for n in range(9, 16))

#: Start-row gap between neighbouring Novuss pawns (touching to the eye, never overlapping).
NOVUSS_PAWN_GAP_MM = 0.1
NOVUSS_PAWNS_PER_PLAYER = 8

#: Who stands at which rail and what colour he plays. Singles: A (red) at ``a``, B (black)
#: at ``b``. Doubles: pair 1 (red) at ``a`` and ``b``, pair 2 (black) at ``left``/``right``.
NOVUSS_SINGLES_SIDES = (("a", "red_pawn"), ("b", "black_pawn"))
NOVUSS_DOUBLES_SIDES = (
    ("a", "red_pawn"),
    ("b", "red_pawn"),
    ("left", "black_pawn"),
    ("right", "black_pawn"),
)

#: Unit vector from the table centre toward each Novuss rail.
_RAIL_OUT = {"a": (0.0, -1.0), "b": (0.0, 1.0), "left": (-1.0, 0.0), "right": (1.0, 0.0)}
_OPPOSITE = {"a": "b", "b": "a", "left": "right", "right": "left"}


def _triangle_slots(rows: Sequence[int]) -> list[tuple[int, float]]:
    """``(row, lateral index)`` of each slot; lateral ``j - (n-1)/2`` centres each row."""
    return [(k, j - (n - 1) / 2) for k, n in enumerate(rows) for j in range(n)]


def pool_rack(
    game: str,
    spec: TableSpec,
    rng: np.random.Generator,
    *,
    gap_mm: float = 0.08,
    balls: Sequence[str] | None = None,
) -> tuple[tuple[str, ...], np.ndarray]:
    """The rack of ``game`` (see ``RACK_GAMES``): labels and centres ``(N, 2)`` in mm.

    Row 0 (the apex) is on the foot spot and rows grow toward the foot rail. Neighbours sit
    ``gap_mm`` apart; each ball is then jittered by at most ``gap_mm / 4`` in x and y, so
    neighbours end up between ``D + gap/2`` and ``D + 3·gap/2`` apart (``D`` the diameter).

    * ``8ball``: triangle 1-2-3-4-5, the 8 in the middle of row 3, one solid and one stripe
      in the back corners (which side is random), the rest random.
    * ``9ball``: diamond 1-2-3-2-1, the 1 at the apex, the 9 in the centre.
    * ``10ball``: triangle 1-2-3-4, the 1 at the apex, the 10 in the middle of row 3.
    * ``14.1``: triangle of 15, the 1 in the right back corner (-y, seen from the head
      rail) and the 5 in the left one (+y) per EST §4, the rest random.
    * ``14.1-rerack``: the 14 balls ``balls`` (default: 14 of the 15 drawn at random) in the
      15-ball triangle with the apex spot empty, all random.
    """
    if spec.family is not Family.POOL:
        raise ValueError(f"pool_rack needs a pool table, got {spec.name!r}")
    if game not in RACK_GAMES:
        raise ValueError(f"unknown rack {game!r}; choose one of {', '.join(RACK_GAMES)}")
    if not 0.0 <= gap_mm <= 5.0:
        raise ValueError(f"gap_mm must be in [0, 5], got {gap_mm}")

    if game == "8ball":
        slots = _triangle_slots((1, 2, 3, 4, 5))
        corner_solid, corner_stripe = str(rng.choice(SOLIDS)), str(rng.choice(STRIPES))
        left_right = (corner_solid, corner_stripe)
        if rng.random() < 0.5:
            left_right = left_right[::-1]
        # slot 4 is the middle of row 3 (k = 2); 10 and 14 are the back corners (-y, +y)
        fixed = {4: "ball_8", 10: left_right[0], 14: left_right[1]}
        pool = [f"ball_{n}" for n in range(1, 16)]
    elif game == "9ball":
        slots = [(0, 0.0), (1, -0.5), (1, 0.5), (2, -1.0), (2, 0.0), (2, 1.0),
                 (3, -0.5), (3, 0.5), (4, 0.0)]
        fixed = {0: "ball_1", 4: "ball_9"}
        pool = [f"ball_{n}" for n in range(1, 10)]
    elif game == "10ball":
        slots = _triangle_slots((1, 2, 3, 4))
        fixed = {0: "ball_1", 4: "ball_10"}
        pool = [f"ball_{n}" for n in range(1, 11)]
    elif game == "14.1":
        slots = _triangle_slots((1, 2, 3, 4, 5))
        fixed = {10: "ball_1", 14: "ball_5"}
        pool = [f"ball_{n}" for n in range(1, 16)]
    else:  # 14.1-rerack
        slots = _triangle_slots((1, 2, 3, 4, 5))[1:]
        fixed = {}
        if balls is None:
            everyone = [f"ball_{n}" for n in range(1, 16)]
            left_out = int(rng.integers(15))
            pool = everyone[:left_out] + everyone[left_out + 1 :]
        else:
            pool = list(balls)
        if len(pool) != 14:
            raise ValueError(f"a 14.1 re-rack holds 14 balls, got {len(pool)}")
    if balls is not None and game != "14.1-rerack":
        raise ValueError("balls= is only used by the 14.1 re-rack")

    free = [b for b in pool if b not in fixed.values()]
    order = [free[i] for i in rng.permutation(len(free))]
    labels = []
    for i in range(len(slots)):
        labels.append(fixed[i] if i in fixed else order.pop())

    pitch = 2 * spec.object_for("ball_1").radius_mm + gap_mm
    row_pitch = pitch * math.sqrt(3) / 2
    fx, fy = spec.spots["foot_spot"]
    xy = np.array([[fx + k * row_pitch, fy + j * pitch] for k, j in slots], dtype=float)
    xy += rng.uniform(-gap_mm / 4, gap_mm / 4, size=xy.shape)
    return tuple(labels), xy


def cue_ball_in_kitchen(
    spec: TableSpec,
    rng: np.random.Generator,
    *,
    occupied_xy_mm: np.ndarray | None = None,
    margin_mm: float = 1.0,
) -> tuple[float, float]:
    """A random legal cue-ball spot behind the head string (centre x < head string).

    The spot keeps ``margin_mm`` from the cushions and the string and does not overlap any
    ball in ``occupied_xy_mm`` ``(N, 2)``. ``ValueError`` if 1000 draws find no room.
    """
    r = spec.object_for("cue_ball").radius_mm
    hx, hy = spec.half_wh_mm
    head_x = spec.spots["head_spot"][0]
    occ = np.zeros((0, 2)) if occupied_xy_mm is None else np.asarray(occupied_xy_mm, float)
    for _ in range(1000):
        p = np.array(
            [
                rng.uniform(-hx + r + margin_mm, head_x - margin_mm),
                rng.uniform(-hy + r + margin_mm, hy - r - margin_mm),
            ]
        )
        if len(occ) == 0 or np.min(np.linalg.norm(occ.reshape(-1, 2) - p, axis=1)) >= 2 * r + 1:
            return float(p[0]), float(p[1])
    raise ValueError("no free spot behind the head string")


def novuss_start(spec: TableSpec, doubles: bool) -> tuple[tuple[str, ...], np.ndarray]:
    """The Novuss start rows (RULES.md §1.4): labels and pawn centres ``(N, 2)`` in mm.

    Each participant's 8 pawns lie in one row against the rail opposite to where he stands,
    touching the rail, ``NOVUSS_PAWN_GAP_MM`` apart, 4 on each side of that rail's middle
    line. Singles: A (red, stands at ``a``) has his row at the ``b`` rail, B (black) at
    ``a``. Doubles: red rows at ``b`` and ``a`` (partners at ``a`` and ``b``), black rows at
    ``right`` and ``left``. Rows come in the order of ``NOVUSS_*_SIDES``.
    """
    if spec.family is not Family.NOVUSS:
        raise ValueError(f"novuss_start needs the Novuss table, got {spec.name!r}")
    r = spec.object_for("red_pawn").radius_mm
    half = spec.half_wh_mm[0]
    pitch = 2 * r + NOVUSS_PAWN_GAP_MM
    n_half = NOVUSS_PAWNS_PER_PLAYER // 2
    along = np.array([(k + 0.5) * pitch for k in range(n_half)])
    along = np.concatenate([-along[::-1], along])
    labels: list[str] = []
    rows: list[np.ndarray] = []
    for stands_at, colour in NOVUSS_DOUBLES_SIDES if doubles else NOVUSS_SINGLES_SIDES:
        out = np.array(_RAIL_OUT[_OPPOSITE[stands_at]])
        tangent = np.array([-out[1], out[0]])
        rows.append(out * (half - r) + along[:, None] * tangent)
        labels += [colour] * len(along)
    return tuple(labels), np.concatenate(rows)
