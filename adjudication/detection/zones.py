"""Novuss zone membership by the rule's own test (RULES.md §1.3).

A pawn (or the puck) counts as inside a zone (an edge zone behind its line, or the central
circle) when the zone's line does **not** show through its hole: its centre lies past the
line's far edge by more than the hole radius. Positions are uncertain, so the test is
given as a probability: with the centre ``c`` known to a one-sigma ``sigma_mm``,
``P(inside) = Phi((beyond(c) - clear) / sigma)`` where ``beyond`` is how far past the line's
centre the object lies (toward the rail, or toward the circle's centre) and ``clear`` is the
line's half width plus the hole radius.
"""

from __future__ import annotations

import math

import numpy as np

from calibration.tables import Family, Line, TableSpec

#: The zones of a Novuss board, one per line of the spec.
NOVUSS_ZONES = ("zone_a", "zone_b", "zone_left", "zone_right", "circle")


def _phi(z: np.ndarray) -> np.ndarray:
    """Standard normal CDF, vectorised (no scipy at import)."""
    erf = np.vectorize(math.erf, otypes=[float])
    out: np.ndarray = 0.5 * (1.0 + erf(np.asarray(z, dtype=float) / math.sqrt(2.0)))
    return out


def signed_depth_mm(line: Line, xy_mm: np.ndarray) -> np.ndarray:
    """How far each point lies past ``line`` into its zone (negative: outside).

    Straight lines: the zone is the side away from the table centre. The circle: inside.
    """
    p = np.asarray(xy_mm, dtype=float).reshape(-1, 2)
    a = np.asarray(line.a_xy_mm, dtype=float)
    if line.is_circle:
        inside: np.ndarray = line.radius_mm - np.linalg.norm(p - a, axis=1)
        return inside
    b = np.asarray(line.b_xy_mm, dtype=float)
    n = np.array([-(b - a)[1], (b - a)[0]]) / float(np.linalg.norm(b - a))
    if (-a) @ n > 0:  # the centre is on the + side: the zone is on the - side
        n = -n
    depth: np.ndarray = (p - a) @ n
    return depth


def zone_membership(
    xy_mm: np.ndarray,
    sigma_mm: np.ndarray | float,
    spec: TableSpec,
    hole_radius_mm: np.ndarray | float | None = None,
    zones: tuple[str, ...] = NOVUSS_ZONES,
) -> tuple[np.ndarray, np.ndarray]:
    """Which zones each object is in by the hole test, and how sure that is.

    ``xy_mm`` (N, 2) centres, ``sigma_mm`` (N,) or scalar one-sigma errors,
    ``hole_radius_mm`` (N,) or scalar (default: the pawn's hole). Returns
    ``membership`` (N, Z) bool and ``probability`` (N, Z) of being inside, for the zones
    ``zones`` (columns in that order). ``ValueError`` for a table without those lines.
    """
    if spec.family is not Family.NOVUSS:
        raise ValueError(f"zone membership is a Novuss test; table {spec.name!r} is pool")
    p = np.asarray(xy_mm, dtype=float).reshape(-1, 2)
    n = len(p)
    sigma = np.broadcast_to(np.asarray(sigma_mm, dtype=float), (n,))
    sigma = np.maximum(sigma, 1e-6)
    hole = spec.objects["pawn"].hole_radius_mm if hole_radius_mm is None else hole_radius_mm
    hole_r = np.broadcast_to(np.asarray(hole, dtype=float), (n,))
    prob = np.zeros((n, len(zones)))
    for k, name in enumerate(zones):
        line = spec.line(name)
        clear = line.width_mm / 2 + hole_r
        prob[:, k] = _phi((signed_depth_mm(line, p) - clear) / sigma)
    return prob > 0.5, prob
