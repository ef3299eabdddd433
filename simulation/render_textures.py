"""Top-down textures of one clip: the table (surface, pockets, rails) and the floor around it.

Both are drawn once per clip in the table frame. A :class:`PlaneTexture` maps table
millimetres to texel coordinates, so the renderer samples the same picture at z = 0 (the
surface), at the rail-top height (the rails) or through a pawn's hole.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.tables import Family, TableSpec
from simulation.appearance import Appearance

#: Below the playing surface, where the arena floor is (a table is ~ 780 mm high).
FLOOR_DEPTH_MM = 780.0
#: The cloth-covered cushion rubber seen from above, from the nose outward (pool).
CUSHION_TOP_MM = 45.0
_SHIFT = 4  # sub-pixel bits for cv2 drawing
_ONE = 1 << _SHIFT


@dataclass(frozen=True, slots=True)
class PlaneTexture:
    """An image of a horizontal plane: texel (col, row) centre = ``origin + (i + 0.5) / ppm``."""

    image: np.ndarray  # (H, W, 3) uint8
    origin_xy_mm: tuple[float, float]  # table-frame point at the texture's top-left corner
    ppm_xy: tuple[float, float]  # texels per millimetre along x and y

    def maps(self, x_mm: np.ndarray, y_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """cv2.remap maps (float32) that sample this texture at table points."""
        u = (x_mm - self.origin_xy_mm[0]) * self.ppm_xy[0] - 0.5
        v = (y_mm - self.origin_xy_mm[1]) * self.ppm_xy[1] - 0.5
        return u.astype(np.float32), v.astype(np.float32)

    def sample(self, x_mm: np.ndarray, y_mm: np.ndarray) -> np.ndarray:
        """Bilinear colours (..., 3) float32 at table points of any shape."""
        shape = np.shape(x_mm)
        u, v = self.maps(np.asarray(x_mm).reshape(1, -1), np.asarray(y_mm).reshape(1, -1))
        if u.size == 0:
            return np.zeros((*shape, 3), np.float32)
        out = cv2.remap(self.image, u, v, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return out.reshape(*shape, 3).astype(np.float32)

    def scaled_to(self, ppm: float) -> PlaneTexture:
        """This texture area-averaged down to about ``ppm`` texels per mm (never up)."""
        if ppm >= min(self.ppm_xy) * 0.9:
            return self
        h, w = self.image.shape[:2]
        k = ppm / self.ppm_xy[0]
        nw, nh = max(8, round(w * k)), max(8, round(h * k))
        img = cv2.resize(self.image, (nw, nh), interpolation=cv2.INTER_AREA)
        return PlaneTexture(
            img, self.origin_xy_mm, (self.ppm_xy[0] * nw / w, self.ppm_xy[1] * nh / h)
        )


def _blurred_noise(rng: np.random.Generator, shape: tuple[int, int], sigma: float) -> np.ndarray:
    """Zero-mean, unit-deviation noise smoothed over ``sigma`` texels."""
    small = max(1.0, sigma / 2)
    sh = (max(2, int(shape[0] / small)), max(2, int(shape[1] / small)))
    n = rng.standard_normal(sh).astype(np.float32)
    n = cv2.GaussianBlur(n, (0, 0), 2.0)
    n = cv2.resize(n, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)
    return (n - n.mean()) / (n.std() + 1e-6)


class _Canvas:
    """A float BGR canvas addressed in table millimetres."""

    def __init__(self, origin: tuple[float, float], size_mm: tuple[float, float], ppm: float):
        self.origin = origin
        self.ppm = ppm
        self.w = int(math.ceil(size_mm[0] * ppm))
        self.h = int(math.ceil(size_mm[1] * ppm))
        self.img = np.zeros((self.h, self.w, 3), np.float32)
        xs = (np.arange(self.w, dtype=np.float32) + 0.5) / ppm + origin[0]
        ys = (np.arange(self.h, dtype=np.float32) + 0.5) / ppm + origin[1]
        self.x, self.y = np.meshgrid(xs, ys)

    def px(self, xy_mm: np.ndarray) -> np.ndarray:
        """Fixed-point pixel coordinates for cv2 drawing with ``shift=_SHIFT``."""
        p = (np.asarray(xy_mm, float) - self.origin) * self.ppm - 0.5
        return np.round(p * _ONE).astype(np.int32)

    def mask(self) -> np.ndarray:
        return np.zeros((self.h, self.w), np.uint8)

    def paint(self, mask: np.ndarray, bgr: tuple[float, ...], alpha: float = 1.0) -> None:
        x, y, w, h = cv2.boundingRect(mask)
        if w == 0 or h == 0:
            return
        a = (mask[y : y + h, x : x + w].astype(np.float32) * (alpha / 255.0))[..., None]
        roi = self.img[y : y + h, x : x + w]
        roi *= 1.0 - a
        roi += a * np.asarray(bgr, np.float32)

    def line_mask(self, a_xy, b_xy, width_mm: float) -> np.ndarray:  # type: ignore[no-untyped-def]
        m = self.mask()
        pa, pb = self.px(np.array(a_xy)), self.px(np.array(b_xy))
        th = max(1, round(width_mm * self.ppm))
        cv2.line(m, tuple(pa), tuple(pb), 255, th, cv2.LINE_AA, _SHIFT)
        return m

    def circle_mask(self, c_xy, r_mm: float, width_mm: float | None = None) -> np.ndarray:  # type: ignore[no-untyped-def]
        m = self.mask()
        th = -1 if width_mm is None else max(1, round(width_mm * self.ppm))
        cv2.circle(
            m,
            tuple(self.px(np.array(c_xy))),
            round(r_mm * self.ppm * _ONE),
            255,
            th,
            cv2.LINE_AA,
            _SHIFT,
        )
        return m


def table_texture(
    spec: TableSpec, app: Appearance, rng: np.random.Generator, ppm: float | None = None
) -> PlaneTexture:
    """Surface, printed lines, pockets and rail tops in one top-down picture."""
    novuss = spec.family is Family.NOVUSS
    ppm = ppm if ppm is not None else (2.5 if novuss else 1.2)
    hx, hy = spec.half_wh_mm
    rail = spec.rail_width_mm
    ex, ey = hx + rail + 30.0, hy + rail + 30.0
    cv = _Canvas((-ex, -ey), (2 * ex, 2 * ey), ppm)
    x, y = cv.x, cv.y
    cloth = np.asarray(app.cloth_bgr, np.float32)

    # --- surface
    if app.surface_texture_amp <= 0:
        tone = np.ones((cv.h, cv.w), np.float32)
    elif novuss:
        warp = _blurred_noise(rng, (cv.h, cv.w), 40 * ppm) * 6.0
        period = rng.uniform(4.0, 9.0)
        grain = np.sin(2 * np.pi * (y + warp) / period) + 0.5 * np.sin(
            2 * np.pi * (y + 1.7 * warp) / (period * 0.37)
        )
        tone = 1.0 + app.surface_texture_amp * (
            0.5 * grain + _blurred_noise(rng, (cv.h, cv.w), 60 * ppm)
        )
    else:
        fibre = _blurred_noise(rng, (cv.h, cv.w), 1.0)
        tone = 1.0 + app.surface_texture_amp * (
            0.7 * fibre + 0.35 * _blurred_noise(rng, (cv.h, cv.w), 80 * ppm)
        )
    cv.img[:] = cloth * tone[..., None]

    if not novuss and app.wear_amp > 0:  # worn, lighter cloth at the break area and spots
        for name in ("head_spot", "foot_spot"):
            sx, sy = spec.spots.get(name, (0.0, 0.0))
            blob = np.exp(-((x - sx) ** 2 + ((y - sy) * 1.6) ** 2) / (2 * 160.0**2))
            cv.img *= (1.0 + app.wear_amp * blob)[..., None]
        for _ in range(int(rng.integers(3, 12))):  # chalk marks
            cx, cy = rng.uniform(-hx, hx), rng.uniform(-hy, hy)
            m = cv.circle_mask((cx, cy), rng.uniform(4, 12))
            cv.paint(m, (200.0, 140.0, 60.0), app.wear_amp * 3)

    # --- printed lines and spots
    for line in spec.lines:
        if not novuss and line.name.startswith("rack") and not app.rack_outline:
            continue
        if app.line_alpha <= 0:
            break
        if line.is_circle:
            m = cv.circle_mask(line.a_xy_mm, line.radius_mm, line.width_mm)
        else:
            m = cv.line_mask(line.a_xy_mm, line.b_xy_mm, line.width_mm)
        cv.paint(m, app.line_bgr, app.line_alpha)
    if app.spots and not novuss:
        for sxy in spec.spots.values():
            cv.paint(cv.circle_mask(sxy, 7.0), (230.0, 230.0, 230.0), 0.85)

    # --- powder (Novuss): soft white streaks and patches
    if novuss and app.powder_density > 0:
        n = rng.poisson(app.powder_density * (2 * hx / 1000) * (2 * hy / 1000))
        pm = np.zeros((cv.h, cv.w), np.float32)
        for _ in range(n):
            c = rng.normal(0, hx * 0.45, size=2).clip(-hx, hx)
            length, width = rng.uniform(20, 160), rng.uniform(4, 30)
            ang = rng.uniform(0, 180)
            ctr = (float((c[0] + ex) * ppm), float((c[1] + ey) * ppm))
            cv2.ellipse(
                pm, (ctr, (length * ppm, width * ppm), ang), rng.uniform(0.3, 1.0), -1, cv2.LINE_AA
            )
        pm = cv2.GaussianBlur(pm, (0, 0), 3 * ppm)
        speck = np.clip(1.0 + 0.5 * _blurred_noise(rng, (cv.h, cv.w), 1.5), 0, 2)
        a = np.clip(pm * speck * app.powder_alpha, 0, 0.8)[..., None]
        cv.img = cv.img * (1 - a) + a * np.float32(245.0)

    inside = (np.abs(x) <= hx) & (np.abs(y) <= hy)

    # --- rails (and the cloth-covered cushion tops of a pool table)
    band = ~inside
    if app.realism <= 0:
        rail_tone = np.ones((cv.h, cv.w), np.float32)
    elif app.rail_style == "wood" or novuss:
        along = np.where(np.abs(x) > hx, y, x)
        across = np.where(np.abs(x) > hx, x, y)
        warp = _blurred_noise(rng, (cv.h, cv.w), 25 * ppm) * 4
        grain = np.sin(2 * np.pi * (across + warp + 0.02 * along) / 9.0)
        rail_tone = 1.0 + 0.08 * grain * app.realism
    else:
        rail_tone = 1.0 + 0.03 * _blurred_noise(rng, (cv.h, cv.w), 2.0) * app.realism
    rail_img = np.asarray(app.rail_bgr, np.float32) * np.asarray(rail_tone, np.float32)[..., None]
    cv.img[band] = rail_img[band]
    if not novuss:
        nose_dist = np.maximum(np.abs(x) - hx, np.abs(y) - hy)
        cushion = band & (nose_dist < CUSHION_TOP_MM)
        cv.img[cushion] = (
            cloth * 0.85 * (1 + 0.15 * (1 - nose_dist[cushion] / CUSHION_TOP_MM)[:, None])
        )
        if app.diamonds:
            for dxy in spec.diamonds_xy_mm:
                horizontal = abs(dxy[1]) > hy  # on a long rail: long axis across the rail
                w2, l2 = 6.0, 12.0
                pts = (
                    [(0, -l2), (w2, 0), (0, l2), (-w2, 0)]
                    if horizontal
                    else [(-l2, 0), (0, w2), (l2, 0), (0, -w2)]
                )
                poly = cv.px(np.array(pts) + np.array(dxy))
                m = cv.mask()
                cv2.fillConvexPoly(m, poly, 255, cv2.LINE_AA, _SHIFT)
                cv.paint(m, app.diamond_bgr)
    outer = (np.abs(x) <= hx + rail) & (np.abs(y) <= hy + rail)
    cv.img[~outer] = np.asarray(app.rail_bgr, np.float32) * 0.4

    # --- pockets: dark cups (pool) or holes with a cloth bag under them (Novuss)
    for p in spec.pockets:
        cx, cy = p.centre_xy_mm
        m = cv.circle_mask(p.centre_xy_mm, p.hole_radius_mm)
        bx, by, bw, bh = cv2.boundingRect(m)
        sl = (slice(by, by + bh), slice(bx, bx + bw))
        rho = np.sqrt((x[sl] - cx) ** 2 + (y[sl] - cy) ** 2) / p.hole_radius_mm
        col = np.asarray(app.pocket_bgr, np.float32)
        shade = 0.6 + 1.2 * np.clip(rho, 0, 1) ** 4
        a = (m[sl].astype(np.float32) / 255)[..., None]
        cv.img[sl] = cv.img[sl] * (1 - a) + a * (col * shade[..., None])

    # --- diffuse light pool from the lamps (view independent)
    if app.surface_light_falloff > 0:
        d2 = np.min([((x - lp.xy_mm[0]) ** 2 + (y - lp.xy_mm[1]) ** 2) for lp in app.lamps], axis=0)
        fall = 1.0 - app.surface_light_falloff * np.clip(d2 / (hx**2 + hy**2), 0, 1.5)
        cv.img *= fall[..., None]
    img = np.clip(cv.img + 0.5, 0, 255).astype(np.uint8)
    return PlaneTexture(img, cv.origin, (ppm, ppm))


def floor_texture(spec: TableSpec, app: Appearance, rng: np.random.Generator) -> PlaneTexture:
    """The arena floor under and around the table, with spectators and sponsor boards."""
    hx, hy = spec.half_wh_mm
    ext = 3500.0 if spec.family is Family.POOL else 2000.0
    ex, ey = hx + spec.rail_width_mm + ext, hy + spec.rail_width_mm + ext
    ppm = 0.3 if spec.family is Family.POOL else 0.5
    cv = _Canvas((-ex, -ey), (2 * ex, 2 * ey), ppm)
    base = np.asarray(app.floor_bgr, np.float32)
    cv.img[:] = base
    if app.realism > 0:
        cv.img *= (1.0 + 0.15 * app.realism * _blurred_noise(rng, (cv.h, cv.w), 200 * ppm))[
            ..., None
        ]
    edge = max(0.0, 1.0)
    table_r = math.hypot(hx, hy)
    for _ in range(app.clutter_count):  # spectators, chairs, bags: blobs away from the table
        ang = rng.uniform(0, 2 * np.pi)
        dist = rng.uniform(table_r + 500, table_r + ext * 0.9)
        c = (
            dist * math.cos(ang) * (hx + 600) / table_r,
            dist * math.sin(ang) * (hy + 600) / table_r,
        )
        col = tuple(float(v) for v in rng.uniform(20, 230, size=3))
        m = cv.mask()
        ctr = ((c[0] + ex) * ppm, (c[1] + ey) * ppm)
        axes = (rng.uniform(300, 600) * ppm, rng.uniform(200, 400) * ppm)
        cv2.ellipse(m, (ctr, axes, rng.uniform(0, 180)), 255, -1, cv2.LINE_AA)
        cv.paint(m, col, 0.9)
        skin = tuple(float(v) for v in rng.uniform(60, 200) * np.array([0.7, 0.85, 1.0]))
        cv.paint(cv.circle_mask(c, rng.uniform(90, 120)), skin, 0.95)
    if app.sponsor_boards:
        for side in (-1, 1):
            y0 = side * (hy + spec.rail_width_mm + rng.uniform(500, 900))
            x = -hx
            while x < hx:
                length = rng.uniform(600, 1200)
                col = tuple(float(v) for v in rng.uniform(30, 240, size=3))
                m = cv.mask()
                p0 = cv.px(np.array([x, y0 - 60]))
                p1 = cv.px(np.array([x + length, y0 + 60]))
                cv2.rectangle(m, tuple(p0), tuple(p1), 255, -1, cv2.LINE_AA, _SHIFT)
                cv.paint(m, col, 1.0)
                x += length + 40
    # arena light falls off away from the table
    r = np.sqrt((cv.x / (hx + 400)) ** 2 + (cv.y / (hy + 400)) ** 2)
    cv.img *= (0.35 + 0.65 * np.exp(-np.maximum(r - 1, 0) * 0.8 * edge))[..., None]
    img = np.clip(cv.img + 0.5, 0, 255).astype(np.uint8)
    return PlaneTexture(img, cv.origin, (ppm, ppm))


def digit_glyphs(size: int = 24) -> np.ndarray:
    """(16, size, size) bool masks of the numbers 0..15, centred (0 is blank)."""
    out = np.zeros((16, size, size), bool)
    for n in range(1, 16):
        img = np.zeros((size * 4, size * 4), np.uint8)
        text = str(n)
        scale = 2.6 if n < 10 else 1.9
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 8)
        org = ((size * 4 - tw) // 2, (size * 4 + th) // 2)
        cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, 255, 8, cv2.LINE_AA)
        out[n] = cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA) > 110
    return out
