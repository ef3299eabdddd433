"""The renderer: a camera's view of the table, the objects on it and the players over it.

How a frame is made:

* **Table by inverse mapping.** Once per camera (again only when the camera changes, e.g. a
  bump), every pixel's ray (``CameraModel.rays``, lens included) is met with the planes
  z = 0 (surface), z = rail height (rail tops) and the arena floor; each pixel shows the
  first thing its ray hits (rail top, cushion face, pocket cup, surface, table apron,
  floor), sampled from top-down textures drawn once per clip. Lamp reflections in a glossy
  Novuss board are found the same way. The result is the frame's background.
* **Objects by ray casting** in a small pixel box around each object (3x3 supersamples),
  so parallax, perspective and the lens are exact; a ball is a sphere with a rotating
  pattern, a pawn or the puck a cylinder with a hole the board shows through. Each motion
  sub-sample is cast and the results averaged (motion blur); objects are drawn far to near.
* **Occluders and graphics** last; then the camera: light gradient and vignette, white
  balance, mains flicker, sensor noise. Compression is left to the video encoder.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.tables import Family, TableSpec
from simulation.appearance import Appearance
from simulation.camera import CameraModel
from simulation.render_objects import Lighting, TableSolid, cast_ball, cast_disc
from simulation.render_occluders import (
    Palette,
    fill_mask,
    graphics_overlay,
    occluder_parts,
    random_palette,
    shadow_outline,
)
from simulation.render_textures import (
    FLOOR_DEPTH_MM,
    PlaneTexture,
    digit_glyphs,
    floor_texture,
    table_texture,
)

OCCLUDER_KINDS = ("cue", "hand", "arm", "body")
#: Supersamples per pixel side inside object boxes (anti-aliasing).
SUPERSAMPLE = 3
#: Pixels of rays kept outside the frame, so visibility at the frame edge can be measured.
PAD_PX = 64


@dataclass(frozen=True, slots=True)
class Occluder:
    """Something over the table that hides what is under it (see the module docstring)."""

    kind: str  # "cue" | "hand" | "arm" | "body"
    xy_mm: tuple[float, float]  # cue: tip; hand: palm centre; arm/body: point nearest centre
    heading_rad: float  # cue: butt -> tip; others: from the player toward the table
    z_mm: float = 60.0
    scale: float = 1.0

    def __post_init__(self) -> None:
        if self.kind not in OCCLUDER_KINDS:
            raise ValueError(f"occluder kind must be one of {OCCLUDER_KINDS}, got {self.kind!r}")
        if self.scale <= 0:
            raise ValueError(f"occluder scale must be > 0, got {self.scale}")


@dataclass(frozen=True, slots=True)
class SceneFrame:
    """What is where during one frame's exposure; ``S`` sub-samples, the middle one 'now'."""

    t_s: float
    camera: CameraModel
    ids: np.ndarray  # (N,) int
    labels: tuple[str, ...]
    xy_mm: np.ndarray  # (S, N, 2)
    z_mm: np.ndarray  # (S, N) base elevation: 0 on the table, < 0 in a pocket, > 0 airborne
    visible: np.ndarray  # (N,) bool
    occluders: tuple[Occluder, ...] = ()

    def __post_init__(self) -> None:
        n = len(self.ids)
        if len(self.labels) != n:
            raise ValueError(f"{len(self.labels)} labels for {n} ids")
        if self.xy_mm.ndim != 3 or self.xy_mm.shape[1:] != (n, 2) or self.xy_mm.shape[0] < 1:
            raise ValueError(f"xy_mm must be (S, {n}, 2) with S >= 1, got {self.xy_mm.shape}")
        if self.z_mm.shape != self.xy_mm.shape[:2]:
            raise ValueError(f"z_mm must be {self.xy_mm.shape[:2]}, got {self.z_mm.shape}")
        if self.visible.shape != (n,):
            raise ValueError(f"visible must be ({n},), got {self.visible.shape}")

    @property
    def mid(self) -> int:
        return self.xy_mm.shape[0] // 2


@dataclass(frozen=True, slots=True)
class RenderedFrame:
    """The image and its ground truth, one row per object of the scene frame."""

    bgr: np.ndarray  # (H, W, 3) uint8
    xy_px: np.ndarray  # (N, 2) projection of object_reference_xyz at the middle sub-sample
    radius_px: np.ndarray  # (N,)
    visible_fraction: np.ndarray  # (N,) share of the object's pixels not hidden; 0 if removed


def object_reference_xyz(
    spec: TableSpec, labels: tuple[str, ...] | list[str], xy_mm: np.ndarray, z_mm: np.ndarray
) -> np.ndarray:
    """(N, 3) the point whose projection is the ground truth.

    A ball's centre (z = R + z_base), a disc's top-face centre (z = thickness + z_base).
    """
    xy = np.asarray(xy_mm, float).reshape(-1, 2)
    z = np.asarray(z_mm, float).reshape(-1)
    h = np.array([spec.object_for(lb).centre_height_mm for lb in labels], float)
    return np.column_stack([xy, z + h])


def _label_number(label: str) -> int:
    if label == "cue_ball":
        return 0
    if label.startswith("ball_"):
        return int(label[5:])
    raise ValueError(f"not a pool ball label: {label!r}")


def _rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    return cv2.Rodrigues((axis * angle).reshape(3, 1))[0]


def _random_rotation(rng: np.random.Generator) -> np.ndarray:
    q = rng.standard_normal(4)
    q /= np.linalg.norm(q)
    w, x, y, z = q
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def _table_point_px(cam: CameraModel, xy: np.ndarray) -> np.ndarray | None:
    """Pixel (x, y) of a table point and the local scale in px/mm."""
    p = cam.project(np.array([[xy[0], xy[1], 0.0], [xy[0] + 10, xy[1], 0.0]]))
    if not np.all(np.isfinite(p)):
        return None
    return np.array([*p[0], np.linalg.norm(p[1] - p[0]) / 10])


@dataclass(slots=True)
class _CameraView:
    """Everything precomputed for one camera pose: rays, the empty table, the light map."""

    key: bytes
    rays: np.ndarray  # (H + 2 PAD, W + 2 PAD, 3) float32 unit rays
    centre: np.ndarray  # (3,)
    plane0_xy: np.ndarray  # (H, W, 2) float32 where each pixel's ray meets z = 0
    surface: np.ndarray  # (H, W) bool: the playing surface is what the pixel shows
    background: np.ndarray  # (H, W, 3) float32, light map applied
    light: np.ndarray  # (H, W, 3) float32 camera-space gain (vignette, gradient, white balance)
    board: PlaneTexture  # the table texture at this camera's resolution (seen through holes)


class Renderer:
    """Renders scene frames of one clip; ``seed`` fixes every random choice of the look."""

    def __init__(self, spec: TableSpec, appearance: Appearance, *, seed: int):
        if appearance.family is not spec.family:
            raise ValueError(f"appearance is for {appearance.family}, table is {spec.family}")
        self.spec = spec
        self.appearance = appearance
        self.seed = seed
        tex_rng = np.random.default_rng([seed, 1])
        self._table = table_texture(spec, appearance, tex_rng)
        self._floor = floor_texture(spec, appearance, tex_rng)
        self._glyphs = digit_glyphs()
        a = appearance
        self._lighting = Lighting(
            lamp_xyz=np.array([[*lp.xy_mm, lp.z_mm] for lp in a.lamps], float),
            lamp_radius=np.array([lp.radius_mm for lp in a.lamps], float),
            ambient=a.ambient,
            specular=a.specular,
        )
        self._solid = TableSolid(
            half_wh_mm=spec.half_wh_mm,
            rail_width_mm=spec.rail_width_mm,
            rail_height_mm=spec.rail_height_mm,
            pocket_xy_mm=np.array([p.centre_xy_mm for p in spec.pockets], float),
            pocket_radius_mm=np.array([p.hole_radius_mm for p in spec.pockets], float),
        )
        self._view: _CameraView | None = None
        self._overlay: tuple[tuple[int, int], list] | None = None  # type: ignore[type-arg]
        self.reset()

    # ------------------------------------------------------------------ state
    def reset(self) -> None:
        """Forget per-clip state: ball orientations, flicker phase, the noise generator."""
        self._rng = np.random.default_rng([self.seed, 2])
        self._orient: dict[int, np.ndarray] = {}
        self._last_xy: dict[int, np.ndarray] = {}
        self._yaw: dict[int, float] = {}
        self._flicker_phase = float(self._rng.uniform(0, 2 * np.pi))
        self._wb_phase = self._rng.uniform(0, 2 * np.pi, 3)
        self._palette: Palette = random_palette(self._rng)
        self._noise: np.ndarray | None = None

    # ----------------------------------------------------------------- camera
    def _camera_view(self, cam: CameraModel) -> _CameraView:
        key = b"".join(
            np.ascontiguousarray(a, float).tobytes() for a in (cam.K, cam.dist, cam.R, cam.t)
        ) + bytes(str(cam.resolution_wh), "ascii")
        if self._view is not None and self._view.key == key:
            return self._view
        spec, app = self.spec, self.appearance
        w, h = cam.resolution_wh
        p = PAD_PX
        ys, xs = np.mgrid[-p : h + p, -p : w + p].astype(np.float64)
        rays = cam.rays(np.stack([xs.ravel(), ys.ravel()], 1)).reshape(h + 2 * p, w + 2 * p, 3)
        o = cam.centre_mm
        d = rays[p : p + h, p : p + w]

        def hit(z: float) -> tuple[np.ndarray, np.ndarray]:
            s = (z - o[2]) / d[..., 2]
            return o[0] + s * d[..., 0], o[1] + s * d[..., 1]

        hx, hy = spec.half_wh_mm
        rw = spec.rail_width_mm
        x0, y0 = hit(0.0)
        xr, yr = hit(spec.rail_height_mm)
        xf, yf = hit(-FLOOR_DEPTH_MM)

        def inside(x: np.ndarray, y: np.ndarray, mx: float, my: float) -> np.ndarray:
            return (np.abs(x) <= mx) & (np.abs(y) <= my)

        def pocket(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            m = np.zeros(x.shape, bool)
            for pk in spec.pockets:
                cx, cy = pk.centre_xy_mm
                m |= (x - cx) ** 2 + (y - cy) ** 2 < pk.hole_radius_mm**2
            return m

        in_outer_r = inside(xr, yr, hx + rw, hy + rw)
        in_surf_r = inside(xr, yr, hx, hy)
        pocket_r = pocket(xr, yr)
        rail_top = in_outer_r & ~in_surf_r & ~pocket_r
        outside = ~in_outer_r
        apron = outside & inside(xf, yf, hx + rw, hy + rw)
        floor = outside & ~apron
        rest = ~rail_top & ~outside
        pocket0 = pocket(x0, y0)
        surf0 = inside(x0, y0, hx, hy)
        cup = rest & (pocket0 | (pocket_r & ~surf0))
        surface = rest & ~cup & surf0
        face = rest & ~cup & ~surf0

        # Texture resolution: about 1.5 texels per output pixel at the table centre.
        c_px = cam.project(np.array([[0.0, 0.0, 0.0], [100.0, 0.0, 0.0]]))
        ppm_out = float(np.linalg.norm(c_px[1] - c_px[0])) / 100.0
        board = self._table.scaled_to(1.5 * ppm_out)
        floor_tex = self._floor

        def remap(tex: PlaneTexture, x: np.ndarray, y: np.ndarray) -> np.ndarray:
            mx, my = tex.maps(x, y)
            return cv2.remap(
                tex.image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101
            ).astype(np.float32)

        bg = remap(board, x0, y0)
        at_rail = remap(board, xr, yr)
        bg[rail_top] = at_rail[rail_top]
        cloth = np.asarray(app.cloth_bgr, np.float32)
        rail = np.asarray(app.rail_bgr, np.float32)
        if spec.family is Family.POOL:
            bg[face] = cloth * app.cushion_shade
        else:
            bg[face] = rail * 0.55
        bg[apron] = rail * 0.3
        if floor.any():
            bg[floor] = remap(floor_tex, xf, yf)[floor]
        dz = d[..., 2]
        if cup.any():  # the inner wall of the cup darkens further in
            bg[cup] *= 0.7

        if app.gloss > 0:  # lamp reflections in the lacquered board (mirror rays)
            g = np.zeros((h, w), np.float32)
            for lp in app.lamps:
                s = lp.z_mm / -dz
                qx = x0 + s * d[..., 0] - lp.xy_mm[0]
                qy = y0 + s * d[..., 1] - lp.xy_mm[1]
                r2 = (qx * qx + qy * qy) / (lp.radius_mm * 2.5) ** 2
                g += np.exp(-r2).astype(np.float32)
            g *= surface
            bg += (app.gloss * 140.0 * np.minimum(g, 1.0))[..., None]

        light = self._light_map(w, h)
        bg *= light
        view = _CameraView(
            key=key,
            rays=rays.astype(np.float32),
            centre=o,
            plane0_xy=np.stack([x0, y0], -1).astype(np.float32),
            surface=surface,
            background=bg.astype(np.float32),
            light=light,
            board=board,
        )
        self._view = view
        return view

    def _light_map(self, w: int, h: int) -> np.ndarray:
        app = self.appearance
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        nx, ny = (xs - w / 2) / (w / 2), (ys - h / 2) / (h / 2)
        g = 1.0 + app.gradient_amp * (
            nx * math.cos(app.gradient_dir_rad) + ny * math.sin(app.gradient_dir_rad)
        )
        g *= 1.0 - app.vignette * (nx**2 + ny**2) / 2
        gains = np.asarray(app.wb_gain_bgr, np.float32) * app.exposure_gain
        return (g[..., None] * gains).astype(np.float32)

    # ----------------------------------------------------------------- render
    def render(self, frame: SceneFrame) -> RenderedFrame:
        spec, app = self.spec, self.appearance
        cam = frame.camera
        view = self._camera_view(cam)
        w, h = cam.resolution_wh
        n, n_s, mid = len(frame.ids), frame.xy_mm.shape[0], frame.mid
        out = view.background.copy()

        refs = object_reference_xyz(
            spec, frame.labels * n_s, frame.xy_mm.reshape(-1, 2), frame.z_mm.reshape(-1)
        ).reshape(n_s, n, 3)
        radii = np.array([spec.object_for(lb).radius_mm for lb in frame.labels], float)
        heights = np.array([spec.object_for(lb).height_mm for lb in frame.labels], float)
        bases = np.concatenate([frame.xy_mm, frame.z_mm[..., None]], axis=2)
        ex = cam.R[0]  # camera x axis in the table frame
        pts = np.concatenate(
            [
                refs.reshape(-1, 3),
                (refs + radii[None, :, None] * ex).reshape(-1, 3),
                bases.reshape(-1, 3),
            ]
        )
        px = cam.project(pts).reshape(3, n_s, n, 2) if n else np.zeros((3, n_s, 0, 2))
        xy_px = px[0, mid].copy()
        radius_px = np.linalg.norm(px[1, mid] - px[0, mid], axis=1)
        vis_frac = np.zeros(n)

        self._integrate_orientations(frame, radii)
        depth = cam.depth_mm(refs[mid]) if n else np.zeros(0)
        order = [i for i in np.argsort(-depth) if frame.visible[i]]

        if app.shadow_strength > 0:
            for i in order:
                self._object_shadow(out, view, cam, refs[mid, i], radii[i], heights[i], w, h)

        drawn: list[tuple[int, tuple[int, int, int, int], np.ndarray, float]] = []
        for i in order:
            r_pad = np.concatenate([px[0, :, i], px[2, :, i]])
            rmax = float(np.max(np.linalg.norm(px[1, :, i] - px[0, :, i], axis=1)))
            m = rmax * 1.25 + 2
            bx0 = int(np.floor(r_pad[:, 0].min() - m))
            by0 = int(np.floor(r_pad[:, 1].min() - m))
            bx1 = int(np.ceil(r_pad[:, 0].max() + m)) + 1
            by1 = int(np.ceil(r_pad[:, 1].max() + m)) + 1
            bx0, by0 = max(bx0, -PAD_PX), max(by0, -PAD_PX)
            bx1, by1 = min(bx1, w + PAD_PX), min(by1, h + PAD_PX)
            if bx1 <= bx0 or by1 <= by0 or not np.all(np.isfinite(r_pad)):
                continue
            premult, alpha, full = self._cast(
                view, frame, i, (bx0, by0, bx1, by1), radii[i], heights[i]
            )
            total = full
            # composite the in-frame part
            cx0, cy0, cx1, cy1 = max(bx0, 0), max(by0, 0), min(bx1, w), min(by1, h)
            if cx1 > cx0 and cy1 > cy0 and total > 0:
                sl = (slice(cy0 - by0, cy1 - by0), slice(cx0 - bx0, cx1 - bx0))
                a = alpha[sl]
                roi = out[cy0:cy1, cx0:cx1]
                roi *= 1.0 - a[..., None]
                roi += premult[sl] * view.light[cy0:cy1, cx0:cx1]
                drawn.append((i, (cx0, cy0, cx1, cy1), a, total))

        occ = None
        if frame.occluders:
            occ = np.zeros((h, w), np.float32)
            self._draw_occluders(out, occ, view, frame, w, h)
        layers = self._graphics(w, h)
        if layers:
            if occ is None:
                occ = np.zeros((h, w), np.float32)
            for (x0, y0, x1, y1), bgr, a in layers:
                roi = out[y0:y1, x0:x1]
                roi *= 1 - a[..., None]
                roi += bgr * a[..., None]
                occ[y0:y1, x0:x1] = 1 - (1 - occ[y0:y1, x0:x1]) * (1 - a)

        for i, (x0, y0, x1, y1), a, total in drawn:
            seen = a if occ is None else a * (1 - occ[y0:y1, x0:x1])
            vis_frac[i] = min(1.0, float(seen.sum()) / total)

        bgr = self._camera_effects(out, frame.t_s)
        return RenderedFrame(bgr=bgr, xy_px=xy_px, radius_px=radius_px, visible_fraction=vis_frac)

    # --------------------------------------------------------------- objects
    def _integrate_orientations(self, frame: SceneFrame, radii: np.ndarray) -> None:
        """Roll each ball by its displacement since the last call (no slip)."""
        mid = frame.mid
        for i, oid in enumerate(frame.ids.tolist()):
            xy = frame.xy_mm[mid, i]
            if oid not in self._orient:
                self._orient[oid] = _random_rotation(self._rng)
                self._yaw[oid] = float(self._rng.uniform(0, 2 * np.pi))
            else:
                step = xy - self._last_xy[oid]
                dist = float(np.hypot(*step))
                if 1e-6 < dist < 600.0:
                    axis = np.array([-step[1], step[0], 0.0]) / dist
                    self._orient[oid] = _rotation(axis, dist / radii[i]) @ self._orient[oid]
            self._last_xy[oid] = xy.copy()

    def _sub_orientations(self, frame: SceneFrame, i: int, radius: float) -> np.ndarray:
        q = self._orient[int(frame.ids[i])]
        mid_xy = frame.xy_mm[frame.mid, i]
        out = []
        for s in range(frame.xy_mm.shape[0]):
            step = frame.xy_mm[s, i] - mid_xy
            dist = float(np.hypot(*step))
            if dist > 1e-6:
                axis = np.array([-step[1], step[0], 0.0]) / dist
                out.append(_rotation(axis, dist / radius) @ q)
            else:
                out.append(q)
        return np.array(out)

    def _cast(
        self,
        view: _CameraView,
        frame: SceneFrame,
        i: int,
        box: tuple[int, int, int, int],
        radius: float,
        height: float,
    ) -> tuple[np.ndarray, np.ndarray, float]:
        """Premultiplied colour (h, w, 3), drawn alpha (h, w) and the whole silhouette's area
        in pixels (what the table, frame edge or anything else may hide of it)."""
        bx0, by0, bx1, by1 = box
        ss = SUPERSAMPLE
        bw, bh = bx1 - bx0, by1 - by0
        off = (np.arange(ss) + 0.5) / ss - 0.5
        us = (np.arange(bx0, bx1)[:, None] + off[None, :]).ravel().astype(np.float32) + PAD_PX
        vs = (np.arange(by0, by1)[:, None] + off[None, :]).ravel().astype(np.float32) + PAD_PX
        mu, mv = np.meshgrid(us, vs)
        d = cv2.remap(view.rays, mu, mv, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        d = d.reshape(-1, 3).astype(np.float64)
        d /= np.linalg.norm(d, axis=1, keepdims=True)
        o = view.centre
        label = frame.labels[i]
        xy, z = frame.xy_mm[:, i], frame.z_mm[:, i]
        spec, app = self.spec, self.appearance
        hx, hy = spec.half_wh_mm
        near_edge = bool(np.any(z < 0)) or bool(
            np.any((np.abs(xy[:, 0]) > hx - 3 * radius) | (np.abs(xy[:, 1]) > hy - 3 * radius))
        )
        solid = self._solid if near_edge else None
        if spec.family is Family.POOL:
            number = _label_number(label)
            centres = np.column_stack([xy, z + radius])
            res = cast_ball(
                o,
                d,
                centres,
                radius,
                self._sub_orientations(frame, i, radius),
                number,
                np.asarray(app.ball_bgr[number], float),
                {
                    "stripe": app.stripe_half_width,
                    "circle": app.number_circle_rad,
                    "dots": float(app.cue_ball_dots),
                },
                self._lighting,
                self._glyphs,
                solid,
            )
        else:
            obj = spec.object_for(label)
            colour = {
                "puck": app.puck_bgr,
                "red_pawn": app.pawn_red_bgr,
                "black_pawn": app.pawn_black_bgr,
            }[label]
            res = cast_disc(
                o,
                d,
                np.column_stack([xy, z]),
                radius,
                height,
                obj.hole_radius_mm,
                np.asarray(colour, float),
                label == "puck",
                self._yaw[int(frame.ids[i])],
                self._lighting,
                view.board,
                solid,
            )
        n_s = len(xy)
        # average the supersamples and sub-samples of each pixel (anti-aliasing, motion blur)
        row, col = np.divmod(res.p_idx, bw * ss)
        pix = (row // ss) * bw + col // ss
        norm = 1.0 / (n_s * ss * ss)
        vis = res.visible.astype(float)
        alpha = np.bincount(pix, weights=vis, minlength=bw * bh) * norm
        colour = np.empty((bh * bw, 3), np.float32)
        for c in range(3):
            colour[:, c] = np.bincount(pix, weights=res.bgr[:, c] * vis, minlength=bw * bh) * norm
        alpha32 = alpha.reshape(bh, bw).astype(np.float32)
        return colour.reshape(bh, bw, 3), alpha32, res.silhouette_samples * norm

    def _object_shadow(
        self,
        out: np.ndarray,
        view: _CameraView,
        cam: CameraModel,
        ref: np.ndarray,
        radius: float,
        height: float,
        w: int,
        h: int,
    ) -> None:
        """A soft contact shadow on the surface under an object, cast from the nearest lamp."""
        lamps = self._lighting.lamp_xyz
        lamp = lamps[np.argmin(((lamps[:, :2] - ref[:2]) ** 2).sum(axis=1))]
        mid_z = max(ref[2] - height / 2, 0.0)
        sxy = shadow_outline(np.array([[ref[0], ref[1], mid_z]]), lamp)[0]
        sigma = radius * (0.55 + mid_z / 300.0)
        c = _table_point_px(cam, sxy)
        if c is None:
            return
        r_px = 3 * sigma * c[2]
        x0, y0 = max(int(c[0] - r_px), 0), max(int(c[1] - r_px), 0)
        x1, y1 = min(int(c[0] + r_px) + 1, w), min(int(c[1] + r_px) + 1, h)
        if x1 <= x0 or y1 <= y0:
            return
        p = view.plane0_xy[y0:y1, x0:x1]
        d2 = (p[..., 0] - sxy[0]) ** 2 + (p[..., 1] - sxy[1]) ** 2
        k = self.appearance.shadow_strength * np.exp(-d2 / (2 * sigma**2)) / (1 + mid_z / 200)
        k *= view.surface[y0:y1, x0:x1]
        out[y0:y1, x0:x1] *= (1 - k.astype(np.float32))[..., None]

    # -------------------------------------------------------------- occluders
    def _draw_occluders(
        self, out: np.ndarray, occ: np.ndarray, view: _CameraView, frame: SceneFrame, w: int, h: int
    ) -> None:
        cam = frame.camera
        lamps = self._lighting.lamp_xyz
        zmax = cam.centre_mm[2] - 150.0
        parts = []
        for oc in frame.occluders:
            parts += occluder_parts(
                oc.kind, oc.xy_mm, oc.heading_rad, oc.z_mm, oc.scale, self._palette
            )
        # shadows: at quarter resolution, blurred
        strength = self.appearance.shadow_strength
        if strength > 0:
            q = 4
            sm = np.zeros((h // q + 1, w // q + 1), np.float32)
            for part in parts:
                if not part.casts_shadow:
                    continue
                c = part.outline_xyz.mean(axis=0)
                lamp = lamps[np.argmin(((lamps[:, :2] - c[:2]) ** 2).sum(axis=1))]
                sxy = shadow_outline(part.outline_xyz, lamp)
                ppx = cam.project(np.column_stack([sxy, np.zeros(len(sxy))])) / q
                if not np.all(np.isfinite(ppx)):
                    continue
                mask = fill_mask(ppx, (0, 0, sm.shape[1], sm.shape[0]))
                np.maximum(sm, mask, out=sm)
            sm = cv2.GaussianBlur(sm, (0, 0), 3.0)
            sm = cv2.resize(sm, (w, h), interpolation=cv2.INTER_LINEAR)
            out *= (1 - strength * 1.2 * sm)[..., None]
        for part in sorted(parts, key=lambda p: p.z_order):
            xyz = part.outline_xyz.copy()
            xyz[:, 2] = np.minimum(xyz[:, 2], zmax)
            ppx = cam.project(xyz)
            if not np.all(np.isfinite(ppx)):
                continue
            x0, y0 = np.floor(ppx.min(axis=0)).astype(int) - 1
            x1, y1 = np.ceil(ppx.max(axis=0)).astype(int) + 2
            x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
            if x1 <= x0 or y1 <= y0:
                continue
            a = fill_mask(ppx, (x0, y0, x1, y1))
            edge = cv2.GaussianBlur(a, (0, 0), 2.0)
            shade = (0.6 + 0.4 * edge)[..., None]
            col = np.asarray(part.bgr, np.float32) * shade * view.light[y0:y1, x0:x1]
            roi = out[y0:y1, x0:x1]
            roi *= 1 - a[..., None]
            roi += col * a[..., None]
            occ[y0:y1, x0:x1] = 1 - (1 - occ[y0:y1, x0:x1]) * (1 - a)

    def _graphics(self, w: int, h: int) -> list:  # type: ignore[type-arg]
        app = self.appearance
        if not (app.score_bar or app.logo):
            return []
        if self._overlay is None or self._overlay[0] != (w, h):
            self._overlay = (
                (w, h),
                graphics_overlay(
                    (w, h), app.score_bar, app.logo, app.logo_corner, app.score_text, app.bar_bgr
                ),
            )
        return self._overlay[1]

    # ----------------------------------------------------------------- camera
    def _camera_effects(self, out: np.ndarray, t_s: float) -> np.ndarray:
        app = self.appearance
        gain = 1.0 + app.flicker_amp * math.sin(
            2 * math.pi * app.flicker_hz * t_s + self._flicker_phase
        )
        gains = gain * (
            1.0
            + app.wb_drift_amp * np.sin(2 * np.pi * t_s / app.wb_drift_period_s + self._wb_phase)
        )
        if np.any(np.abs(gains - 1.0) > 1e-6):
            out *= gains.astype(np.float32)
        if app.noise_read > 0 or app.noise_shot > 0:
            h, w = out.shape[:2]
            if self._noise is None or self._noise.shape[1:3] != (h + 32, w + 32):
                self._noise = self._rng.standard_normal((2, h + 32, w + 32, 3), np.float32)
            k = int(self._rng.integers(2))
            oy, ox = self._rng.integers(0, 33, size=2)
            n = self._noise[k, oy : oy + h, ox : ox + w]
            sigma = out * np.float32(app.noise_shot / 255.0)
            sigma += np.float32(app.noise_read)
            sigma *= n
            out += sigma
        np.clip(out, 0, 255, out=out)
        return cv2.convertScaleAbs(out)
