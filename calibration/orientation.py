"""Which end of a symmetric table is which: the fit's frame turned to the table frame.

A pool table looks the same turned by 180 degrees and a Novuss board by any quarter turn,
so a fit from the table's own lines (``calibration.fit``) knows the table frame only up to
such a turn. The objects on the table settle it where they stand in a known set-up:

* **pool**: the rack. Its balls are frozen together in a triangle with the apex on the
  foot spot (+x), so a tight cluster there says where the foot is.
* **Novuss**: the start rows (RULES.md §1.4). Singles: the red pawns lie in a row along
  the ``b`` rail (+y), the black ones along ``a`` (-y). Doubles: red rows along ``a`` and
  ``b``, black rows along ``left`` and ``right``; that layout is itself symmetric under a
  half turn, so it tells the axes but not which red pair is A's.

``infer_orientation`` is a pure function of object positions in the fitted frame and
returns the turn (degrees, counter-clockwise seen from above) that best explains them, or
no turn where nothing decides; ``rotate`` re-expresses a calibration in the turned frame.
A turn by ``deg`` maps a fitted point ``p`` to ``Rz(deg) @ p`` in the new frame.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from calibration.model import Calibration
from calibration.tables import Cushion, Family, Line, TableSpec

if TYPE_CHECKING:
    from vision.detector import Detections

#: The turns that map each family's table onto itself.
ROTATIONS: dict[Family, tuple[int, ...]] = {
    Family.POOL: (0, 180),
    Family.NOVUSS: (0, 90, 180, 270),
}
_COS_SIN = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}


@dataclass(frozen=True, slots=True)
class OrientationSettings:
    """How sure the set-up must look before the fit's frame is turned.

    Pool: a ball counts toward a rack when its centre lies within ``rack_tolerance_mm`` of
    the rack triangle (the 15-ball triangle, apex on the spot) and another ball's centre is
    within a diameter plus ``touch_gap_mm``; ``min_rack_balls`` such balls at one end, and
    at most a third as many at the other, decide. Novuss: a pawn counts toward a start row
    when its centre lies within ``row_tolerance_mm`` of where a pawn against the rail's
    middle section would be; the best turn needs ``min_row_pawns`` more pawns in their
    rows than any other turn. Lower minimums decide more mid-game frames, and decide
    some of them wrongly (a few balls frozen near a spot, pawns left at a rail).
    """

    rack_tolerance_mm: float = 30.0
    touch_gap_mm: float = 8.0
    min_rack_balls: int = 5
    row_tolerance_mm: float = 12.0
    min_row_pawns: int = 6

    def __post_init__(self) -> None:
        if self.rack_tolerance_mm < 0 or self.touch_gap_mm < 0 or self.row_tolerance_mm < 0:
            raise ValueError("tolerances must be >= 0")
        if self.min_rack_balls < 1 or self.min_row_pawns < 1:
            raise ValueError("min_rack_balls and min_row_pawns must be >= 1")


@dataclass(frozen=True, slots=True)
class OrientationVerdict:
    """The turn to apply to the fitted frame (``None``: undecided, keep the fit), why, and
    the support (objects where the set-up puts them) of every candidate turn."""

    deg: int | None
    reason: str
    support: dict[int, int]


def _check_turn(spec: TableSpec, deg: int) -> int:
    turn = int(deg) % 360
    if int(deg) != deg or turn not in ROTATIONS[spec.family]:
        allowed = " or ".join(str(d) for d in ROTATIONS[spec.family])
        raise ValueError(f"a {spec.family.value} table turns by {allowed} degrees, not {deg}")
    return turn


def rotation_matrix(deg: int) -> np.ndarray:
    """``Rz(deg)`` (2x2, exact for quarter turns)."""
    c, s = _COS_SIN[int(deg) % 360]
    return np.array([[c, -s], [s, c]], dtype=float)


def rotate_points(xy_mm: np.ndarray, deg: int) -> np.ndarray:
    """Points ``(N, 2)`` of the fitted frame in the frame turned by ``deg``."""
    return np.asarray(xy_mm, dtype=float).reshape(-1, 2) @ rotation_matrix(deg).T


def _place(item: Cushion | Line, Rz: np.ndarray) -> tuple[frozenset[tuple[float, ...]], float]:
    """Where a cushion or line lies after the turn ``Rz``: its end points (a circle: its
    centre) rounded to a micrometre, and its radius."""
    radius = item.radius_mm if isinstance(item, Line) else 0.0
    ends = (item.a_xy_mm,) if radius > 0 else (item.a_xy_mm, item.b_xy_mm)
    return frozenset(tuple(np.round(Rz @ np.asarray(p, float), 3)) for p in ends), radius


def _renamed(spec: TableSpec, deg: int) -> dict[str, str]:
    """Each cushion and line name to the name of the one that lies where it turns to."""
    Rz, still = rotation_matrix(deg), np.eye(2)
    out: dict[str, str] = {}
    for items in (spec.cushions, spec.lines):
        here = {_place(item, still): item.name for item in items}
        for item in items:
            there = here.get(_place(item, Rz))
            if there is not None:
                out[item.name] = there
    return out


def _rename_feature(name: str, names: dict[str, str]) -> str:
    if name in names:
        return names[name]
    prefix, _, rest = name.partition("_")
    return f"{prefix}_{names[rest]}" if rest in names else name


def rotate(calib: Calibration, deg: int) -> Calibration:
    """The same camera in the table frame turned by ``deg`` (see the module docstring):
    every table point turns about the origin, pixels stay where they are, and per-feature
    residuals follow their features to their new names. ``ValueError`` for a turn the
    table does not allow (pool: 0 or 180; Novuss: quarter turns)."""
    turn = _check_turn(calib.spec, deg)
    if turn == 0:
        return calib
    Rz = np.eye(3)
    Rz[:2, :2] = rotation_matrix(turn)
    names = _renamed(calib.spec, turn)
    return Calibration(
        calib.spec, calib.K.copy(), calib.k1, calib.k2, calib.R @ Rz.T, calib.t.copy(),
        calib.resolution_wh, rms_mm=calib.rms_mm,
        residuals_mm={_rename_feature(k, names): v for k, v in calib.residuals_mm.items()},
        features=tuple(_rename_feature(f, names) for f in calib.features),
    )


def rotate_detections(dets: Detections, spec: TableSpec, deg: int) -> Detections:
    """Detections made in the fitted frame, in the frame turned by ``deg``: table points
    and canonical-view positions and boxes turn, camera pixels stay (the same objects,
    without running the detector again on the turned view)."""
    from vision.canonical import canonical_view

    turn = _check_turn(spec, deg)
    if turn == 0:
        return dets
    view = canonical_view(spec.surface_wh_mm, novuss=spec.family is Family.NOVUSS)

    def turn_canon(uv: np.ndarray) -> np.ndarray:
        return view.to_canon(rotate_points(view.to_mm(uv), turn))

    a = turn_canon(dets.xyxy_canon_px[:, :2])
    b = turn_canon(dets.xyxy_canon_px[:, 2:])
    return replace(dets, xy_mm=rotate_points(dets.xy_mm, turn),
                   xy_canon_px=turn_canon(dets.xy_canon_px),
                   xyxy_canon_px=np.column_stack([np.minimum(a, b), np.maximum(a, b)]))


def _rack_support(spec: TableSpec, xy_mm: np.ndarray, st: OrientationSettings) -> int:
    """Balls frozen to another ball inside the rack triangle at the foot (+x)."""
    if len(xy_mm) == 0:
        return 0
    d = 2 * spec.object_for("ball_1").radius_mm
    foot_x = spec.spots["foot_spot"][0]
    depth = 4 * d * math.sqrt(3) / 2  # apex to the centre of the fifth row
    u = xy_mm[:, 0] - foot_x
    tol = st.rack_tolerance_mm
    inside = (u > -tol) & (u < depth + tol) & (
        np.abs(xy_mm[:, 1]) < np.clip(u, 0, None) / math.sqrt(3) + tol)
    gaps = np.linalg.norm(xy_mm[:, None] - xy_mm[None], axis=2)
    np.fill_diagonal(gaps, np.inf)
    frozen = gaps.min(axis=1) < d + st.touch_gap_mm if len(xy_mm) > 1 else np.zeros(1, bool)
    return int(np.sum(inside & frozen))


def _pool_verdict(spec: TableSpec, xy_mm: np.ndarray, st: OrientationSettings
                  ) -> OrientationVerdict:
    support = {deg: _rack_support(spec, rotate_points(xy_mm, deg), st) for deg in (0, 180)}
    best = max(support, key=lambda k: support[k])
    other = support[180 - best]
    if support[best] < st.min_rack_balls or other > support[best] / 3:
        return OrientationVerdict(
            None, f"no rack at either end ({support[0]} and {support[180]} frozen balls at "
            f"the two spots, need {st.min_rack_balls}); kept the fit's frame", support)
    where = ("at the foot spot, as fitted" if best == 0
             else "at the fitted head spot, so that end is the foot")
    return OrientationVerdict(best, f"a rack of {support[best]} frozen balls {where}", support)


#: Start rows: (rail, colour) pairs of each Novuss set-up.
_NOVUSS_TEMPLATES = {
    "singles": {"b": "red_pawn", "a": "black_pawn"},
    "doubles": {"a": "red_pawn", "b": "red_pawn", "left": "black_pawn", "right": "black_pawn"},
}
_RAIL_OUT = {"a": (0.0, -1.0), "b": (0.0, 1.0), "left": (-1.0, 0.0), "right": (1.0, 0.0)}


def _rows(spec: TableSpec, xy_mm: np.ndarray, st: OrientationSettings) -> np.ndarray:
    """Per pawn, the rail whose start row it lies in (``""`` for none)."""
    r = spec.object_for("red_pawn").radius_mm
    half = spec.half_wh_mm[0]
    span = 4 * (2 * r) + st.row_tolerance_mm  # 4 pawns each side of the rail's middle
    rail = np.full(len(xy_mm), "", dtype=object)
    for name, out in _RAIL_OUT.items():
        o = np.asarray(out)
        across = xy_mm @ o
        along = xy_mm @ np.array([-o[1], o[0]])
        hit = (np.abs(across - (half - r)) < st.row_tolerance_mm) & (np.abs(along) < span)
        rail[hit] = name
    return rail


def _novuss_verdict(spec: TableSpec, xy_mm: np.ndarray, labels: np.ndarray,
                    st: OrientationSettings) -> OrientationVerdict:
    pawns = np.isin(labels, ("red_pawn", "black_pawn"))
    xy, colour = xy_mm[pawns], labels[pawns]
    scores: dict[tuple[str, int], int] = {}
    for name, template in _NOVUSS_TEMPLATES.items():
        for deg in ROTATIONS[Family.NOVUSS]:
            rail = _rows(spec, rotate_points(xy, deg), st)
            want = np.array([template.get(str(k), "") for k in rail], dtype=object)
            held = want != ""
            scores[name, deg] = int(np.sum(held & (want == colour)) -
                                    np.sum(held & (want != colour)))
    support = {deg: max(scores[n, deg] for n in _NOVUSS_TEMPLATES)
               for deg in ROTATIONS[Family.NOVUSS]}
    layout, best = max(scores, key=lambda k: scores[k])
    top = scores[layout, best]
    tied = sorted(d for d in ROTATIONS[Family.NOVUSS] if scores[layout, d] == top)
    rest = [v for d, v in support.items() if d not in tied]
    runner_up = max(rest, default=0)
    symmetric = len(tied) == 2 and tied[1] - tied[0] == 180
    if (top < st.min_row_pawns or top - runner_up < st.min_row_pawns
            or (len(tied) > 1 and not symmetric)):
        return OrientationVerdict(
            None, f"no start rows (at most {max(top, 0)} pawns in their rows, need "
            f"{st.min_row_pawns} more than any other turn); kept the fit's frame", support)
    if symmetric:  # the doubles start looks the same turned by half a turn
        chosen = tied[0]
        return OrientationVerdict(
            chosen, f"doubles start rows ({top} pawns): red along a and b, black along left "
            f"and right; {tied[0]} and {tied[1]} degrees look the same, took {chosen} "
            "(give --orientation to say which red pair is A's)", support)
    rows = "red along b, black along a" if layout == "singles" else "red along a and b"
    return OrientationVerdict(best, f"{layout} start rows ({top} pawns): {rows}", support)


def infer_orientation(
    calib: Calibration,
    xy_mm: np.ndarray,
    labels: Sequence[str] | np.ndarray,
    settings: OrientationSettings | None = None,
) -> OrientationVerdict:
    """The turn of the fitted frame that best explains the objects at ``xy_mm`` ``(N, 2)``
    (fitted frame, mm) with class ``labels`` ``(N,)`` as a start position; ``deg`` is None
    when they do not decide (mid-game, an empty table)."""
    st = settings or OrientationSettings()
    xy = np.asarray(xy_mm, dtype=float).reshape(-1, 2)
    lab = np.asarray(labels, dtype=object).reshape(-1)
    if len(lab) != len(xy):
        raise ValueError(f"{len(xy)} positions but {len(lab)} labels")
    spec = calib.spec
    known = np.isin(lab, spec.labels)
    if spec.family is Family.POOL:
        return _pool_verdict(spec, xy[known], st)
    return _novuss_verdict(spec, xy[known], lab[known], st)
