"""Ray casting of balls and discs: exact silhouettes, parallax and shading for one object.

Pure functions over arrays: ``d`` holds unit ray directions ``(P, 3)`` from the camera
centre ``O`` (one per supersample of the object's pixel box); an object is given at ``S``
motion sub-samples, and every result is ``(S, P)``. Nothing here keeps state.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulation.render_textures import PlaneTexture


@dataclass(frozen=True, slots=True)
class Lighting:
    """Lamps as discs at ``lamp_xyz`` (L, 3) with radii (L,); Lambert + mirror highlights."""

    lamp_xyz: np.ndarray
    lamp_radius: np.ndarray
    ambient: float
    specular: float

    def directions(
        self, centre: np.ndarray, eye: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For a small object at ``centre`` seen from ``eye``: unit directions to the lamps
        (L, 3), the half vectors whose normals mirror each lamp into the eye (L, 3) and the
        angular half-size of each highlight (L,)."""
        to_l = self.lamp_xyz - centre
        dist = np.linalg.norm(to_l, axis=1)
        to_l = to_l / dist[:, None]
        to_e = (eye - centre) / np.linalg.norm(eye - centre)
        half = to_l + to_e
        half /= np.linalg.norm(half, axis=1, keepdims=True)
        return to_l, half, 0.5 * self.lamp_radius / dist

    def lambert(self, n: np.ndarray, to_l: np.ndarray) -> np.ndarray:
        """Brightness (K,) of normals ``n`` (K, 3) lit from directions ``to_l`` (L, 3)."""
        cos = np.clip(n @ to_l.T, 0, None).mean(axis=1)
        return self.ambient + (1 - self.ambient) * cos

    def sphere_highlight(self, n: np.ndarray, half: np.ndarray, size: np.ndarray) -> np.ndarray:
        """Highlights (K,) on a curved surface: normals near a lamp's half vector."""
        if self.specular <= 0:
            return np.zeros(len(n))
        dev2 = 2.0 * (1.0 - n @ half.T)  # squared angle to each half vector
        return self.specular * np.minimum(np.exp(-dev2 / size**2).sum(axis=1), 1.0)

    def mirror_highlight(self, p: np.ndarray, r: np.ndarray) -> np.ndarray:
        """Mirror reflection (K,) of the lamps along reflected rays ``r`` from points ``p``."""
        if self.specular <= 0 or len(p) == 0:
            return np.zeros(len(p))
        out = np.zeros(len(p))
        up = r[:, 2] > 1e-3
        for lamp, rad in zip(self.lamp_xyz, self.lamp_radius, strict=True):
            t = np.where(up, (lamp[2] - p[:, 2]) / np.where(up, r[:, 2], 1), 0)
            q = p[:, :2] + t[:, None] * r[:, :2] - lamp[:2]
            out += np.where(up, np.exp(-2.0 * (q**2).sum(axis=1) / rad**2), 0)
        return self.specular * np.minimum(out, 1.0)


@dataclass(frozen=True, slots=True)
class TableSolid:
    """What of the table can hide an object: the slate outside the pockets, the rail tops."""

    half_wh_mm: tuple[float, float]
    rail_width_mm: float
    rail_height_mm: float
    pocket_xy_mm: np.ndarray  # (K, 2)
    pocket_radius_mm: np.ndarray  # (K,)

    def in_pocket(self, q: np.ndarray) -> np.ndarray:
        d2 = ((q[:, None, :] - self.pocket_xy_mm[None]) ** 2).sum(axis=2)
        return (d2 < self.pocket_radius_mm[None] ** 2).any(axis=1)

    def in_rail_band(self, q: np.ndarray) -> np.ndarray:
        hx, hy = self.half_wh_mm
        w = self.rail_width_mm
        ax, ay = np.abs(q[:, 0]), np.abs(q[:, 1])
        return (ax <= hx + w) & (ay <= hy + w) & ((ax > hx) | (ay > hy))

    def hides(self, o: np.ndarray, d: np.ndarray, p: np.ndarray) -> np.ndarray:
        """True where the segment from ``o`` to hit points ``p`` passes through the table."""
        hidden = np.zeros(len(p), bool)
        below = p[:, 2] < 0
        if below.any():
            t0 = -o[2] / d[below, 2]
            q0 = o[:2] + t0[:, None] * d[below, :2]
            hidden[below] = ~self.in_pocket(q0)
        low = p[:, 2] < self.rail_height_mm
        if low.any():
            tr = (self.rail_height_mm - o[2]) / d[low, 2]
            qr = o[:2] + tr[:, None] * d[low, :2]
            hidden[low] |= self.in_rail_band(qr) & ~self.in_pocket(qr)
        return hidden


@dataclass(frozen=True, slots=True)
class CastResult:
    """The samples an object covers: sub-sample ``s_idx`` and ray ``p_idx`` of each (K,),
    their colour ``bgr`` (K, 3), whether the table leaves them visible ``visible`` (K,), and
    how many samples its silhouette covers with nothing of the table in front."""

    s_idx: np.ndarray
    p_idx: np.ndarray
    bgr: np.ndarray
    visible: np.ndarray
    silhouette_samples: int

    @staticmethod
    def empty() -> CastResult:
        z = np.zeros(0, np.intp)
        return CastResult(z, z, np.zeros((0, 3)), np.zeros(0, bool), 0)


def _depth_dim(z: np.ndarray) -> np.ndarray:
    """Objects sunk into a pocket get darker with depth."""
    return np.clip(1.0 + z / 160.0, 0.25, 1.0)


def cast_ball(
    o: np.ndarray,
    d: np.ndarray,
    centres: np.ndarray,
    radius: float,
    orient: np.ndarray,
    number: int,
    colour_bgr: np.ndarray,
    look: dict[str, float],
    lighting: Lighting,
    glyphs: np.ndarray,
    solid: TableSolid | None,
) -> CastResult:
    """A pool ball: sphere at ``centres`` (S, 3), body->world rotations ``orient`` (S, 3, 3)."""
    oc = o[None, :] - centres  # (S, 3)
    b = oc @ d.T  # (S, P)
    c = (oc**2).sum(axis=1) - radius**2
    disc = b * b - c[:, None]
    s_idx, p_idx = np.nonzero(disc > 0)
    if len(s_idx) == 0:
        return CastResult.empty()
    dk = d[p_idx]
    t = -b[s_idx, p_idx] - np.sqrt(disc[s_idx, p_idx])
    p = o + t[:, None] * dk
    n = (p - centres[s_idx]) / radius
    nb = np.empty_like(n)  # body-frame normal
    for s in range(len(centres)):
        m = s_idx == s
        nb[m] = n[m] @ orient[s]

    white = np.array([236.0, 240.0, 240.0])
    col = np.empty((len(n), 3))
    col[:] = colour_bgr
    if number == 0:
        if look.get("dots", 0.0) > 0:
            dot = np.abs(nb).max(axis=1) > np.cos(0.11)
            col[dot] = (40.0, 40.0, 200.0)
    else:
        if number >= 9:
            col[np.abs(nb[:, 2]) >= look["stripe"]] = white
        ang = look["circle"]
        circ = np.nonzero(np.abs(nb[:, 0]) > np.cos(ang))[0]
        col[circ] = white
        if len(circ):
            sgn = np.sign(nb[circ, 0])
            g = glyphs.shape[1]
            k = 0.5 * g / np.sin(ang) * 0.8
            u = np.clip((nb[circ, 1] * sgn * k + 0.5 * g).astype(int), 0, g - 1)
            v = np.clip((-nb[circ, 2] * k + 0.5 * g).astype(int), 0, g - 1)
            col[circ[glyphs[number, v, u]]] = (35.0, 35.0, 35.0)

    to_l, half, size = lighting.directions(centres[len(centres) // 2], o)
    shade = lighting.lambert(n, to_l)
    spec = lighting.sphere_highlight(n, half, size)
    out = col * shade[:, None] + (255.0 * spec)[:, None]
    vis = np.ones(len(n), bool)
    if solid is not None:
        vis = ~solid.hides(o, dk, p)
        out *= _depth_dim(p[:, 2])[:, None]
    return CastResult(s_idx, p_idx, out, vis, len(s_idx))


def cast_disc(
    o: np.ndarray,
    d: np.ndarray,
    bases: np.ndarray,
    radius: float,
    height: float,
    hole_radius: float,
    colour_bgr: np.ndarray,
    bare_wood: bool,
    yaw: float,
    lighting: Lighting,
    board: PlaneTexture,
    solid: TableSolid | None,
) -> CastResult:
    """A flat disc with a central hole: base centres ``bases`` (S, 3), axis vertical."""
    oz = o[2]
    dz = d[:, 2][None, :]  # (1, P)
    z_top = bases[:, 2:3] + height  # (S, 1)
    t_top = (z_top - oz) / dz  # (S, P)
    rel_o = o[None, :2] - bases[:, :2]  # (S, 2)
    qx = rel_o[:, 0:1] + t_top * d[None, :, 0]
    qy = rel_o[:, 1:2] + t_top * d[None, :, 1]
    rho2 = qx * qx + qy * qy
    in_hole = rho2 <= hole_radius**2
    top = (rho2 <= radius**2) & ~in_hole

    a = np.maximum((d[:, :2] ** 2).sum(axis=1), 1e-12)[None, :]  # (1, P)
    bq = 2 * (rel_o @ d[:, :2].T)  # (S, P)
    c_out = (rel_o**2).sum(axis=1)[:, None] - radius**2
    disc = bq * bq - 4 * a * c_out
    t_side = (-bq - np.sqrt(np.maximum(disc, 0))) / (2 * a)
    z_side = oz + t_side * dz
    side = ~top & ~in_hole & (disc > 0) & (z_side >= bases[:, 2:3]) & (z_side <= z_top)

    c_in = (rel_o**2).sum(axis=1)[:, None] - hole_radius**2
    disc_in = bq * bq - 4 * a * c_in
    t_exit = (-bq + np.sqrt(np.maximum(disc_in, 0))) / (2 * a)
    wall = in_hole & (oz + t_exit * dz > bases[:, 2:3])
    through = in_hole & ~wall

    base = np.asarray(colour_bgr, float)
    to_l, _, _ = lighting.directions(bases[len(bases) // 2] + [0, 0, height], o)
    pieces: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []

    si, pi = np.nonzero(top)
    if len(si):
        p = o + t_top[si, pi][:, None] * d[pi]
        lx, ly = qx[si, pi], qy[si, pi]
        col = np.empty((len(si), 3))
        col[:] = base
        rr = np.sqrt(rho2[si, pi]) / radius
        if bare_wood:
            along = lx * np.cos(yaw) + ly * np.sin(yaw)
            grain = 1 + 0.07 * np.sin(2 * np.pi * along / 3.2) + 0.04 * np.sin(along / 7.0)
            col *= grain[:, None]
        col *= np.where(rr > 0.86, 0.82, 1.0)[:, None]  # bevelled rim
        shade = lighting.lambert(np.array([[0.0, 0.0, 1.0]]), to_l)[0]
        refl = d[pi] * np.array([1.0, 1.0, -1.0])
        spec = lighting.mirror_highlight(p, refl) * (0.35 if bare_wood else 1.0)
        pieces.append((si, pi, p, col * shade + (255.0 * spec)[:, None]))

    si, pi = np.nonzero(side)
    if len(si):
        p = o + t_side[si, pi][:, None] * d[pi]
        n = np.zeros((len(si), 3))
        n[:, :2] = (p[:, :2] - bases[si, :2]) / radius
        shade = 0.55 * lighting.lambert(n, to_l) + 0.1
        pieces.append((si, pi, p, base * shade[:, None]))

    si, pi = np.nonzero(wall)
    if len(si):
        p = o + t_exit[si, pi][:, None] * d[pi]
        pieces.append((si, pi, p, np.broadcast_to(base * 0.3, (len(si), 3))))

    si, pi = np.nonzero(through)
    if len(si):
        below = np.minimum(bases[si, 2], 0.0)
        t0 = (below - oz) / d[pi, 2]
        p = o + t0[:, None] * d[pi]
        col = board.sample(p[:, 0], p[:, 1]).astype(float)
        col *= np.where(below < 0, 0.1, 1.0)[:, None]
        pieces.append((si, pi, p, col))

    if not pieces:
        return CastResult.empty()
    s_idx = np.concatenate([q[0] for q in pieces])
    p_idx = np.concatenate([q[1] for q in pieces])
    pts = np.concatenate([q[2] for q in pieces])
    bgr = np.concatenate([q[3] for q in pieces])
    vis = np.ones(len(s_idx), bool)
    if solid is not None:
        vis = ~solid.hides(o, d[p_idx], pts)
        bgr = bgr * _depth_dim(pts[:, 2])[:, None]
    return CastResult(s_idx, p_idx, bgr, vis, len(s_idx))
