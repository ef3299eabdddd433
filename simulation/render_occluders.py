"""Players over the table (cue, hands, arms, a body) and broadcast graphics.

Occluders are built as flat 3D outlines in the table frame (capsules and ellipses at a
height), projected through the camera and filled with anti-aliased polygons; their shadows
are the same outlines cast from a lamp onto the table. Graphics live in screen space.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

_SHIFT = 3
_ONE = 1 << _SHIFT


@dataclass(frozen=True, slots=True)
class Part:
    """One filled outline ``(M, 3)`` in the table frame, drawn in order of ``z_order``."""

    outline_xyz: np.ndarray
    bgr: tuple[float, float, float]
    z_order: float
    casts_shadow: bool = True


@dataclass(frozen=True, slots=True)
class Palette:
    """A player's colours for one clip."""

    skin_bgr: tuple[float, float, float]
    sleeve_bgr: tuple[float, float, float]
    shirt_bgr: tuple[float, float, float]
    hair_bgr: tuple[float, float, float]


def random_palette(rng: np.random.Generator) -> Palette:
    tone = rng.uniform(0.35, 1.0)
    skin = (float(120 * tone + 20), float(150 * tone + 25), float(200 * tone + 30))
    dark = rng.random() < 0.7
    shirt = tuple(float(v) for v in (rng.uniform(10, 50, 3) if dark else rng.uniform(120, 235, 3)))
    sleeve = shirt if rng.random() < 0.7 else tuple(float(v) for v in rng.uniform(20, 200, 3))
    hair = tuple(float(v) for v in rng.uniform(10, 60) * np.array([0.8, 0.9, 1.0]))
    return Palette(skin, sleeve, shirt, hair)  # type: ignore[arg-type]


def capsule(a: np.ndarray, b: np.ndarray, ra: float, rb: float, n_cap: int = 7) -> np.ndarray:
    """Outline (M, 3) of a rod from ``a`` to ``b`` seen from above, round ends."""
    axis = b[:2] - a[:2]
    ln = float(np.hypot(*axis))
    u = axis / ln if ln > 1e-9 else np.array([1.0, 0.0])
    ang0 = math.atan2(u[1], u[0])
    pts = []
    for k in range(n_cap + 1):  # cap around b, from +perp to -perp through +u
        th = ang0 + math.pi / 2 - math.pi * k / n_cap
        pts.append([b[0] + rb * math.cos(th), b[1] + rb * math.sin(th), b[2]])
    for k in range(n_cap + 1):
        th = ang0 - math.pi / 2 - math.pi * k / n_cap
        pts.append([a[0] + ra * math.cos(th), a[1] + ra * math.sin(th), a[2]])
    return np.array(pts)


def ellipse(
    c: np.ndarray, heading: float, half_len: float, half_wid: float, n: int = 28
) -> np.ndarray:
    th = np.linspace(0, 2 * np.pi, n, endpoint=False)
    lx, ly = half_len * np.cos(th), half_wid * np.sin(th)
    ch, sh = math.cos(heading), math.sin(heading)
    return np.stack([c[0] + ch * lx - sh * ly, c[1] + sh * lx + ch * ly, np.full(n, c[2])], 1)


def _pt(xy: np.ndarray, dist: float, heading: float, z: float, side: float = 0.0) -> np.ndarray:
    ch, sh = math.cos(heading), math.sin(heading)
    return np.array([xy[0] + dist * ch - side * sh, xy[1] + dist * sh + side * ch, z])


def _hand(xy: np.ndarray, heading: float, z: float, s: float, pal: Palette) -> list[Part]:
    parts = [Part(ellipse(np.array([*xy, z]), heading, 52 * s, 43 * s), pal.skin_bgr, z)]
    for k, side in enumerate((-30, -10, 10, 30)):
        base = _pt(xy, 35 * s, heading, z + 2, side * s)
        tip = _pt(xy, (85 + 8 * (k in (1, 2))) * s, heading, z + 2, side * 1.25 * s)
        parts.append(Part(capsule(base, tip, 9 * s, 8 * s), pal.skin_bgr, z + 1))
    thumb0 = _pt(xy, 10 * s, heading, z + 3, 40 * s)
    thumb1 = _pt(xy, 55 * s, heading + 0.5, z + 3, 70 * s)
    parts.append(Part(capsule(thumb0, thumb1, 11 * s, 9 * s), pal.skin_bgr, z + 1))
    return parts


def _arm(
    hand_xy: np.ndarray, heading: float, z: float, s: float, length: float, pal: Palette
) -> list[Part]:
    wrist = _pt(hand_xy, -45 * s, heading, z + 10)
    elbow = _pt(hand_xy, -(45 + 300) * s, heading, z + 120 * s)
    shoulder = _pt(hand_xy, -(45 + length) * s, heading, z + 320 * s)
    return [
        Part(
            capsule(wrist, _pt(hand_xy, -120 * s, heading, z + 30), 30 * s, 36 * s),
            pal.skin_bgr,
            z + 5,
        ),
        Part(
            capsule(_pt(hand_xy, -110 * s, heading, z + 30), elbow, 40 * s, 48 * s),
            pal.sleeve_bgr,
            z + 20,
        ),
        Part(capsule(elbow, shoulder, 48 * s, 58 * s), pal.sleeve_bgr, z + 60),
    ]


def occluder_parts(
    kind: str, xy_mm: tuple[float, float], heading: float, z: float, scale: float, pal: Palette
) -> list[Part]:
    """The outlines that make up one occluder (see ``render.Occluder``)."""
    xy = np.asarray(xy_mm, float)
    s = scale
    if kind == "cue":
        return _cue(xy, heading, z, s, pal)
    if kind == "hand":
        return _hand(xy, heading, z, s, pal) + _arm(xy, heading, z, s, 450, pal)[:2]
    if kind == "arm":
        hand = _pt(xy, -50 * s, heading, z)
        return _hand(hand, heading, z, s, pal) + _arm(hand, heading, z, s, 650, pal)
    if kind == "body":
        head = np.array([*xy, z + 150 * s])
        torso = _pt(xy, -260 * s, heading, z)
        parts = [
            Part(ellipse(torso, heading, 200 * s, 260 * s), pal.shirt_bgr, z),
            Part(
                ellipse(_pt(xy, -120 * s, heading, z + 80 * s), heading, 90 * s, 220 * s),
                pal.shirt_bgr,
                z + 80 * s,
            ),
            Part(ellipse(head, heading, 115 * s, 95 * s), pal.hair_bgr, z + 150 * s),
            Part(
                ellipse(_pt(xy, 70 * s, heading, z + 150 * s), heading, 40 * s, 60 * s),
                pal.skin_bgr,
                z + 151 * s,
            ),
        ]
        for side in (-1, 1):
            sh = _pt(xy, -150 * s, heading, z + 60 * s, side * 230 * s)
            el = _pt(xy, 60 * s, heading, z - 60 * s, side * 300 * s)
            parts.append(Part(capsule(sh, el, 60 * s, 50 * s), pal.sleeve_bgr, z + 60 * s))
        return parts
    raise ValueError(f"unknown occluder kind {kind!r}; use cue, hand, arm or body")


def _cue(tip: np.ndarray, heading: float, z: float, s: float, pal: Palette) -> list[Part]:
    length, elev = 1450.0 * s, math.radians(7.0)
    segs = [  # (from mm, to mm, colour) measured from the tip
        (0, 12, (150.0, 110.0, 60.0)),  # chalked tip
        (12, 35, (235.0, 240.0, 240.0)),  # ferrule
        (35, 730, (150.0, 195.0, 225.0)),  # maple shaft
        (730, 750, (190.0, 190.0, 190.0)),  # joint
        (750, 1100, (35.0, 50.0, 80.0)),  # forearm
        (1100, 1350, (25.0, 25.0, 25.0)),  # wrap
        (1350, 1450, (45.0, 45.0, 55.0)),  # butt
    ]

    def at(mm: float) -> np.ndarray:
        k = mm * s
        return _pt(tip, -k * math.cos(elev), heading, z + k * math.sin(elev))

    def rad(mm: float) -> float:
        return (6.5 + (15.0 - 6.5) * mm / 1450.0) * s

    parts = []
    for a, b, col in segs:
        parts.append(Part(capsule(at(a), at(b), rad(a), rad(b), 3), col, z + 200 + a * 1e-3))
        hi = tuple(min(255.0, c * 1.35 + 20) for c in col)
        parts.append(
            Part(
                capsule(at(a), at(b), rad(a) * 0.3, rad(b) * 0.3, 3), hi, z + 201 + a * 1e-3, False
            )
        )
    bridge = _pt(tip, -230 * s, heading, 20.0)
    parts += _hand(bridge, heading, 20.0, s, pal)
    arm_heading = heading - 0.6
    parts += _arm(_pt(bridge, -20 * s, heading, 20.0), arm_heading, 20.0, s, 550, pal)
    del length
    return parts


def shadow_outline(outline: np.ndarray, lamp_xyz: np.ndarray) -> np.ndarray:
    """The outline cast from a point lamp onto the table plane z = 0, (M, 2)."""
    z = np.minimum(outline[:, 2], lamp_xyz[2] - 50)
    k = lamp_xyz[2] / (lamp_xyz[2] - z)
    return lamp_xyz[:2] + (outline[:, :2] - lamp_xyz[:2]) * k[:, None]


def _clip_to_rect(poly: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The part ``(M, 2)`` of polygon ``poly`` inside the rectangle ``lo``..``hi``
    (Sutherland-Hodgman, one side at a time): exact inside it."""
    for axis in (0, 1):
        for bound, sign in ((lo[axis], 1.0), (hi[axis], -1.0)):
            if len(poly) == 0:
                return poly
            nxt = np.roll(poly, -1, axis=0)
            d0 = sign * (poly[:, axis] - bound)
            d1 = sign * (nxt[:, axis] - bound)
            out = []
            for p, q, a, b in zip(poly, nxt, d0, d1, strict=True):
                if a >= 0.0:
                    out.append(p)
                if (a >= 0.0) != (b >= 0.0):
                    out.append(p + (q - p) * (a / (a - b)))
            poly = np.array(out).reshape(-1, 2)
    return poly


def fill_mask(poly_px: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """Anti-aliased coverage (h, w) float32 of a pixel polygon inside ``box`` (x0, y0, x1, y1).
    A polygon reaching far outside the box (a hand or cue near the camera's horizon, its
    shadow cast far) is clipped to a margin round it first: fixed-point pixel coordinates
    hold only about 2.7e8 px."""
    x0, y0, x1, y1 = box
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    rel = np.asarray(poly_px, float) - [x0, y0]
    margin = 2.0 * max(x1 - x0, y1 - y0) + 8.0
    if np.abs(rel).max(initial=0.0) > margin:
        rel = _clip_to_rect(rel, np.array([-margin, -margin]),
                            np.array([x1 - x0 + margin, y1 - y0 + margin]))
        if len(rel) < 3:
            return m.astype(np.float32)
    pts = np.round(rel * _ONE).astype(np.int32)
    cv2.fillPoly(m, [pts], 255, cv2.LINE_AA, _SHIFT)
    return m.astype(np.float32) / 255.0


def graphics_overlay(
    resolution_wh: tuple[int, int],
    score_bar: bool,
    logo: bool,
    corner: int,
    text: str,
    bar_bgr: tuple[float, float, float],
) -> list[tuple[tuple[int, int, int, int], np.ndarray, np.ndarray]]:
    """Screen-space graphics as (box, bgr (h, w, 3), alpha (h, w)) layers."""
    w, h = resolution_wh
    layers = []
    if score_bar:
        bw, bh = int(w * 0.6), max(12, int(h * 0.055))
        x0, y0 = (w - bw) // 2, int(h * 0.9)
        bgr = np.empty((bh, bw, 3), np.float32)
        bgr[:] = bar_bgr
        bgr[:, : bw // 6] = (30.0, 160.0, 230.0)
        txt = np.zeros((bh, bw), np.uint8)
        scale = bh / 40.0
        cv2.putText(
            txt,
            text,
            (bw // 6 + 10, int(bh * 0.72)),
            cv2.FONT_HERSHEY_SIMPLEX,
            scale,
            255,
            max(1, int(scale * 2)),
            cv2.LINE_AA,
        )
        a = txt.astype(np.float32)[..., None] / 255
        bgr = bgr * (1 - a) + 245 * a
        layers.append(((x0, y0, x0 + bw, y0 + bh), bgr, np.full((bh, bw), 0.9, np.float32)))
    if logo:
        size = max(16, int(h * 0.09))
        m = int(h * 0.03)
        xs = [m, w - m - size, w - m - size, m][corner % 4]
        ys = [m, m, h - m - size, h - m - size][corner % 4]
        alpha = np.zeros((size, size), np.uint8)
        cv2.circle(alpha, (size // 2, size // 2), size // 2 - 1, 255, -1, cv2.LINE_AA)
        bgr = np.empty((size, size, 3), np.float32)
        bgr[:] = (200.0, 120.0, 20.0)
        txt = np.zeros((size, size), np.uint8)
        cv2.putText(
            txt,
            "CR",
            (size // 6, int(size * 0.66)),
            cv2.FONT_HERSHEY_DUPLEX,
            size / 45.0,
            255,
            max(1, size // 20),
            cv2.LINE_AA,
        )
        a = txt.astype(np.float32)[..., None] / 255
        bgr = bgr * (1 - a) + 250 * a
        layers.append(((xs, ys, xs + size, ys + size), bgr, alpha.astype(np.float32) / 255 * 0.85))
    return layers
