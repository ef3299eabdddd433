"""Calibrate a camera over a Novuss board from one frame, with no markers.

How ``fit_novuss`` works:

1. **Board.** The lacquered board is the largest bright region of the frame (Otsu on the
   blurred grey image), opened twice: a little, and wider than a cue's shaft (a bright cue
   across the rail would join the board to the frame edge). Each outline is cut to four
   sides, starting both from its simplified convex hull and from its minimum-area
   rectangle (a hull corner can sit on a pocket notch or a cue); a line is fitted to the
   middle part of each side, narrowing onto the points that agree with it (a hand's dent
   in the outline drops out), and the sides' intersections give the four corners of the
   playing surface (the inner rail faces at z = 0). The quadrilateral that overlaps its
   bright region best wins. They are ordered so table +x points to the image right
   and +y to the image top as near as possible (the board is symmetric; which player sits
   where is settled elsewhere). A homography from those corners is the first camera guess.
2. **Lines.** Every printed line of ``spec.lines`` is sampled every ``step_mm`` of table,
   away from crossings, rails and pocket holes. At each sample the current camera predicts
   the line's pixel and its image normal; the smoothed grey profile across it is searched
   for a thin dark minimum (darker than its surroundings on both sides, by enough contrast,
   so pawns, the puck, hands and cues over a line are rejected) and its sub-pixel centre is
   the darkness-weighted centroid around the minimum.
3. **Fit.** Each found pixel is mapped back to the table with the current camera and
   snapped onto its line; ``calibration.line_solve.solve_on_lines`` then fits focal
   length, k1/k2 and pose to the pixels' distances *across* their lines (point-to-line:
   a point may slide along its line, so the rounds do not creep toward the answer as
   point-to-point fits of snapped points did, stalling 1-3 mm off under a strong lens).
   Predict, search (in a narrower window each round) and solve again. The first round
   fits no lens and the second only k1 (``NovussFitSettings.lens_terms``): lens terms
   fitted to the corner homography's rough correspondences bend the image to match its
   errors and run away (k2 in the thousands); each round starts from the previous camera.
   Seen nearly straight down, a free focal length can still run away from a rough start:
   then the rounds run again with it held near a common value, and the held camera is
   refined once more with it free (a held guess leaves 1-3 mm).
4. **Self-check.** A fit is returned only if it leaves at most ``max_rms_mm`` on the lines
   it kept and found at least ``min_support`` of the line points it predicts in the frame;
   otherwise the next candidate outline is tried (a cue or sleeve taken into the outline
   puts a corner 50-300 px off, and such a start can lock some lines onto wrong features).

Pixels are ``*_px`` (x right, y down), table points ``*_mm`` in the table frame.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial

import cv2
import numpy as np

from calibration.fit import check_camera
from calibration.line_solve import initial_camera, solve_on_lines
from calibration.model import Calibration, CalibrationError
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
    the board is declared not found. ``lens_terms`` is how many radial lens terms (0, 1 or
    2) each round fits, one per window: none while the correspondences come from the rough
    corner homography (a lens fitted to them bends the image to match its errors and runs
    away with the focal length), then k1, then k1 and k2.
    ``max_rms_mm``: the most a fit may leave on the lines it kept (each found pixel's
    distance across its line, mm on the board): lines found right fit within about 0.4 mm
    (0.9 at worst under glare, seen over 324 rendered frames), while a board outline that
    took in a bright sleeve or cue locks some lines onto the wrong features and leaves
    1.5 mm or more, and the next candidate outline is tried; raise it for blurred frames,
    at the risk of returning such fits. ``min_support``: the least fraction of the line
    samples a fit predicts inside the frame that its last round found and kept: a right
    fit finds most of them (0.98 typically, 0.73 at worst with a player over a rail), a
    wrong one leaves most of its predictions on bare wood (0.15-0.51 in the same frames).
    A fit must pass both: a wrong one has come within 1.5 mm rms on the few lines it kept.
    """

    windows_px: tuple[float, ...] = (22.0, 8.0, 5.0, 4.0, 4.0)
    step_mm: float = 8.0
    keep_off_mm: float = 22.0
    min_contrast: float = 0.12
    min_samples: int = 80
    min_board_fraction: float = 0.08
    rail_edges: bool = True
    lens_terms: tuple[int, ...] = (0, 1, 2, 2, 2)
    max_rms_mm: float = 1.2
    min_support: float = 0.6

    def __post_init__(self) -> None:
        if not self.windows_px or min(self.windows_px) < 2.0:
            raise ValueError(f"windows_px must be non-empty and each >= 2, got {self.windows_px}")
        if len(self.lens_terms) != len(self.windows_px) or not all(
            0 <= n <= 2 for n in self.lens_terms
        ):
            raise ValueError(
                f"lens_terms needs one of 0, 1, 2 per window, got {self.lens_terms}"
            )
        if self.step_mm <= 0:
            raise ValueError(f"step_mm must be > 0, got {self.step_mm}")
        if not 0.0 < self.min_contrast < 1.0:
            raise ValueError(f"min_contrast must be in (0, 1), got {self.min_contrast}")
        if self.min_samples < 6:
            raise ValueError(f"min_samples must be >= 6, got {self.min_samples}")
        if self.max_rms_mm <= 0:
            raise ValueError(f"max_rms_mm must be > 0, got {self.max_rms_mm}")
        if not 0.0 <= self.min_support < 1.0:
            raise ValueError(f"min_support must be in [0, 1), got {self.min_support}")
        if not 0.0 < self.min_board_fraction < 1.0:
            raise ValueError(
                f"min_board_fraction must be in (0, 1), got {self.min_board_fraction}"
            )


#: The pull toward the starting focal length (``calibration.model.solve``) when a free
#: one has wandered to an impossible camera: strong enough to hold it.
HELD_FOCAL_PRIOR_PX = 10.0
#: ... and where it is held, in frame widths (a common focal length: a view that does not
#: fix it maps the board the same with any, the lens terms taking up the difference).
HELD_FOCAL_W = 0.9

#: Rounds (the last of ``NovussFitSettings.windows_px``) that free the focal length of a
#: fit that had to hold it.
_FREED_ROUNDS = 2

#: Profile sampling step across a line (px), and the half-width of the centroid (px).
_PROFILE_STEP_PX = 0.25
_CENTROID_HALF_PX = 1.5
#: A thin line's profile is back near the board this far from its minimum (px) on both sides.
_SHOULDER_PX = (2.5, 4.0)
#: Pre-smoothing of the grey image (Gaussian sigma, px): spreads a sub-pixel line over a
#: few pixels so the centroid is stable; symmetric, so it does not move the centre.
_SMOOTH_SIGMA_PX = 0.8
#: Opening of the bright-region mask, as a fraction of the frame's shorter side (a cue
#: shaft is about 1 % of it; the board is more than half of it).
_OPEN_FRACTION = 0.03
#: ... and the last resort's, wider than a forearm over the rail (about 8 % of it).
_ARM_OPEN_FRACTION = 0.12
#: About this many outline points go into the fit of the board's sides.
_QUAD_POINTS = 800


# ------------------------------------------------------------------------- board


def find_board_corners(frame_bgr: np.ndarray, min_fraction: float = 0.08) -> np.ndarray:
    """The four playing-surface corners ``(4, 2)`` px, in the order of
    ``TableSpec.corners_xy_mm`` (table -x-y, +x-y, +x+y, -x+y), x right-ish and y up-ish."""
    return next(board_corner_candidates(frame_bgr, min_fraction))


def board_corner_candidates(
    frame_bgr: np.ndarray, min_fraction: float = 0.08
) -> Iterator[np.ndarray]:
    """Candidate playing-surface corners, ordered as ``find_board_corners`` gives them,
    the likeliest first; ``CalibrationError`` when there is none.

    Two openings of the bright region first: a small one, and one wider than a cue's
    shaft (a bright cue lying across the rail joins the board to the frame edge and can
    pass for a side); each outline cut to four sides from its hull and from its rectangle,
    ranked by how well the quadrilateral overlaps its bright region. Then, only if asked
    for, the same from an opening wider than a forearm (a bright sleeve over the rail),
    made at a quarter of the resolution (it is slow at full)."""
    if frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3:
        raise CalibrationError(f"expected a BGR frame (H, W, 3), got shape {frame_bgr.shape}")
    h, w = frame_bgr.shape[:2]
    grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    blur = cv2.GaussianBlur(grey, (0, 0), 3.0)
    if float(blur.std()) < 8.0:
        raise CalibrationError("board not found: the frame has no contrast")
    _, otsu = cv2.threshold(blur, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)

    def opened(size: int) -> np.ndarray:
        # A square beyond the smallest: OpenCV opens with it in separable passes, many
        # times faster than with a disc, and a strip narrower than the side is gone all
        # the same (a diagonal one even up to 1.4 sides wide).
        shape = cv2.MORPH_ELLIPSE if size <= 7 else cv2.MORPH_RECT
        kernel = cv2.getStructuringElement(shape, (size, size))
        return cv2.morphologyEx(otsu, cv2.MORPH_OPEN, kernel)

    def arm_free() -> np.ndarray:
        small = cv2.resize(otsu, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
        size = max(3, int(round(_ARM_OPEN_FRACTION * min(h, w) / 4)) | 1)
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        coarse = cv2.morphologyEx(small, cv2.MORPH_OPEN, kernel)
        coarse = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR) > 127
        return np.where(coarse, opened(7), 0).astype(np.uint8)

    reason, found = "", False
    groups = (
        lambda: [opened(7), opened(max(7, int(round(_OPEN_FRACTION * min(h, w))) | 1))],
        lambda: [arm_free()],
    )
    for group in groups:
        scored: list[tuple[float, np.ndarray]] = []
        for mask in group():
            for quad, why in _board_quads(mask, min_fraction):
                if quad is None:
                    reason = why
                    continue
                fill = np.zeros_like(mask)
                cv2.fillConvexPoly(fill, np.round(quad).astype(np.int32), 255)
                inter = np.count_nonzero(fill & mask)
                scored.append((inter / max(1, np.count_nonzero(fill | mask)), quad))
        scored.sort(key=lambda item: -item[0])
        for _, quad in scored:
            found = True
            yield _order_corners(quad)
    if not found:
        raise CalibrationError(f"board not found: {reason}")


def _board_quads(
    mask: np.ndarray, min_fraction: float
) -> list[tuple[np.ndarray | None, str]]:
    """Candidate board quadrilaterals from a bright-region mask (``None`` and why not):
    sides started from the simplified convex hull and from the minimum-area rectangle
    (the hull's corners can sit on a pocket notch or a cue; the rectangle's cannot)."""
    h, w = mask.shape
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return [(None, "no bright region in the frame")]
    contour = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(contour)
    if area < min_fraction * w * h:
        return [(None, f"the largest bright region covers {area / (w * h):.1%} "
                       f"of the frame (< {min_fraction:.0%})")]
    hull = cv2.convexHull(contour)
    if area < 0.8 * cv2.contourArea(hull):
        return [(None, "the largest bright region is not convex")]
    # Every k-th outline point: the side fits need a few hundred, not thousands.
    points = contour.reshape(-1, 2)[:: max(1, len(contour) // _QUAD_POINTS)].astype(float)
    out: list[tuple[np.ndarray | None, str]] = []
    starts = [_hull_to_quad(hull), cv2.boxPoints(cv2.minAreaRect(hull)).astype(float)]
    for start in starts:
        if start is None:
            out.append((None, "the bright region is not a quadrilateral"))
            continue
        quad = _refine_quad(points, start)
        if quad is None or cv2.contourArea(quad.astype(np.float32)) < min_fraction * w * h:
            out.append((None, "its sides do not form a quadrilateral"))
            continue
        out.append((quad, ""))
    return out


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
    """Fit a line to the middle 70 % of each side's outline points; intersect neighbours.

    The hull's corners are only rough (pocket holes round the board's corners off, so a
    corner of the simplified hull can sit well inside the true side), so each side starts
    from a wide band around the hull's chord and narrows onto the points that agree with
    the fitted line: dents in the outline (a hand, a pawn at the rail) fall out."""
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
        mid = (s > 0.15 * length) & (s < 0.85 * length)
        sel = mid & (np.abs(d) < max(6.0, 0.1 * length))
        line = None
        for _ in range(4):
            if sel.sum() < 10:
                return None
            vx, vy, x0, y0 = cv2.fitLine(points[sel].astype(np.float32), cv2.DIST_HUBER, 0,
                                         0.01, 0.01).ravel()
            line = np.cross([x0, y0, 1.0], [x0 + vx, y0 + vy, 1.0])
            line = line / np.linalg.norm(line[:2])
            dist = np.abs(points @ line[:2] + line[2])
            band = max(3.0, 3.0 * float(np.median(dist[sel])))
            sel = mid & (dist < band)
        lines.append(line)
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


def _profiles(
    grey: np.ndarray, centre_px: np.ndarray, normal_px: np.ndarray, half_window_px: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Grey profiles along each normal over the window and the shoulders beyond it: the
    offsets (px), the profiles ``(N, offsets)`` (-1 off the frame) and which lie wholly
    inside the frame."""
    reach = _SHOULDER_PX[1]
    offs = np.arange(-half_window_px - reach, half_window_px + reach + 1e-9, _PROFILE_STEP_PX)
    pts = centre_px[:, None, :] + offs[None, :, None] * normal_px[:, None, :]
    prof = cv2.remap(grey, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32),
                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=-1.0)
    h, w = grey.shape
    inside = (
        (pts[..., 0] >= 1) & (pts[..., 0] <= w - 2) & (pts[..., 1] >= 1) & (pts[..., 1] <= h - 2)
    ).all(axis=1)
    return offs, prof, inside


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
    offs, prof, inside = _profiles(grey, centre_px, normal_px, half_window_px)

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
    offs, prof, inside = _profiles(grey, centre_px, normal_px, half_window_px)
    grad = np.gradient(prof, _PROFILE_STEP_PX, axis=1)
    core_idx = np.flatnonzero(np.abs(offs) <= half_window_px)
    i_min = core_idx[np.argmin(grad[:, core_idx], axis=1)]
    rows = np.arange(n)
    k = int(round(_SHOULDER_PX[1] / _PROFILE_STEP_PX))
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


def _tangents(samples: LineSamples, xy_mm: np.ndarray) -> np.ndarray:
    """Unit directions ``(N, 2)`` of each sample's own line at ``xy_mm`` (on that line)."""
    out = np.empty_like(xy_mm)
    for i, line in enumerate(samples.lines):
        sel = samples.line_index == i
        if not sel.any():
            continue
        a = np.asarray(line.a_xy_mm)
        if line.is_circle:
            d = xy_mm[sel] - a
            d /= np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-9)
            out[sel] = np.column_stack([-d[:, 1], d[:, 0]])
        else:
            u = np.asarray(line.b_xy_mm) - a
            out[sel] = u / np.linalg.norm(u)
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
    grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    grey = cv2.GaussianBlur(grey, (0, 0), _SMOOTH_SIGMA_PX)
    samples = line_samples(spec, cfg.step_mm, cfg.keep_off_mm, cfg.rail_edges)
    names_all = np.array([line.name for line in samples.lines])

    # Each candidate outline in turn (a bright sleeve or cue joined to the board can pass
    # for part of it), until a fit explains its lines.
    first: CalibrationError | None = None
    for corners_px in board_corner_candidates(frame_bgr, cfg.min_board_fraction):
        H, _ = cv2.findHomography(spec.corners_xy_mm(), corners_px)
        if H is None:
            first = first or CalibrationError("board not found: its corners give no homography")
            continue
        fwd, back = _homography_model(H)
        # Seen nearly straight down, the lines hardly fix the focal length (nor the lens
        # terms that go with it) and a free one can wander to an impossible camera; then
        # again with the focal length held near its start.
        try:
            try:
                calib, support = _refine(grey, spec, samples, names_all, fwd, back, (w, h),
                                         cfg, None)
                check_camera(calib)
            except CalibrationError as exc:
                # the first reason stands if the held fit fails too (a pool table seen as
                # Novuss needs an impossible camera: the clearest thing to say)
                first = first or exc
                calib, support = _refine(grey, spec, samples, names_all, fwd, back, (w, h),
                                         cfg, HELD_FOCAL_PRIOR_PX, HELD_FOCAL_W * w)
                calib, support = _release_focal(grey, spec, samples, names_all, cfg, calib,
                                                support)
        except CalibrationError as exc:
            first = first or exc
            continue
        if calib.rms_mm <= cfg.max_rms_mm and support >= cfg.min_support:
            return calib
        if calib.rms_mm > cfg.max_rms_mm:
            why = (f"the best fit leaves {calib.rms_mm:.1f} mm rms on its lines "
                   f"(at most {cfg.max_rms_mm:g})")
        else:
            why = (f"the best fit finds only {support:.0%} of the line points it predicts "
                   f"(at least {cfg.min_support:.0%})")
        first = first or CalibrationError(f"board not found: {why}")
    assert first is not None
    raise first


def _release_focal(
    grey: np.ndarray,
    spec: TableSpec,
    samples: LineSamples,
    names_all: np.ndarray,
    cfg: NovussFitSettings,
    held: Calibration,
    support: float,
) -> tuple[Calibration, float]:
    """The held fit's camera, or a free one refined from it where that is a possible
    camera and fits the lines better: the hold is only needed while the start is rough
    (a focal length held at a guess leaves 1-3 mm that the lines would fix)."""
    fwd, back = _calibration_model(held)
    rounds = tuple(zip(cfg.windows_px, cfg.lens_terms, strict=True))[-_FREED_ROUNDS:]
    try:
        free, free_support = _refine(grey, spec, samples, names_all, fwd, back,
                                     held.resolution_wh, cfg, None, start=held,
                                     rounds=rounds)
        check_camera(free)
    except CalibrationError:
        return held, support
    if free.rms_mm < held.rms_mm:
        return free, free_support
    return held, support


def _refine(
    grey: np.ndarray,
    spec: TableSpec,
    samples: LineSamples,
    names_all: np.ndarray,
    fwd: Projector,
    back: Backprojector,
    resolution_wh: tuple[int, int],
    cfg: NovussFitSettings,
    focal_prior_px: float | None,
    focal_guess_px: float | None = None,
    start: Calibration | None = None,
    rounds: tuple[tuple[float, int], ...] | None = None,
) -> tuple[Calibration, float]:
    """The predict / search / solve rounds of ``fit_novuss`` from a first camera, and the
    fraction of the samples it predicts inside the frame that its last round found on
    their lines and kept. ``start``: a camera to refine (``fwd``/``back`` its own) through
    ``rounds`` of ``(window px, lens terms)`` instead of all of ``cfg``'s."""
    w, h = resolution_wh
    calib = start
    support = 0.0
    if rounds is None:
        rounds = tuple(zip(cfg.windows_px, cfg.lens_terms, strict=True))
    for window, n_lens in rounds:
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
        sub = samples[ok]
        table_xy = _snap_to_lines(sub, back(img))
        names = names_all[sub.line_index].tolist()
        try:
            if calib is None:
                f0, rvec, tvec = initial_camera(img, table_xy, (w, h), focal_guess_px)
                guess = (f0, 0.0, 0.0, rvec, tvec)
            else:
                guess = (float(calib.K[0, 0]), calib.k1, calib.k2,
                         cv2.Rodrigues(calib.R)[0].ravel(), calib.t)
            calib, inlier = solve_on_lines(spec, img, table_xy, _tangents(sub, table_xy),
                                           partial(_snap_to_lines, sub), (w, h), guess,
                                           lens=n_lens, names=names,
                                           focal_prior_px=focal_prior_px)
        except ValueError as exc:
            raise CalibrationError(f"board not found: the camera fit failed ({exc})") from exc
        fwd, back = _calibration_model(calib)
        support = float(inlier.sum()) / max(1, int(valid.sum()))
    assert calib is not None
    return calib, support

