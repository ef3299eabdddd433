"""Calibrate a camera over a Novuss board from one frame, with no markers.

How ``fit_novuss`` works:

1. **Board.** The lacquered board is the largest bright region of the frame (Otsu on the
   blurred grey image). Its outline is cut to four sides; a line fitted to the middle part
   of each side, and the sides' intersections give the four corners of the playing surface
   (the inner rail faces at z = 0). They are ordered so table +x points to the image right
   and +y to the image top as near as possible (the board is symmetric; which player sits
   where is settled elsewhere). A homography from those corners is the first camera guess.
2. **Lines.** Every printed line of ``spec.lines`` is sampled every ``step_mm`` of table,
   away from crossings, rails and pocket holes. At each sample the current camera predicts
   the line's pixel and its image normal; the smoothed grey profile across it is searched
   for a thin dark minimum (darker than its surroundings on both sides, by enough contrast,
   so pawns, the puck, hands and cues over a line are rejected) and its sub-pixel centre is
   the darkness-weighted centroid around the minimum.
3. **Fit.** Each found pixel is mapped back to the table with the current camera and
   snapped onto its line (a sliding point-to-line correspondence, as in ICP), then
   ``calibration.model.solve`` fits focal length, k1/k2 and pose. Predict, search (in a
   narrower window each round) and solve again until the camera settles.

Pixels are ``*_px`` (x right, y down), table points ``*_mm`` in the table frame.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.model import Calibration, CalibrationError, solve
from calibration.tables import Family, Line, TableSpec

Projector = Callable[[np.ndarray], np.ndarray]  # table xy (N, 2) -> pixels (N, 2)
Backprojector = Callable[[np.ndarray], np.ndarray]  # pixels (N, 2) -> table xy (N, 2)


@dataclass(frozen=True, slots=True)
class NovussFitSettings:
    """Knobs of ``fit_novuss``; the defaults suit 720p-1080p frames of a whole board.

    ``windows_px`` are the half-widths of the search across each predicted line, one per
    round: the first must cover the error of the corner homography (lens bending included,
    ~15 px at 720p with k1 = -0.2), later ones only the remaining error; wider windows catch
    more of a bad start but risk locking on a neighbouring feature (a pocket, a pawn edge).
    ``step_mm`` is the sample spacing along each line: smaller gives more points and a
    slower fit. ``keep_off_mm`` keeps samples this far from other lines, the rails and
    pocket holes, where the profile is not that of a lone line. ``min_contrast`` is the
    least darkness of a line relative to the board around it (a fraction): lower accepts
    faint lines under glare but also shadows and wood grain. ``min_samples`` below which
    the board is declared not found.
    """

    windows_px: tuple[float, ...] = (22.0, 8.0, 5.0, 4.0, 4.0)
    step_mm: float = 8.0
    keep_off_mm: float = 22.0
    min_contrast: float = 0.12
    min_samples: int = 80
    min_board_fraction: float = 0.08
    rail_edges: bool = True

    def __post_init__(self) -> None:
        if not self.windows_px or min(self.windows_px) < 2.0:
            raise ValueError(f"windows_px must be non-empty and each >= 2, got {self.windows_px}")
        if self.step_mm <= 0:
            raise ValueError(f"step_mm must be > 0, got {self.step_mm}")
        if not 0.0 < self.min_contrast < 1.0:
            raise ValueError(f"min_contrast must be in (0, 1), got {self.min_contrast}")
        if self.min_samples < 6:
            raise ValueError(f"min_samples must be >= 6, got {self.min_samples}")
        if not 0.0 < self.min_board_fraction < 1.0:
            raise ValueError(
                f"min_board_fraction must be in (0, 1), got {self.min_board_fraction}"
            )


#: Profile sampling step across a line (px), and the half-width of the centroid (px).
_PROFILE_STEP_PX = 0.25
_CENTROID_HALF_PX = 1.5
#: A thin line's profile is back near the board this far from its minimum (px) on both sides.
_SHOULDER_PX = (2.5, 4.0)
#: Pre-smoothing of the grey image (Gaussian sigma, px): spreads a sub-pixel line over a
#: few pixels so the centroid is stable; symmetric, so it does not move the centre.
_SMOOTH_SIGMA_PX = 0.8


# ------------------------------------------------------------------------- board


def find_board_corners(frame_bgr: np.ndarray, min_fraction: float = 0.08) -> np.ndarray:
    """The four playing-surface corners ``(4, 2)`` px, in the order of
    ``TableSpec.corners_xy_mm`` (table -x-y, +x-y, +x+y, -x+y), x right-ish and y up-ish."""
    if frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3:
        raise CalibrationError(f"expected a BGR frame (H, W, 3), got shape {frame_bgr.shape}")
    h, w = frame_bgr.shape[:2]
    grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    blur = cv2.GaussianBlur(grey, (0, 0), 3.0)
    if float(blur.std()) < 8.0:
        raise CalibrationError("board not found: the frame has no contrast")
    _, mask = cv2.threshold(blur, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        raise CalibrationError("board not found: no bright region in the frame")
    contour = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(contour)
    if area < min_fraction * w * h:
        raise CalibrationError(
            f"board not found: the largest bright region covers {area / (w * h):.1%} "
            f"of the frame (< {min_fraction:.0%})"
        )
    hull = cv2.convexHull(contour)
    if area < 0.8 * cv2.contourArea(hull):
        raise CalibrationError("board not found: the largest bright region is not convex")
    quad = _hull_to_quad(hull)
    if quad is None:
        raise CalibrationError("board not found: the bright region is not a quadrilateral")
    quad = _refine_quad(contour.reshape(-1, 2).astype(float), quad)
    if quad is None or cv2.contourArea(quad.astype(np.float32)) < min_fraction * w * h:
        raise CalibrationError("board not found: its sides do not form a quadrilateral")
    return _order_corners(quad)


def _hull_to_quad(hull: np.ndarray) -> np.ndarray | None:
    peri = cv2.arcLength(hull, True)
    for frac in (0.01, 0.02, 0.03, 0.05, 0.08, 0.12):
        poly = cv2.approxPolyDP(hull, frac * peri, True).reshape(-1, 2)
        if len(poly) == 4:
            return poly.astype(float)
        if len(poly) < 4:
            return None
    return None


def _refine_quad(points: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """Fit a line to the middle 70 % of each side's outline points; intersect neighbours."""
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        ab = b - a
        length = float(np.linalg.norm(ab))
        if length < 20:
            return None
        u = ab / length
        n = np.array([-u[1], u[0]])
        rel = points - a
        s = rel @ u
        d = rel @ n
        sel = (s > 0.15 * length) & (s < 0.85 * length) & (np.abs(d) < max(6.0, 0.03 * length))
        if sel.sum() < 10:
            return None
        vx, vy, x0, y0 = cv2.fitLine(points[sel].astype(np.float32), cv2.DIST_HUBER, 0, 0.01,
                                     0.01).ravel()
        lines.append(np.cross([x0, y0, 1.0], [x0 + vx, y0 + vy, 1.0]))
    corners = []
    for i in range(4):
        p = np.cross(lines[i - 1], lines[i])
        if abs(p[2]) < 1e-9:
            return None
        corners.append(p[:2] / p[2])
    out = np.array(corners)
    if np.max(np.linalg.norm(out - quad, axis=1)) > 0.2 * np.ptp(quad, axis=0).max():
        return None
    return out


def _order_corners(quad: np.ndarray) -> np.ndarray:
    """Counter-clockwise as seen with y up, starting at the corner nearest the bottom left."""
    c = quad.mean(axis=0)
    ang = np.arctan2(-(quad[:, 1] - c[1]), quad[:, 0] - c[0])  # y up
    ccw = quad[np.argsort(ang)]
    want = np.radians([-135.0, -45.0, 45.0, 135.0])
    best, best_cost = ccw, np.inf
    for k in range(4):
        cand = np.roll(ccw, -k, axis=0)
        a = np.arctan2(-(cand[:, 1] - c[1]), cand[:, 0] - c[0])
        cost = float(np.sum(1 - np.cos(a - want)))
        if cost < best_cost:
            best, best_cost = cand, cost
    return best


# ------------------------------------------------------------------------- lines


@dataclass(frozen=True, slots=True)
class LineSamples:
    """Points along the printed lines in the table frame, with the line each belongs to."""

    xy_mm: np.ndarray  # (N, 2) on the line
    normal_xy: np.ndarray  # (N, 2) unit normal of the line in the table
    line_index: np.ndarray  # (N,) index into ``lines``
    lines: tuple[Line, ...]
    is_edge: np.ndarray  # (N,) bool: an inner rail edge (normal points out), not a printed line

    def __len__(self) -> int:
        return len(self.xy_mm)

    def __getitem__(self, mask: np.ndarray) -> LineSamples:
        return LineSamples(self.xy_mm[mask], self.normal_xy[mask], self.line_index[mask],
                           self.lines, self.is_edge[mask])


def line_samples(
    spec: TableSpec, step_mm: float, keep_off_mm: float, rail_edges: bool = True
) -> LineSamples:
    """Sample every printed line (and the inner rail edges, named ``rail_<cushion>``) every
    ``step_mm``, away from other features; rail edge normals point out of the surface."""
    lines = list(spec.lines)
    if rail_edges:
        lines += [Line(f"rail_{c.name}", c.a_xy_mm, c.b_xy_mm) for c in spec.cushions]
    outward = {f"rail_{c.name}": -np.asarray(c.normal_xy) for c in spec.cushions}
    xy, nrm, idx = [], [], []
    for i, line in enumerate(lines):
        if line.is_circle:
            n_pts = max(8, int(round(2 * np.pi * line.radius_mm / step_mm)))
            th = np.arange(n_pts) * 2 * np.pi / n_pts
            d = np.column_stack([np.cos(th), np.sin(th)])
            p = np.asarray(line.a_xy_mm) + line.radius_mm * d
            n = d
        else:
            a, b = np.asarray(line.a_xy_mm), np.asarray(line.b_xy_mm)
            length = float(np.linalg.norm(b - a))
            s = np.arange(step_mm / 2, length, step_mm)
            u = (b - a) / length
            p = a + s[:, None] * u
            n = np.broadcast_to(outward.get(line.name, np.array([-u[1], u[0]])), p.shape)
        xy.append(p)
        nrm.append(n)
        idx.append(np.full(len(p), i))
    xy_mm, normal, index = np.concatenate(xy), np.concatenate(nrm), np.concatenate(idx)

    is_edge = np.isin(index, [i for i, ln in enumerate(lines) if ln.name in outward])
    keep = spec.on_surface(xy_mm, margin_mm=keep_off_mm) | is_edge
    for pocket in spec.pockets:
        dist = np.linalg.norm(xy_mm - np.asarray(pocket.centre_xy_mm), axis=1)
        keep &= dist > pocket.hole_radius_mm + keep_off_mm
    for i, line in enumerate(spec.lines):
        keep &= (index == i) | (line.distance_mm(xy_mm) > keep_off_mm)
    return LineSamples(xy_mm[keep], np.ascontiguousarray(normal[keep]), index[keep],
                       tuple(lines), is_edge[keep])


def find_line_centres(
    grey: np.ndarray,
    centre_px: np.ndarray,
    normal_px: np.ndarray,
    half_window_px: float,
    min_contrast: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Search across a predicted line for its dark centre.

    ``grey`` is the smoothed float32 image; ``centre_px`` ``(N, 2)`` the predicted points and
    ``normal_px`` ``(N, 2)`` unit image normals. Returns the found centres ``(N, 2)`` and a
    mask of those accepted: a single thin dark minimum, inside the window, with the board
    brighter by ``min_contrast`` (relative) on both sides of it.
    """
    n = len(centre_px)
    if n == 0:
        return np.zeros((0, 2)), np.zeros(0, bool)
    offs = np.arange(-half_window_px - _SHOULDER_PX[1], half_window_px + _SHOULDER_PX[1] + 1e-9,
                     _PROFILE_STEP_PX)
    pts = centre_px[:, None, :] + offs[None, :, None] * normal_px[:, None, :]
    prof = cv2.remap(grey, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32),
                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=-1.0)
    h, w = grey.shape
    inside = (
        (pts[..., 0] >= 1) & (pts[..., 0] <= w - 2) & (pts[..., 1] >= 1) & (pts[..., 1] <= h - 2)
    ).all(axis=1)

    core = np.abs(offs) <= half_window_px
    core_idx = np.flatnonzero(core)
    i_min = core_idx[np.argmin(prof[:, core], axis=1)]
    rows = np.arange(n)
    v_min = prof[rows, i_min]

    # Shoulders: the brightest value 2.5-4 px each side of the minimum.
    sh0 = int(round(_SHOULDER_PX[0] / _PROFILE_STEP_PX))
    sh1 = int(round(_SHOULDER_PX[1] / _PROFILE_STEP_PX))
    left = np.stack([prof[rows, np.clip(i_min - k, 0, len(offs) - 1)]
                     for k in range(sh0, sh1 + 1)], axis=1).max(axis=1)
    right = np.stack([prof[rows, np.clip(i_min + k, 0, len(offs) - 1)]
                      for k in range(sh0, sh1 + 1)], axis=1).max(axis=1)
    bg = np.minimum(left, right)
    depth = bg - v_min
    ok = inside & (depth > min_contrast * np.maximum(bg, 1.0)) & (depth > 6.0)
    # The two shoulders must agree: a step (pawn edge, pocket rim, rail) is not a line.
    ok &= np.abs(left - right) < 0.5 * depth

    # Sub-pixel centre: darkness-weighted centroid around the minimum.
    half = int(round(_CENTROID_HALF_PX / _PROFILE_STEP_PX))
    k = np.arange(-half, half + 1)
    cols = np.clip(i_min[:, None] + k[None, :], 0, len(offs) - 1)
    # Board level under the line: linear between the two shoulders (a lamp's glow or the
    # vignette across the line must not pull the centroid to its darker side).
    ks = np.arange(sh0, sh1 + 1)
    lo = prof[rows[:, None], np.clip(i_min[:, None] - ks, 0, len(offs) - 1)].mean(axis=1)
    hi = prof[rows[:, None], np.clip(i_min[:, None] + ks, 0, len(offs) - 1)].mean(axis=1)
    mid = 0.5 * (_SHOULDER_PX[0] + _SHOULDER_PX[1])
    base = 0.5 * (lo + hi)[:, None] + (hi - lo)[:, None] * (k * _PROFILE_STEP_PX / (2 * mid))
    wgt = np.clip(base - prof[rows[:, None], cols], 0.0, None)
    s_hat = (wgt * offs[cols]).sum(axis=1) / np.maximum(wgt.sum(axis=1), 1e-9)
    return centre_px + s_hat[:, None] * normal_px, ok


def find_edges(
    grey: np.ndarray,
    centre_px: np.ndarray,
    normal_px: np.ndarray,
    half_window_px: float,
    min_contrast: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Search along ``normal_px`` (pointing from the board out to the rail) for the
    strongest bright-to-dark step; its sub-pixel position is the parabola vertex of the
    steepest descent. Same arguments and returns as ``find_line_centres``."""
    n = len(centre_px)
    if n == 0:
        return np.zeros((0, 2)), np.zeros(0, bool)
    reach = _SHOULDER_PX[1]
    offs = np.arange(-half_window_px - reach, half_window_px + reach + 1e-9, _PROFILE_STEP_PX)
    pts = centre_px[:, None, :] + offs[None, :, None] * normal_px[:, None, :]
    prof = cv2.remap(grey, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32),
                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=-1.0)
    h, w = grey.shape
    inside = (
        (pts[..., 0] >= 1) & (pts[..., 0] <= w - 2) & (pts[..., 1] >= 1) & (pts[..., 1] <= h - 2)
    ).all(axis=1)
    grad = np.gradient(prof, _PROFILE_STEP_PX, axis=1)
    core_idx = np.flatnonzero(np.abs(offs) <= half_window_px)
    i_min = core_idx[np.argmin(grad[:, core_idx], axis=1)]
    rows = np.arange(n)
    k = int(round(reach / _PROFILE_STEP_PX))
    board = prof[rows, np.clip(i_min - k, 0, len(offs) - 1)]
    rail = prof[rows, np.clip(i_min + k, 0, len(offs) - 1)]
    step = board - rail
    ok = inside & (step > min_contrast * np.maximum(board, 1.0)) & (step > 6.0)
    g0 = grad[rows, np.clip(i_min - 1, 0, len(offs) - 1)]
    g1 = grad[rows, i_min]
    g2 = grad[rows, np.clip(i_min + 1, 0, len(offs) - 1)]
    den = g0 - 2 * g1 + g2
    frac = np.where(np.abs(den) > 1e-9, 0.5 * (g0 - g2) / np.where(den == 0, 1, den), 0.0)
    s_hat = offs[i_min] + np.clip(frac, -1, 1) * _PROFILE_STEP_PX
    return centre_px + s_hat[:, None] * normal_px, ok


def _snap_to_lines(samples: LineSamples, xy_mm: np.ndarray) -> np.ndarray:
    """The nearest point of each sample's own line to ``xy_mm`` ``(N, 2)``."""
    out = np.empty_like(xy_mm)
    for i, line in enumerate(samples.lines):
        sel = samples.line_index == i
        if not sel.any():
            continue
        p = xy_mm[sel]
        a = np.asarray(line.a_xy_mm)
        if line.is_circle:
            d = p - a
            out[sel] = a + line.radius_mm * d / np.maximum(np.linalg.norm(d, axis=1,
                                                                         keepdims=True), 1e-9)
        else:
            b = np.asarray(line.b_xy_mm)
            ab = b - a
            s = np.clip(((p - a) @ ab) / float(ab @ ab), 0.0, 1.0)
            out[sel] = a + s[:, None] * ab
    return out


# ------------------------------------------------------------------------- fit


def _homography_model(H_image_from_table: np.ndarray) -> tuple[Projector, Backprojector]:
    H_inv = np.linalg.inv(H_image_from_table)

    def fwd(xy: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(xy.reshape(-1, 1, 2).astype(np.float64),
                                        H_image_from_table).reshape(-1, 2)

    def back(px: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(px.reshape(-1, 1, 2).astype(np.float64),
                                        H_inv).reshape(-1, 2)

    return fwd, back


def _calibration_model(calib: Calibration) -> tuple[Projector, Backprojector]:
    return (lambda xy: calib.to_image(xy)), (lambda px: calib.to_table(px))


def fit_novuss(
    frame_bgr: np.ndarray,
    spec: TableSpec,
    settings: NovussFitSettings | None = None,
) -> Calibration:
    """Fit the camera of a frame showing a whole Novuss board (see the module docstring).

    Raises ``CalibrationError`` when the board or too few of its lines are found.
    """
    if spec.family is not Family.NOVUSS:
        raise CalibrationError(f"fit_novuss needs a Novuss table, got {spec.name!r}")
    cfg = settings or NovussFitSettings()
    h, w = frame_bgr.shape[:2]
    corners_px = find_board_corners(frame_bgr, cfg.min_board_fraction)
    H, _ = cv2.findHomography(spec.corners_xy_mm(), corners_px)
    if H is None:
        raise CalibrationError("board not found: its corners give no homography")
    fwd, back = _homography_model(H)

    grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    grey = cv2.GaussianBlur(grey, (0, 0), _SMOOTH_SIGMA_PX)
    samples = line_samples(spec, cfg.step_mm, cfg.keep_off_mm, cfg.rail_edges)
    names_all = np.array([line.name for line in samples.lines])

    calib: Calibration | None = None
    for window in cfg.windows_px:
        p = fwd(samples.xy_mm)
        q = fwd(samples.xy_mm + samples.normal_xy)  # 1 mm along the table normal
        d = q - p
        normal_px = d / np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-9)
        valid = np.isfinite(p).all(axis=1) & np.isfinite(normal_px).all(axis=1)
        valid &= (p[:, 0] > 0) & (p[:, 0] < w) & (p[:, 1] > 0) & (p[:, 1] < h)
        p = np.where(valid[:, None], p, 0.0)
        found_px = np.empty_like(p)
        ok = np.zeros(len(p), bool)
        for edge, finder in ((False, find_line_centres), (True, find_edges)):
            sel = samples.is_edge == edge
            found_px[sel], ok[sel] = finder(grey, p[sel], normal_px[sel], window,
                                            cfg.min_contrast)
        ok &= valid
        if ok.sum() < cfg.min_samples:
            raise CalibrationError(
                f"board not found: only {int(ok.sum())} points on its printed lines "
                f"(need {cfg.min_samples})"
            )
        img = found_px[ok]
        table_xy = _snap_to_lines(samples[ok], back(img))
        xyz = np.column_stack([table_xy, np.zeros(len(table_xy))])
        names = names_all[samples.line_index[ok]].tolist()
        try:
            calib = solve(spec, img, xyz, (w, h), names=names)
        except ValueError as exc:
            raise CalibrationError(f"board not found: the camera fit failed ({exc})") from exc
        fwd, back = _calibration_model(calib)
    assert calib is not None
    return calib

