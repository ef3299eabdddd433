"""Automatic pool table calibration from one frame: no markers, only the table itself.

``fit_pool(frame_bgr, spec)`` finds the cloth, fits a rough homography to its outline and
then refines a full camera (``calibration.model.solve``) from two kinds of feature.

The cloth-coloured region is not always the cloth alone: black cloth runs into black
rails, a sleeve the colour of the cloth lies over a rail, a score bar cuts a side. So the
outline comes in candidates (the usual colour tolerance, tighter ones, a wider opening),
each taken first as the noses and then as the rails' outer edge (black cloth runs into
black rails), and each is tried in turn until one leads to a fit that holds. The rough
step fits one straight line per side through the nose edges, the line most of them agree
on (a score bar or an arm gives a run of edges far off); a side that shows none (typically the side
the camera hangs over: its cushion face hides under the nose, and the cloth seems to run
on over the cushion top) keeps the outline's line. The final fit must be held on every
side by nose edges or diamonds, and must explain them within ``max_rms_mm``; otherwise
it is refused rather than returned wrong. Features:

* **Cushion noses.** Along every cushion segment (pocket mouths left out) a profile is read
  across the predicted nose, from the cloth outward, on the luminance image averaged along
  the cushion. The nose is the first place where the image gets markedly darker than the
  cloth: the cushion face (the vertical rubber below the nose) is in shadow, and whatever
  lies beyond it (cushion top, rail) comes later. The edge is placed sub-pixel where the
  profile crosses half-way from the cloth level to the face level. The cloth ends where the
  cushion face meets the slate, i.e. at the nose line at z = ``NOSE_EDGE_Z_MM`` (0: on the
  cloth). A camera straight over the table sees the face from above, so this edge is the
  one line of the cushion that does not move with the viewing angle.
* **Diamonds.** Small bright blobs on the rail tops (z = ``spec.rail_height_mm``), found as
  intensity-weighted centroids near their predicted positions.
* **Rail edges**, only for a side that shows neither nose nor diamonds. A camera hung
  beyond a side cannot see its cushion face (the rail top hides it), so edges found there
  are not taken as the nose; the side is held instead by the rail's inner edge behind the
  cushion top, at the rail height, as far behind the nose as it is measured to be on the
  sides whose noses were found.

When the diamonds disagree with the fit, the side whose edges they contradict (usually the
rail's inner edge taken for the nose of a side the camera hangs beyond) is left out and
the diamonds decide. A side that shows nothing at all (a score bar over its rail) still
holds the fit when the other sides' features fix it (``_side_spread_mm``).

Before a fit is returned, ``check_cloth_sides`` looks at points the fit did not use: the
strip just inside each nose must look like the cloth, and a rail top must not where the
other rails do not. A fit with a side on the wrong edge (80 mm or more off) explains its
own features well and would otherwise be returned silently; it is refused instead, and the
next cloth outline candidate is tried.

An edge sample gives only its distance across the nose line; its position along the line
is taken from the current camera (the sample's back-projection, projected onto the line),
and the fit is iterated (an ICP), so the along-line coordinate carries no information of
its own. Samples that disagree with the fitted camera by more than a few pixels (balls at
the cushion, a cue or an arm over the rail, graphics) are dropped before the next round.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.fit import check_camera
from calibration.model import FOCAL_PRIOR_PX, Calibration, CalibrationError, solve
from calibration.tables import Family, TableSpec

log = logging.getLogger(__name__)

#: Height (mm) of the cloth boundary line: where the cushion face meets the cloth.
NOSE_EDGE_Z_MM = 0.0

#: The first camera fit's pull toward its starting focal length (see
#: ``calibration.model.solve``): strong, since its correspondences are rough.
ROUGH_FOCAL_PRIOR_PX = 10.0
#: Cloth-mask candidates: the colour tolerance scaled by each of these in turn (tighter
#: ones part black cloth from black rails), never below the minimum (Lab units); then the
#: usual tolerance with an opening this wide (px at half resolution: a cue's width).
_CLOTH_TOLERANCE_SCALES = (1.0, 0.6, 0.4)
_MIN_CLOTH_TOLERANCE = 4.0
_WIDE_OPEN_PX = 15
#: The last-resort cloth mask: pixels of the cloth's hue (within this many degrees) at
#: any chroma and lightness within this range of the cloth's (light falling off toward the
#: corners), for cloth with at least this chroma (Lab units; grey and black cloth have no
#: hue to go by); its pieces larger than this share of the frame are joined.
_SHADED_HUE_DEG = 8.0
_SHADED_RANGE = (0.35, 1.6)
_MIN_SHADED_CHROMA = 12.0
_PIECE_FRACTION = 0.01
#: The rail's inner edge behind the cushion top (where a side shows no nose): first
#: looked for this far outward of the noses, within this search (mm), and believed at
#: widths within this range (the cloth-covered cushion top is 35-60 mm on most tables).
_RAIL_SHIFT_GUESS_MM = 45.0
_RAIL_SEARCH_MM = 35.0
_RAIL_SHIFT_RANGE_MM = (15.0, 90.0)
#: A camera beyond a nose line (or less than this many mm inside it, horizontally) cannot
#: see that cushion's face: the edges found there are not taken as the nose. A little
#: further in, the face is thin (42 mm of face seen from 3.5 m, 250 mm in: about a
#: pixel) but the cloth still ends at the nose, within a millimetre.
_FACE_MARGIN_MM = 50.0
#: Most nose samples per cushion (a 4K frame's cushion at 6 px spacing is about 400).
_MAX_SAMPLES_PER_CUSHION = 1000
#: ``min_contrast`` holds for cloth at least this light (L*); on darker cloth it scales
#: with the cloth's lightness, down to this share of it.
_CONTRAST_REF_L = 40.0
_CONTRAST_MIN_SCALE = 0.5
_FACE_SPAN_PX = 1.5
#: A side that shows neither edges nor diamonds holds the fit all the same when the other
#: sides' features fix it within this many mm (one standard deviation, see
#: ``_side_spread_mm``), the features' noise taken as at least this many px.
_MAX_UNHELD_SPREAD_MM = 1.0
_SPREAD_MIN_SIGMA_PX = 0.3
#: Fewest nose edge points that let a side hold the final fit (without two diamonds).
_MIN_SIDE_EDGES = 10
#: Diamonds that disagree with the fit (``_settle_diamond_conflict``): looked into when
#: at least this many were found and fewer than this share agree, and settled when
#: leaving one side's edges out brings this share back.
_CONFLICT_MIN_DIAMONDS = 4
_CONFLICT_AGREE_SHARE = 0.5
#: The rough step's line through a side's edge points: the consensus of this many point
#: pairs, a point agreeing within this many px (a lens bows a side by a few px; the
#: edges of a score bar or an arm lie tens of px off), at least this many agreeing.
_LINE_PAIRS = 200
_LINE_INLIER_PX = 3.0
_MIN_LINE_POINTS = 6

#: The side check (``check_cloth_sides``): table points every ``_CHECK_STEP_MM`` along
#: each side, this far from the corners and the middle pockets; the cloth strip at these
#: depths inside the nose (z = 0), the rail top at these depths outside it (z = rail
#: height, beyond the cloth-covered cushion top and clear of the diamonds).
_CHECK_STEP_MM = 40.0
_CHECK_CORNER_MM = 150.0
_CHECK_SIDE_POCKET_MM = 130.0
_CHECK_CLOTH_DEPTHS_MM = (25.0, 50.0, 75.0, 100.0)
_CHECK_RAIL_DEPTHS_MM = (108.0, 122.0, 132.0)
#: Least colour distance (Lab, L weighted by half) taken as "not the cloth".
_CHECK_MIN_TOLERANCE = 10.0
#: A side whose cloth strip is cloth-coloured on less than this share is off; one whose
#: rail top is cloth-coloured on more than ``_CHECK_MAX_RAIL_CLOTH_SHARE`` while the other
#: rails are on less than ``_CHECK_RAIL_CLOTH_ELSEWHERE`` is off too (black cloth beside
#: black rails leaves the second test silent). A body or a sleeve over part of a side
#: must not trip them: they ask for most of the side.
_CHECK_MIN_CLOTH_SHARE = 0.5
_CHECK_MAX_RAIL_CLOTH_SHARE = 0.6
_CHECK_RAIL_CLOTH_ELSEWHERE = 0.25
#: Fewest in-frame points that let a side take part in the check.
_CHECK_MIN_POINTS = 8

Project = Callable[[np.ndarray], np.ndarray]  # (N, 3) table mm -> (N, 2) px


@dataclass(frozen=True, slots=True)
class PoolFitSettings:
    """Knobs of :func:`fit_pool`; defaults suit broadcast and club overhead cameras.

    ``sample_step_px``: spacing of nose samples along the cushions (smaller: more samples,
    slower, little gain below ~6 px). ``mouth_margin_mm``: how far from each pocket jaw
    sampling starts (the jaws curve into the pocket). ``search_mm``: half-width of the
    first search across the nose, which must cover the rough outline's error; later rounds
    search ``refine_search_mm``. ``min_contrast``: the smallest cloth-to-face luminance
    drop (L* units) taken as an edge; lower finds noses on black cloth but takes more
    texture for edges. ``gate_px``: samples farther than this from the fitted nose are
    dropped. ``rounds``: fit / re-sample rounds after the rough one; the first
    ``pinhole_rounds`` of all rounds fit no lens (a lens fitted to rough along-line
    positions runs away with the focal length). ``max_rms_mm``: the final fit's largest
    RMS residual (nose edges and diamonds mapped back onto the table) taken as a table;
    noses found right fit within about 0.5 mm, while a fit that locked a side onto the
    wrong edge (a rail, a shadow) is left near 1 mm or more; raise it for blurred or
    heavily compressed frames, at the risk of returning such fits. ``rail_max_rms_mm``:
    the same for a fit that holds a side by its rail's inner edge (the side showed no
    nose): that edge and the diamonds sit on the rail top, 42 mm above the noses, and such
    fits leave 1-1.2 mm where they are 1.5-2.5 mm off the truth. ``max_rms_px``: the
    limit never falls below this many pixels at the table centre: the residuals are
    pixel measurements, and a table that fills little of the frame (a broadcast view)
    leaves more millimetres for the same pixels. 0.6 px accepts the compressed 720p of the
    sample clips (correct fits there leave 1.2-1.4 mm, 0.5 px, and are 0.8-1.0 mm off the
    truth); on the 224 benchmark views it changed no verdict (0 silent wrong either way).
    ``diamond_search_mm``: radius of the search around each predicted diamond; it must
    cover the parallax a wrong camera height gives the rail tops, and stay under half the
    diamond spacing. ``fit_edges_max``: the most nose edge points each round's camera
    refit takes (evenly spread; the final fit takes all): fewer is faster, and too few
    lets outliers steer the search.
    """

    sample_step_px: float = 6.0
    mouth_margin_mm: float = 35.0
    search_mm: float = 110.0
    refine_search_mm: float = 30.0
    min_contrast: float = 2.5
    gate_px: float = 1.5
    rounds: int = 3
    pinhole_rounds: int = 2
    max_rms_mm: float = 1.0
    max_rms_px: float = 0.6
    rail_max_rms_mm: float = 1.25
    diamond_search_mm: float = 40.0
    fit_edges_max: int = 160

    def __post_init__(self) -> None:
        if self.sample_step_px <= 0 or self.search_mm <= 0 or self.refine_search_mm <= 0:
            raise ValueError("sample_step_px, search_mm and refine_search_mm must be > 0")
        if self.rounds < 1:
            raise ValueError(f"rounds must be >= 1, got {self.rounds}")
        if min(self.max_rms_mm, self.rail_max_rms_mm, self.max_rms_px,
               self.diamond_search_mm) <= 0:
            raise ValueError(
                "max_rms_mm, rail_max_rms_mm, max_rms_px and diamond_search_mm must be > 0")
        if self.fit_edges_max < 20:
            raise ValueError(f"fit_edges_max must be >= 20, got {self.fit_edges_max}")


# ------------------------------------------------------------------------ the cloth


def _lab(frame_bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(frame_bgr.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)


def cloth_mask(frame_bgr: np.ndarray) -> np.ndarray:
    """uint8 mask of the connected cloth-coloured region through the image centre."""
    return next(_cloth_masks(frame_bgr))


def _cloth_masks(frame_bgr: np.ndarray) -> Iterator[np.ndarray]:
    """Candidate cloth masks, the likeliest first: the connected cloth-coloured region
    through the image centre at the usual colour tolerance, then tighter ones (black
    cloth is close to black rails), then with a wider opening (a cue or a sleeve across
    a rail). Raises ``CalibrationError`` when there is no candidate at all."""
    h, w = frame_bgr.shape[:2]
    small = cv2.resize(frame_bgr, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    lab = _lab(cv2.GaussianBlur(small, (5, 5), 0))
    sh, sw = lab.shape[:2]
    centre = lab[int(sh * 0.3) : int(sh * 0.7), int(sw * 0.3) : int(sw * 0.7)].reshape(-1, 3)
    ref = np.median(centre, axis=0)
    weight = np.array([0.5, 1.0, 1.0], np.float32)
    d = np.linalg.norm((lab - ref) * weight, axis=2)
    spread = float(np.percentile(np.linalg.norm((centre - ref) * weight, axis=1), 75))
    thr0 = max(8.0, 3.0 * spread)
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    wide = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_WIDE_OPEN_PX, _WIDE_OPEN_PX))
    reason = "no table found: no cloth-coloured region in the frame"
    found = False
    for scale, opening in [(sc, k) for sc in _CLOTH_TOLERANCE_SCALES] + [(1.0, wide)]:
        thr = max(_MIN_CLOTH_TOLERANCE, scale * thr0) if scale < 1.0 else thr0
        mask = (d < thr).astype(np.uint8) * 255
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, k)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, opening)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
        if n < 2:
            continue
        # the component covering most of the central box
        cbox = labels[int(sh * 0.3) : int(sh * 0.7), int(sw * 0.3) : int(sw * 0.7)]
        counts = np.bincount(cbox.ravel(), minlength=n)
        counts[0] = 0
        best = int(np.argmax(counts))
        area = stats[best, cv2.CC_STAT_AREA] / (sh * sw)
        if not 0.12 < area < 0.95:
            reason = f"no table found: the cloth-coloured region covers {area:.0%} of the frame"
            continue
        found = True
        out = (labels == best).astype(np.uint8) * 255
        yield cv2.resize(out, (w, h), interpolation=cv2.INTER_NEAREST)
    # Last resorts. Arena light falls off toward the corners and darkens the cloth beyond
    # the colour tolerance, and an arm across the cloth cuts a piece off: the cloth's hue
    # at any brightness, and every large piece of it together.
    chroma_ref = float(np.hypot(ref[1], ref[2]))
    if chroma_ref >= _MIN_SHADED_CHROMA:
        chroma = np.hypot(lab[..., 1], lab[..., 2])
        cos_hue = (lab[..., 1] * ref[1] + lab[..., 2] * ref[2]) / np.maximum(
            chroma * chroma_ref, 1e-6)
        ratio_c, ratio_l = chroma / chroma_ref, lab[..., 0] / max(float(ref[0]), 1e-6)
        shaded = ((cos_hue > np.cos(np.radians(_SHADED_HUE_DEG)))
                  & (ratio_c > _SHADED_RANGE[0]) & (ratio_c < _SHADED_RANGE[1])
                  & (ratio_l > _SHADED_RANGE[0]) & (ratio_l < _SHADED_RANGE[1]))
        mask = cv2.morphologyEx(shaded.astype(np.uint8) * 255, cv2.MORPH_CLOSE, k)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, k)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
        big = [i for i in range(1, n)
               if stats[i, cv2.CC_STAT_AREA] > _PIECE_FRACTION * sh * sw]
        if big:
            out = np.isin(labels, big).astype(np.uint8) * 255
            # one region for ``outline_corners``: the pieces' joint convex hull
            pts = cv2.findNonZero(out)
            hull = cv2.convexHull(pts)
            joined = np.zeros_like(out)
            cv2.fillConvexPoly(joined, hull, 255)
            area = np.count_nonzero(joined) / (sh * sw)
            if 0.12 < area < 0.95:
                found = True
                yield cv2.resize(joined, (w, h), interpolation=cv2.INTER_NEAREST)
    if not found:
        raise CalibrationError(reason)


def _line_through(pts: np.ndarray) -> np.ndarray:
    vx, vy, x0, y0 = cv2.fitLine(pts.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.cross([x0, y0, 1.0], [x0 + vx, y0 + vy, 1.0])


def outline_corners(mask: np.ndarray, start: str = "hull") -> np.ndarray:
    """The four corners ``(4, 2)`` of the cloth outline, as sides fitted with lines.

    ``start="hull"`` takes the sides from the convex hull simplified to four corners;
    ``start="rect"`` from the hull's minimum-area rectangle, each side then narrowed onto
    the outline points that agree with it: when a hand or a sleeve cuts a corner off the
    cloth, the simplified hull puts a corner on the cut, the rectangle does not."""
    if start not in ("hull", "rect"):
        raise ValueError(f"start must be 'hull' or 'rect', got {start!r}")
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    cnt = max(contours, key=cv2.contourArea).reshape(-1, 2).astype(float)
    hull = cv2.convexHull(cnt.astype(np.float32))
    quad = None
    if start == "rect":
        quad = cv2.boxPoints(cv2.minAreaRect(hull)).astype(float)
    else:
        peri = cv2.arcLength(hull, True)
        for eps in np.linspace(0.01, 0.12, 23):
            approx = cv2.approxPolyDP(hull, eps * peri, True).reshape(-1, 2)
            if len(approx) == 4:
                quad = approx.astype(float)
                break
    if quad is None or not cv2.isContourConvex(quad.astype(np.float32)):
        raise CalibrationError("no table found: the cloth outline is not a quadrilateral")
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        ab = b - a
        length = float(np.linalg.norm(ab))
        u = ab / length
        n = np.array([-u[1], u[0]])
        s = (cnt - a) @ u
        dist = np.abs((cnt - a) @ n)
        mid = (s > 0.15 * length) & (s < 0.85 * length)
        if start == "hull":
            sel = mid & (dist < max(6.0, 0.02 * length))
            lines.append(_line_through(cnt[sel]) if sel.sum() >= 10
                         else np.cross([*a, 1], [*b, 1]))
            continue
        sel = mid & (dist < max(6.0, 0.1 * length))
        ln = np.cross([*a, 1], [*b, 1])
        for _ in range(4):
            if sel.sum() < 10:
                raise CalibrationError("no table found: a side of the cloth outline is lost")
            ln = _line_through(cnt[sel])
            ln = ln / np.linalg.norm(ln[:2])
            d = np.abs(cnt @ ln[:2] + ln[2])
            sel = mid & (d < max(3.0, 3.0 * float(np.median(d[sel]))))
        lines.append(ln)
    corners = []
    for i in range(4):
        p = np.cross(lines[i - 1], lines[i])
        if abs(p[2]) < 1e-9:
            raise CalibrationError("no table found: parallel sides in the cloth outline")
        corners.append(p[:2] / p[2])
    return np.array(corners)


def _assign_corners(corners_px: np.ndarray) -> np.ndarray:
    """Order image corners to match ``spec.corners_xy_mm()`` (-x-y, +x-y, +x+y, -x+y).

    +x runs along the table's longer image side, toward image right (landscape) or image
    bottom (portrait); +y is +x turned a quarter counter-clockwise as seen in the image.
    """
    c = corners_px
    side = np.linalg.norm(np.roll(c, -1, axis=0) - c, axis=1)
    long_pair = 0 if side[0] + side[2] >= side[1] + side[3] else 1
    a = c[(long_pair + 1) % 4] - c[long_pair]
    b = c[(long_pair + 3) % 4] - c[(long_pair + 2) % 4]
    u = a / np.linalg.norm(a) - b / np.linalg.norm(b)  # sides 0 and 2 run opposite ways
    u /= np.linalg.norm(u)
    if (abs(u[0]) >= abs(u[1]) and u[0] < 0) or (abs(u[0]) < abs(u[1]) and u[1] < 0):
        u = -u
    v = np.array([u[1], -u[0]])  # image y points down: (1, 0) -> (0, -1)
    rel = c - c.mean(axis=0)
    su, sv = np.sign(rel @ u), np.sign(rel @ v)
    out = np.zeros((4, 2))
    for k, (sx, sy) in enumerate(((-1, -1), (1, -1), (1, 1), (-1, 1))):
        hit = np.nonzero((su == sx) & (sv == sy))[0]
        if len(hit) != 1:
            raise CalibrationError("no table found: cannot order the cloth outline's corners")
        out[k] = c[hit[0]]
    return out


# --------------------------------------------------------------------- the features


def _nose_samples(  # type: ignore[no-untyped-def]
    spec: TableSpec,
    project: Project,
    settings: PoolFitSettings,
    shift_mm: float = 0.0,
    z_mm: float = NOSE_EDGE_Z_MM,
    only: frozenset[int] | None = None,
):
    """Table points on the nose lines, about ``sample_step_px`` apart, with their cushion's
    inward normal and index; with ``shift_mm``, on lines that far outward of the noses
    (seen at height ``z_mm``), and with ``only``, on those cushions alone."""
    pts, normals, idx = [], [], []
    for ci, c in enumerate(spec.cushions):
        if only is not None and ci not in only:
            continue
        a, b = np.asarray(c.a_xy_mm), np.asarray(c.b_xy_mm)
        u = (b - a) / c.length_mm
        a, b = a + u * settings.mouth_margin_mm, b - u * settings.mouth_margin_mm
        a, b = a - shift_mm * np.asarray(c.normal_xy), b - shift_mm * np.asarray(c.normal_xy)
        ends = project(np.array([[*a, z_mm], [*b, z_mm]]))
        span = float(np.linalg.norm(ends[1] - ends[0]))
        # a camera gone wild can put a cushion kilometres of pixels long: cap the count
        n = int(np.clip(span / settings.sample_step_px, 2, _MAX_SAMPLES_PER_CUSHION)
                ) if np.isfinite(span) else 2
        s = np.linspace(0.0, 1.0, n)[:, None]
        pts.append(a + s * (b - a))
        normals.append(np.repeat([c.normal_xy], n, axis=0))
        idx.append(np.full(n, ci))
    if not pts:
        return np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0, int)
    return np.concatenate(pts), np.concatenate(normals), np.concatenate(idx)


def _find_edges(
    lum: np.ndarray,
    spec: TableSpec,
    project: Project,
    search_mm: float,
    settings: PoolFitSettings,
    shift_mm: float = 0.0,
    z_mm: float = NOSE_EDGE_Z_MM,
    only: frozenset[int] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Nose edge pixels ``(M, 2)``, the cushion index and table seed point of each; with
    ``shift_mm``/``z_mm``/``only``, the edges of lines beyond the noses (see
    ``_nose_samples``): the rail's inner edge behind the cushion top."""
    xy, nrm, idx = _nose_samples(spec, project, settings, shift_mm, z_mm, only)
    if len(xy) == 0:
        return np.zeros((0, 2)), np.zeros(0, int), np.zeros((0, 2))
    z = z_mm
    inner = project(np.column_stack([xy + nrm * search_mm, np.full(len(xy), z)]))
    outer = project(np.column_stack([xy - nrm * search_mm, np.full(len(xy), z)]))
    mid = project(np.column_stack([xy, np.full(len(xy), z)]))
    along = project(np.column_stack([xy + nrm[:, ::-1] * [1, -1] * 10.0, np.full(len(xy), z)]))
    ok = np.all(np.isfinite(inner) & np.isfinite(outer) & np.isfinite(along), axis=1)
    length = np.linalg.norm(outer - inner, axis=1)
    ok &= length < 0.5 * max(lum.shape)
    step = 0.25
    if not ok.any():
        return np.zeros((0, 2)), np.zeros(0, int), np.zeros((0, 2))
    m = int(np.ceil(np.nanmax(np.where(ok, length, 0)) / step)) + 1
    t = np.arange(m) * step  # px from the inner end, outward
    out_dir = (outer - inner) / np.maximum(length, 1e-9)[:, None]
    tan = along - mid
    tan /= np.maximum(np.linalg.norm(tan, axis=1), 1e-9)[:, None]
    offs = np.array([-2.0, -1.0, 0.0, 1.0, 2.0])
    # (N, O, M, 2) sample positions: parallel profiles averaged along the cushion
    pos = (
        inner[:, None, None, :]
        + offs[None, :, None, None] * tan[:, None, None, :]
        + t[None, None, :, None] * out_dir[:, None, None, :]
    )
    mx = pos[..., 0].reshape(len(xy), -1).astype(np.float32)
    my = pos[..., 1].reshape(len(xy), -1).astype(np.float32)
    prof = cv2.remap(lum, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                     borderValue=np.nan)
    prof = prof.reshape(len(xy), len(offs), m).mean(axis=1)
    h, w = lum.shape
    # The cloth level and noise of each profile: median and MAD of its inner quarter (all
    # profiles at once; NaN past each one's own quarter sorts last).
    n_all = (np.where(ok, length, 0.0) / step).astype(int)
    n_drop = np.maximum(4, n_all // 4)
    cols = np.arange(int(n_drop.max()))
    drop = np.where(cols[None, :] < n_drop[:, None], prof[:, : len(cols)], np.nan)
    level_all = _row_median(drop, n_drop)
    noise_all = 1.4826 * _row_median(np.abs(drop - level_all[:, None]), n_drop)
    # Per profile (all at once): the first place markedly darker than the cloth, then the
    # half-way crossing before it.
    rows = np.arange(len(xy))
    col = np.arange(prof.shape[1])
    inside = col[None, :] <= n_all[:, None]
    usable = ok & (n_all + 1 >= 12) & np.all(np.isfinite(prof) | ~inside, axis=1)
    # the face's shadow takes a share of the cloth's light: on dark cloth (black, purple,
    # navy) the drop in L* is a fraction of what it is on a bright one
    dark = np.clip(level_all / _CONTRAST_REF_L, _CONTRAST_MIN_SCALE, 1.0)
    thr = np.maximum(settings.min_contrast * np.nan_to_num(dark, nan=1.0), 4.0 * noise_all)
    s = np.where(inside, level_all[:, None] - prof, -np.inf)  # rises where darker than cloth
    s = np.nan_to_num(s, nan=-np.inf)
    above = s > thr[:, None]
    j0 = np.argmax(above, axis=1)
    usable &= above[rows, j0] & (j0 >= 4)
    # a sharp step (the shaded cushion face), not the cushion top's slow darkening
    span = np.minimum(j0[:, None] + np.arange(int(_FACE_SPAN_PX / step) + 1)[None, :],
                      prof.shape[1] - 1)
    in_span = s[rows[:, None], span]
    level_face = np.max(in_span, axis=1)
    j_face = span[rows, np.argmax(in_span, axis=1)]  # the face's darkest sample
    before = s[rows, np.maximum(0, j0 - int(2.0 / step))]
    with np.errstate(invalid="ignore"):
        usable &= level_face - before >= 2.0 * thr
    # walk back from the face's darkest sample to the half-level crossing, interpolate
    # linearly (from the darkest sample, not from the first one past the threshold: a
    # threshold under half the drop would put the crossing outside its two samples)
    half = level_face / 2
    below = (s < half[:, None]) & (col[None, :] < j_face[:, None])
    j = np.where(below.any(axis=1), np.max(np.where(below, col[None, :], -1), axis=1) + 1, 0)
    usable &= j > 0
    j = np.maximum(j, 1)
    s_j, s_prev = s[rows, j], s[rows, j - 1]
    usable &= np.isfinite(s_j) & np.isfinite(s_prev) & (s_j > s_prev)
    with np.errstate(invalid="ignore", divide="ignore"):
        tj = (j - 1) + (half - s_prev) / (s_j - s_prev)
        px = inner + out_dir * (tj * step)[:, None]
    usable &= np.all(np.isfinite(px), axis=1)
    usable &= (px[:, 0] >= 0) & (px[:, 0] < w) & (px[:, 1] >= 0) & (px[:, 1] < h)
    return px[usable], idx[usable], xy[usable]


def _row_median(a: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Median of the first ``count[i]`` entries of each row of ``a`` (the rest NaN)."""
    srt = np.sort(a, axis=1)  # NaN last
    c = np.clip(count, 1, a.shape[1])
    lo = np.take_along_axis(srt, ((c - 1) // 2)[:, None], axis=1)[:, 0]
    hi = np.take_along_axis(srt, (c // 2)[:, None], axis=1)[:, 0]
    return 0.5 * (lo + hi)


def _find_diamonds(
    gray: np.ndarray, spec: TableSpec, project: Project, radius_px: float
) -> tuple[np.ndarray, np.ndarray]:
    """Diamond centroids ``(M, 2)`` and the index of each in ``spec.diamonds_xy_mm``."""
    d = np.asarray(spec.diamonds_xy_mm, float)
    if len(d) == 0:
        return np.zeros((0, 2)), np.zeros(0, int)
    pred = project(np.column_stack([d, np.full(len(d), spec.rail_height_mm)]))
    h, w = gray.shape
    r = int(np.ceil(radius_px))
    found, which = [], []
    for i, (u, v) in enumerate(pred):
        if not (np.isfinite(u) and np.isfinite(v)):
            continue
        x0, y0, x1, y1 = int(u) - r, int(v) - r, int(u) + r + 2, int(v) + r + 2
        if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
            continue
        win = gray[y0:y1, x0:x1]
        bg = float(np.median(win))
        peak = float(win.max())
        if peak - bg < 40.0:
            continue
        wgt = np.clip(win - (bg + 0.5 * (peak - bg)), 0, None)
        lab_n, lab = cv2.connectedComponents((wgt > 0).astype(np.uint8))
        py, px_ = np.unravel_index(int(np.argmax(win)), win.shape)
        wgt = np.where(lab == lab[py, px_], wgt, 0.0)
        area = int((wgt > 0).sum())
        if area < 2 or area > 0.5 * win.size:
            continue
        # the blob must not touch the window edge (a cue, a ball or a logo, not a diamond)
        if wgt[0].any() or wgt[-1].any() or wgt[:, 0].any() or wgt[:, -1].any():
            continue
        # centroid of the blob grown by one pixel, weighted by brightness above background
        grown = cv2.dilate((wgt > 0).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        wf = np.where(grown, np.clip(win - bg, 0, None), 0.0)
        yy, xx = np.mgrid[0 : win.shape[0], 0 : win.shape[1]]
        total = wf.sum()
        found.append([x0 + (wf * xx).sum() / total, y0 + (wf * yy).sum() / total])
        which.append(i)
    return np.array(found).reshape(-1, 2), np.array(which, int)


# --------------------------------------------------------------------------- the fit


def _on_nose(spec: TableSpec, idx: np.ndarray, xy_mm: np.ndarray) -> np.ndarray:
    """Each point moved across onto its cushion's nose line, kept within the segment."""
    out = np.empty_like(xy_mm)
    for ci, c in enumerate(spec.cushions):
        sel = idx == ci
        if not sel.any():
            continue
        a, b = np.asarray(c.a_xy_mm), np.asarray(c.b_xy_mm)
        s = np.clip(((xy_mm[sel] - a) @ (b - a)) / float((b - a) @ (b - a)), 0.0, 1.0)
        out[sel] = a + s[:, None] * (b - a)
    return out


def fit_pool(
    frame_bgr: np.ndarray, spec: TableSpec, settings: PoolFitSettings | None = None
) -> Calibration:
    """Calibrate the camera from one frame of a pool table (no markers).

    Raises :class:`CalibrationError` when no table is found or the fit does not hold.
    Orientation: +x along the table's longer image side toward image right (landscape) or
    image bottom (portrait); which end is the foot is resolved elsewhere.
    """
    if spec.family is not Family.POOL:
        raise ValueError(f"fit_pool needs a pool table, got {spec.name!r}")
    if frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3:
        raise ValueError(f"frame_bgr must be (H, W, 3), got {frame_bgr.shape}")
    st = settings or PoolFitSettings()
    h, w = frame_bgr.shape[:2]
    frame_bgr = np.ascontiguousarray(frame_bgr, dtype=np.uint8)
    lab = _lab(frame_bgr)
    lum = np.ascontiguousarray(lab[..., 0])
    gray = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)

    # The cloth's outline is only a start, and the cloth-coloured region is not always the
    # cloth alone (black cloth beside black rails, a sleeve the colour of the cloth over a
    # rail): each candidate outline in turn, until one leads to a fit that holds.
    first: CalibrationError | None = None
    for mask in _cloth_masks(frame_bgr):
        for start in ("hull", "rect"):
            try:
                corners_px = _assign_corners(outline_corners(mask, start))
            except CalibrationError as exc:
                first = first or exc
                log.debug("cloth outline candidate failed: %s", exc)
                continue
            # the outline is the cloth's end (the noses) or, where the rails are the
            # cloth's colour (black on black), the rails' outer edge
            for outward_mm in (0.0, spec.rail_width_mm):
                try:
                    calib = _fit_from_corners(lum, gray, spec, corners_px, st, outward_mm)
                    check_camera(calib)
                    check_cloth_sides(lab, calib)
                    return calib
                except CalibrationError as exc:
                    first = first or exc
                    log.debug("cloth outline candidate (%s, %.0f mm out) failed: %s",
                              start, outward_mm, exc)
    assert first is not None
    raise first


def _fit_from_corners(
    lum: np.ndarray,
    gray: np.ndarray,
    spec: TableSpec,
    corners_px: np.ndarray,
    st: PoolFitSettings,
    outward_mm: float = 0.0,
) -> Calibration:
    """The fit of :func:`fit_pool` from a rough outline's corners (``spec`` order), taken
    to lie ``outward_mm`` outward of the nose rectangle's corners (lens and the rail's
    height ignored: the rough step only needs the noses within its search)."""
    h, w = lum.shape
    corners_mm = spec.corners_xy_mm()
    corners_mm = corners_mm + np.sign(corners_mm) * outward_mm
    H = cv2.getPerspectiveTransform(
        corners_mm.astype(np.float32), corners_px.astype(np.float32)
    )

    def project_h(xyz: np.ndarray) -> np.ndarray:
        p = np.column_stack([xyz[:, :2], np.ones(len(xyz))]) @ H.T
        return p[:, :2] / p[:, 2:3]

    project: Project = project_h
    # Rough: straight lines through the nose edges of each side give the nose rectangle's
    # corners (lens bending ignored), twice, the second time searching closer.
    for search in (st.search_mm, 0.5 * st.search_mm):
        edge_px, edge_i, seeds = _find_edges(lum, spec, project, search, st)
        H = _nose_homography(spec, edge_px, edge_i, H)
        project = _homography_projector(H)
    search = st.refine_search_mm
    calib: Calibration | None = None
    n_rounds, rnd = st.rounds + 1, -1
    while rnd + 1 < n_rounds:
        rnd += 1
        edge_px, edge_i, seeds = _find_edges(lum, spec, project, search, st)
        if calib is not None:
            # a nose the camera cannot see is no nose: what was found there is another
            # edge (the rail's, behind the cushion top)
            seen = ~np.isin(edge_i, list(_hidden_cushions(calib)))
            edge_px, edge_i, seeds = edge_px[seen], edge_i[seen], seeds[seen]
        if len(edge_px) < 20:
            raise CalibrationError(
                f"no table found: only {len(edge_px)} cushion edge points were seen"
            )
        ppm = _px_per_mm(project)
        # the diamonds sit on the rail tops: their parallax depends on the camera's height,
        # which a nearly straight-down view hardly fixes until the diamonds themselves do,
        # so their search does not narrow with the noses'
        dia_px, dia_i = _find_diamonds(gray, spec, project,
                                       max(4.0, st.diamond_search_mm * ppm))
        dia_xyz = np.column_stack([
            np.asarray(spec.diamonds_xy_mm, float).reshape(-1, 2)[dia_i],
            np.full(len(dia_i), spec.rail_height_mm),
        ])
        try:
            if calib is None:
                edge_xy = _on_nose(spec, edge_i, seeds)
                xyz = np.column_stack([edge_xy, np.full(len(edge_xy), NOSE_EDGE_Z_MM)])
                # the along-line positions are still rough: hold the focal length
                calib = solve(spec, edge_px, xyz, (w, h), lens=False,
                              focal_prior_px=ROUGH_FOCAL_PRIOR_PX)
            calib = _fit_lines(calib, edge_px, edge_i, dia_px, dia_xyz, st,
                               ROUGH_FOCAL_PRIOR_PX if rnd == 0 else FOCAL_PRIOR_PX)
            settled = _settle_diamond_conflict(calib, edge_px, edge_i, dia_px, dia_xyz, st)
            if settled is not None:
                # one side's edges were another edge: look for its nose again (or learn
                # that it is hidden) from the camera the diamonds agree with
                calib = settled
                n_rounds = max(n_rounds, rnd + 2)
        except ValueError as exc:
            raise CalibrationError(f"no table found: {exc}") from exc
        project = _calib_projector(calib)
        search = min(st.refine_search_mm, 15.0)
        log.debug("round %d: %d edges, %d diamonds", rnd, len(edge_px), len(dia_px))
    assert calib is not None
    seen = ~np.isin(edge_i, list(_hidden_cushions(calib)))
    edge_px, edge_i = edge_px[seen], edge_i[seen]
    # A side that shows no nose (the camera hangs beyond it: the rail top hides the
    # cushion face) is held by the rail's inner edge behind its cushion top instead.
    rail_px, rail_i, rail_shift = np.zeros((0, 2)), np.zeros(0, int), 0.0
    found = _bare_side_rails(lum, spec, calib, edge_px, edge_i, dia_px, dia_xyz, st)
    if found is not None:
        calib, rail_px, rail_i, rail_shift = found
    # The final fit by the shared solver, with each edge point's along-line position taken
    # from the converged camera: it reports per-feature residuals and drops outliers.
    edge_xy = _on_nose(spec, edge_i, calib.to_table(edge_px, NOSE_EDGE_Z_MM))
    rail_n = np.array([spec.cushions[i].normal_xy for i in rail_i], float).reshape(-1, 2)
    rail_xy = _on_nose(spec, rail_i, calib.to_table(rail_px, spec.rail_height_mm)
                       + rail_shift * rail_n) - rail_shift * rail_n
    px = np.concatenate([edge_px, rail_px, dia_px])
    xyz = np.concatenate([
        np.column_stack([edge_xy, np.full(len(edge_xy), NOSE_EDGE_Z_MM)]),
        np.column_stack([rail_xy, np.full(len(rail_xy), spec.rail_height_mm)]),
        dia_xyz,
    ])
    err = np.linalg.norm(calib.to_image(xyz[:, :2], xyz[:, 2]) - px, axis=1)
    keep = err < max(st.gate_px, 2.5 * float(np.median(err)))
    names = ([f"nose_{spec.cushions[i].name}" for i in edge_i]
             + [f"rail_{spec.cushions[i].name}" for i in rail_i] + ["diamond"] * len(dia_px))
    edge_i = np.concatenate([edge_i, rail_i])  # the sides' edges, for the checks below
    try:
        # k1 only, from the converged camera, as in the rounds: edges along the outline
        # barely tell k2 from the focal length, and a free k2 runs away
        calib = solve(spec, px[keep], xyz[keep], (w, h),
                      names=[n for n, k in zip(names, keep, strict=True) if k],
                      lens=1, start=calib)
    except ValueError as exc:
        raise CalibrationError(f"no table found: {exc}") from exc
    max_rms = st.rail_max_rms_mm if len(rail_px) else st.max_rms_mm
    # the residuals are pixel measurements: a table small in the frame leaves more mm
    max_rms = max(max_rms, st.max_rms_px / _px_per_mm(_calib_projector(calib)))
    if not np.isfinite(calib.rms_mm) or calib.rms_mm > max_rms:
        raise CalibrationError(f"no table found: the fit leaves {calib.rms_mm:.1f} mm rms")
    n_dia_kept = int(keep[len(edge_i) :].sum())
    log.debug("final: %d of %d diamonds kept", n_dia_kept, len(dia_px))
    # Diamonds found where the camera puts them but far from where it maps them: a side
    # locked onto the wrong edge (the rail behind a cushion top that looks like cloth).
    if len(dia_px) >= 4 and n_dia_kept < 0.5 * len(dia_px):
        raise CalibrationError(
            f"no table found: the fit disagrees with {len(dia_px) - n_dia_kept} of the "
            f"{len(dia_px)} diamonds seen"
        )
    n_e, ek, dk = len(edge_i), keep[: len(edge_i)], keep[len(edge_i) :]

    def spread() -> np.ndarray:
        n_rail = len(rail_px)
        z_e = np.concatenate([np.full(n_e - n_rail, NOSE_EDGE_Z_MM),
                              np.full(n_rail, spec.rail_height_mm)])
        sh_e = np.concatenate([np.zeros(n_e - n_rail), np.full(n_rail, rail_shift)])
        return _side_spread_mm(calib, px[:n_e][ek], edge_i[ek], z_e[ek], sh_e[ek],
                               px[n_e:][dk], dia_xyz[dk])

    _check_sides(spec, edge_i[ek], dia_xyz[dk, :2], spread)
    return calib


def _diamonds_agreeing(calib: Calibration, dia_px: np.ndarray, dia_xyz: np.ndarray,
                       tol_px: float) -> int:
    if len(dia_px) == 0:
        return 0
    err = np.linalg.norm(calib.to_image(dia_xyz[:, :2], dia_xyz[:, 2]) - dia_px, axis=1)
    return int(np.sum(err < tol_px))


def _settle_diamond_conflict(
    calib: Calibration,
    edge_px: np.ndarray,
    edge_i: np.ndarray,
    dia_px: np.ndarray,
    dia_xyz: np.ndarray,
    st: PoolFitSettings,
) -> Calibration | None:
    """The camera refitted without one side's edges, when the diamonds say that side's
    edges are not its nose; ``None`` when the diamonds agree with the fit (or no side
    explains them).

    The usual case: the camera hangs beyond a side (or nearly), so that side shows the
    rail's inner edge behind the cushion top, about 40 mm outward of the nose, and no
    nose. A fit that takes it for the nose is 40 mm off on that side, and the side's
    hundred edge points outvote the few diamonds that say so; with the side left out the
    diamonds are explained again. The side whose removal lets the most diamonds agree
    wins, and it must bring most of them back."""
    n_dia = len(dia_px)
    tol = 2.0 * st.gate_px
    if n_dia < _CONFLICT_MIN_DIAMONDS:
        return None
    agree = _diamonds_agreeing(calib, dia_px, dia_xyz, tol)
    if agree >= _CONFLICT_AGREE_SHARE * n_dia:
        return None
    members, counts = _side_keys(calib.spec, edge_i)
    best: tuple[int, Calibration] | None = None
    for k in range(4):
        if counts[k] == 0:
            continue
        rest = ~np.isin(edge_i, list(members[k]))
        if rest.sum() < 20:
            continue
        c = _fit_lines(calib, edge_px[rest], edge_i[rest], dia_px, dia_xyz, st)
        a = _diamonds_agreeing(c, dia_px, dia_xyz, tol)
        if best is None or a > best[0]:
            best = (a, c)
    if best is None or best[0] < _CONFLICT_AGREE_SHARE * n_dia or best[0] <= agree:
        return None
    log.debug("diamonds disagreed with a side's edges: %d of %d agree without it", best[0],
              n_dia)
    return best[1]


def _hidden_cushions(calib: Calibration) -> frozenset[int]:
    """Cushions whose face (below the nose, down to the cloth) the camera cannot see, or
    sees too thin to place an edge on: the camera hangs beyond the nose line or within
    ``_FACE_MARGIN_MM`` of it, horizontally."""
    spec = calib.spec
    c = calib.camera_centre_mm[:2]
    return frozenset(
        i for i, cu in enumerate(spec.cushions)
        if float(np.dot(c - np.asarray(cu.a_xy_mm), cu.normal_xy)) < _FACE_MARGIN_MM
    )


def _side_keys(spec: TableSpec, edge_i: np.ndarray) -> tuple[list[frozenset[int]], np.ndarray]:
    """The cushion indices of each side (-x, +x, -y, +y) and each side's edge count."""
    keys = ((1, 0), (-1, 0), (0, 1), (0, -1))
    members = [frozenset(i for i, c in enumerate(spec.cushions)
                         if (round(c.normal_xy[0]), round(c.normal_xy[1])) == key)
               for key in keys]
    counts = np.array([int(np.isin(edge_i, list(m)).sum()) for m in members])
    return members, counts


def _bare_side_rails(
    lum: np.ndarray,
    spec: TableSpec,
    calib: Calibration,
    edge_px: np.ndarray,
    edge_i: np.ndarray,
    dia_px: np.ndarray,
    dia_xyz: np.ndarray,
    st: PoolFitSettings,
) -> tuple[Calibration, np.ndarray, np.ndarray, float] | None:
    """For sides that show too few nose edges: the rail's inner edge (where the cushion
    top ends, at the rail height) on those sides, and the camera refitted with it.

    A camera beyond a side (its nadir outside the table) cannot see that side's cushion
    face: the rail top hides it and the cloth seems to run on into the cushion top, so the
    side shows no nose. Its rail's inner edge is still there, a known distance behind the
    nose: that distance (the cushion top's width, which varies between tables) is measured
    on the sides whose noses were found. Returns ``None`` when no side is bare or the
    rail edges are not found (then the usual checks refuse the fit)."""
    members, counts = _side_keys(spec, edge_i)
    # a side whose diamonds hold it needs no rail edge (and is better without one)
    hx, hy = spec.half_wh_mm
    outward = np.array([(-1, 0), (1, 0), (0, -1), (0, 1)], float)
    half = np.array([hx, hx, hy, hy])
    n_dia = ((dia_xyz[:, :2] @ outward.T > half).sum(axis=0) if len(dia_xyz)
             else np.zeros(4, int))
    bare = [k for k in range(4) if counts[k] < _MIN_SIDE_EDGES and n_dia[k] < 2]
    good = [k for k in range(4) if counts[k] >= 3 * _MIN_SIDE_EDGES]
    if not bare or len(good) < 2:
        return None
    z = spec.rail_height_mm
    project = _calib_projector(calib)
    on_good = frozenset().union(*(members[k] for k in good))
    px, idx, _ = _find_edges(lum, spec, project, _RAIL_SEARCH_MM, st, _RAIL_SHIFT_GUESS_MM,
                             z, on_good)
    if len(px) < 2 * _MIN_SIDE_EDGES:
        return None
    nrm = np.array([spec.cushions[i].normal_xy for i in idx], float)
    nose = np.sum(np.array([spec.cushions[i].a_xy_mm for i in idx], float) * nrm, axis=1)
    width = nose - np.sum(calib.to_table(px, z) * nrm, axis=1)  # outward of the nose
    shift = float(np.median(width))
    spread = float(np.median(np.abs(width - shift)))
    if not _RAIL_SHIFT_RANGE_MM[0] < shift < _RAIL_SHIFT_RANGE_MM[1] or spread > 5.0:
        log.debug("rail edge behind the cushion tops not found (%.1f +- %.1f mm)", shift,
                  spread)
        return None
    on_bare = frozenset().union(*(members[k] for k in bare))
    rail_px, rail_i = np.zeros((0, 2)), np.zeros(0, int)
    for search in (st.search_mm * 0.5, st.refine_search_mm, 15.0):
        rail_px, rail_i, _ = _find_edges(lum, spec, project, search, st, shift, z, on_bare)
        if len(rail_px) < _MIN_SIDE_EDGES * len(bare):
            return None
        calib = _fit_lines(calib, edge_px, edge_i, dia_px, dia_xyz, st,
                           rail=(rail_px, rail_i, shift, z))
        project = _calib_projector(calib)
    log.debug("bare sides %s held by %d rail edge points %.1f mm behind the noses", bare,
              len(rail_px), shift)
    return calib, rail_px, rail_i, shift


def _side_points(spec: TableSpec, depths_mm: tuple[float, ...], step_mm: float
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Table points ``(N, 2)`` along each side at each depth (mm inward of the nose line,
    negative: outward), away from the pockets, and the side index (0..3: -x, +x, -y, +y)."""
    hx, hy = spec.half_wh_mm
    pts, side = [], []
    for k, normal in enumerate(((1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0))):
        n = np.array(normal)
        tangent = np.array([-n[1], n[0]])
        half_across, half_along = (hx, hy) if n[0] else (hy, hx)
        s = np.arange(-half_along + _CHECK_CORNER_MM, half_along - _CHECK_CORNER_MM, step_mm)
        if not n[0]:  # the long sides' middle pockets
            s = s[np.abs(s) > _CHECK_SIDE_POCKET_MM]
        for d in depths_mm:
            pts.append((d - half_across) * n + s[:, None] * tangent)
            side.append(np.full(len(s), k))
    return np.concatenate(pts), np.concatenate(side)


def check_cloth_sides(lab: np.ndarray, calib: Calibration) -> None:
    """``CalibrationError`` when a side of the fitted table contradicts the image: its cloth
    strip (just inside the nose) is not cloth-coloured, or its rail top is cloth-coloured
    while the other rails are not. A fit that put a side on the wrong edge (a rail edge, a
    shadow, the cloth's end beyond a cushion top) can explain its own features and still be
    a hundred millimetres off; this test uses none of the fit's features, only the colours
    the fitted camera predicts at table points it did not fit.

    ``lab`` is the frame in Lab (float, L in 0..100), as ``_lab`` makes it."""
    spec = calib.spec
    h, w = lab.shape[:2]
    in_xy, in_side = _side_points(spec, _CHECK_CLOTH_DEPTHS_MM, _CHECK_STEP_MM)
    rail_xy, rail_side = _side_points(spec, tuple(-d for d in _CHECK_RAIL_DEPTHS_MM),
                                      _CHECK_STEP_MM)

    def sample(xy: np.ndarray, z: float) -> tuple[np.ndarray, np.ndarray]:
        px = calib.to_image(xy, z)
        ok = np.all(np.isfinite(px), axis=1)
        ok &= (px[:, 0] >= 2) & (px[:, 0] < w - 2) & (px[:, 1] >= 2) & (px[:, 1] < h - 2)
        px = np.where(ok[:, None], px, 0.0).astype(np.float32)
        col = cv2.remap(lab, px[:, 0:1], px[:, 1:2], cv2.INTER_LINEAR).reshape(-1, 3)
        return col, ok

    in_col, in_ok = sample(in_xy, 0.0)
    rail_col, rail_ok = sample(rail_xy, spec.rail_height_mm)
    if in_ok.sum() < 20:
        return
    weight = np.array([0.5, 1.0, 1.0], np.float32)
    ref = np.median(in_col[in_ok], axis=0)
    d_in = np.linalg.norm((in_col - ref) * weight, axis=1)
    d_rail = np.linalg.norm((rail_col - ref) * weight, axis=1)
    thr = max(_CHECK_MIN_TOLERANCE, 2.5 * float(np.median(d_in[in_ok])))
    f_in, f_rail = np.full(4, np.nan), np.full(4, np.nan)
    for k in range(4):
        sel = in_ok & (in_side == k)
        if sel.sum() >= _CHECK_MIN_POINTS:
            f_in[k] = float(np.mean(d_in[sel] < thr))
        sel = rail_ok & (rail_side == k)
        if sel.sum() >= _CHECK_MIN_POINTS:
            f_rail[k] = float(np.mean(d_rail[sel] < thr))
    names = ("-x", "+x", "-y", "+y")
    for k in range(4):
        if f_in[k] < _CHECK_MIN_CLOTH_SHARE:
            raise CalibrationError(
                f"no table found: the fit's {names[k]} side is off (only {f_in[k]:.0%} of "
                f"the strip inside its cushion looks like the cloth)")
        others = np.delete(f_rail, k)
        others = others[np.isfinite(others)]
        if (f_rail[k] > _CHECK_MAX_RAIL_CLOTH_SHARE and len(others)
                and float(np.median(others)) < _CHECK_RAIL_CLOTH_ELSEWHERE):
            raise CalibrationError(
                f"no table found: the fit's {names[k]} side is off ({f_rail[k]:.0%} of its "
                f"rail top looks like the cloth, the other rails do not)")


def _side_spread_mm(
    calib: Calibration,
    edge_px: np.ndarray,
    edge_i: np.ndarray,
    edge_z: np.ndarray,
    edge_shift: np.ndarray,
    dia_px: np.ndarray,
    dia_xyz: np.ndarray,
) -> np.ndarray:
    """How far (mm, one standard deviation) each side's nose line (-x, +x, -y, +y) could
    move while the fit's features stay explained: the camera's covariance from the
    features (edges across their lines, diamonds in both directions, the focal pull),
    carried to points along each side.

    A side that shows neither edges nor diamonds (a score bar over its rail, the camera
    hung beyond it) is still fixed when the other sides' features pin the camera: the
    table's size is known, and diamonds along the adjacent rails fix the scale toward it.
    Three sides held by edges alone fix the fourth only loosely (focal length, lens and
    camera height trade off; about 1.4 mm on a straight-down 720p view); diamonds along
    the adjacent rails fix it (0.5-0.7 mm). The noise is the fit's own residual (at least
    ``_SPREAD_MIN_SIGMA_PX``); a direction no feature fixes at all gets a huge spread
    (a tiny ridge), not zero."""
    spec = calib.spec
    w, h = calib.resolution_wh
    cx, cy = w / 2, h / 2
    nrm = np.array([spec.cushions[i].normal_xy for i in edge_i], float).reshape(-1, 2)
    a = np.array([spec.cushions[i].a_xy_mm for i in edge_i], float).reshape(-1, 2)
    offset = np.sum(a * nrm, axis=1) - edge_shift
    ppm = _px_per_mm(_calib_projector(calib))
    p0 = np.concatenate([[calib.K[0, 0], calib.k1], cv2.Rodrigues(calib.R)[0].ravel(),
                         calib.t])
    hx, hy = spec.half_wh_mm
    s = np.linspace(-1.0, 1.0, 5)
    side_xy = np.concatenate([
        np.column_stack([np.full(5, -hx), s * hy]), np.column_stack([np.full(5, hx), s * hy]),
        np.column_stack([s * hx, np.full(5, -hy)]), np.column_stack([s * hx, np.full(5, hy)]),
    ])
    w_prior = FOCAL_PRIOR_PX * np.sqrt(len(edge_px) + len(dia_px))

    def unpack(p: np.ndarray) -> Calibration:
        K = np.array([[p[0], 0.0, cx], [0.0, p[0], cy], [0.0, 0.0, 1.0]])
        return Calibration(spec, K, float(p[1]), 0.0, cv2.Rodrigues(p[2:5])[0], p[5:8], (w, h))

    def residual(p: np.ndarray) -> np.ndarray:
        c = unpack(p)
        r_e = (np.sum(c.to_table(edge_px, edge_z) * nrm, axis=1) - offset) * ppm
        r_d = (c.to_image(dia_xyz[:, :2], dia_xyz[:, 2]) - dia_px).ravel()
        return np.concatenate([r_e, r_d, [w_prior * (p[0] - p0[0]) / p0[0]]])

    def sides(p: np.ndarray) -> np.ndarray:
        return unpack(p).to_image(side_xy, 0.0).ravel()

    r0, q0 = residual(p0), sides(p0)
    step = np.array([1e-4 * p0[0], 1e-4, 1e-5, 1e-5, 1e-5, *(1e-4 * np.abs(p0[5:8]) + 1e-3)])
    J = np.empty((len(r0), len(p0)))
    G = np.empty((len(q0), len(p0)))
    for i in range(len(p0)):
        p = p0.copy()
        p[i] += step[i]
        J[:, i] = residual(p) - r0
        G[:, i] = sides(p) - q0
    sigma = max(_SPREAD_MIN_SIGMA_PX, float(np.sqrt(np.mean(r0[:-1] ** 2))))
    JtJ = J.T @ J
    ridge = 1e-12 * float(np.trace(JtJ)) + 1e-30
    cov = sigma**2 * np.linalg.inv(JtJ + ridge * np.eye(len(p0)))
    var = np.einsum("ij,jk,ik->i", G, cov, G).reshape(4, 5, 2).sum(axis=2)
    spread: np.ndarray = np.sqrt(np.max(var, axis=1)) / ppm
    return spread


def _check_sides(spec: TableSpec, edge_i: np.ndarray, dia_xy_mm: np.ndarray,
                 spread_mm: Callable[[], np.ndarray] | None = None) -> None:
    """``CalibrationError`` unless every side of the table holds the fit: its cushion
    edges or its rail's diamonds, or else (with ``spread_mm``, the sides' spreads of
    ``_side_spread_mm``, asked for only when needed) the other sides' features fix it
    within ``_MAX_UNHELD_SPREAD_MM``. Three sides held by edges alone leave the fourth
    free to slide (the edges fix only the distance across each nose line) and the fit can
    be far off while its residuals stay small; diamonds along the adjacent rails fix it."""
    hx, hy = spec.half_wh_mm
    normals = np.array([c.normal_xy for c in spec.cushions], float)[edge_i]
    spreads: np.ndarray | None = None
    for k, (key, name) in enumerate((((1, 0), "-x"), ((-1, 0), "+x"), ((0, 1), "-y"),
                                     ((0, -1), "+y"))):
        n_edges = int(np.sum(np.all(np.round(normals) == key, axis=1))) if len(edge_i) else 0
        # diamonds on this side's rail lie beyond its nose line
        outward = -np.asarray(key, float)
        half = hx if key[0] else hy
        n_dia = int(np.sum(dia_xy_mm @ outward > half)) if len(dia_xy_mm) else 0
        if n_edges < _MIN_SIDE_EDGES and n_dia < 2:
            if spread_mm is not None:
                spreads = spread_mm() if spreads is None else spreads
                log.debug("the %s side shows no features; the others fix it within "
                          "%.2f mm", name, spreads[k])
                if spreads[k] <= _MAX_UNHELD_SPREAD_MM:
                    continue
            raise CalibrationError(
                f"no table found: the {name} side shows neither its cushion edge nor its "
                f"diamonds ({n_edges} edge points, {n_dia} diamonds)"
            )


def _fit_lines(
    start: Calibration,
    edge_px: np.ndarray,
    edge_i: np.ndarray,
    dia_px: np.ndarray,
    dia_xyz: np.ndarray,
    st: PoolFitSettings,
    focal_prior_px: float = FOCAL_PRIOR_PX,
    rail: tuple[np.ndarray, np.ndarray, float, float] | None = None,
) -> Calibration:
    """Refit the camera: edge points to their nose lines (distance across the line only),
    diamonds to their points; robust, then plain on the points it explains. ``rail``:
    more edge points ``(px, cushion index, shift mm, z mm)`` on lines ``shift`` outward
    of their noses at height ``z`` (the rail's inner edge, where a cushion shows no nose)."""
    from scipy.optimize import least_squares

    if len(edge_px) > st.fit_edges_max:
        # evenly along the outline: the rounds only steer the search; the final fit by
        # ``solve`` takes every edge point
        sub = np.linspace(0, len(edge_px) - 1, st.fit_edges_max).round().astype(int)
        edge_px, edge_i = edge_px[sub], edge_i[sub]
    edge_z = np.full(len(edge_px), NOSE_EDGE_Z_MM)
    edge_shift = np.zeros(len(edge_px))
    if rail is not None and len(rail[0]):
        edge_px = np.concatenate([edge_px, rail[0]])
        edge_i = np.concatenate([edge_i, rail[1]])
        edge_z = np.concatenate([edge_z, np.full(len(rail[0]), rail[3])])
        edge_shift = np.concatenate([edge_shift, np.full(len(rail[0]), rail[2])])
    spec = start.spec
    w, h = start.resolution_wh
    cx, cy = w / 2, h / 2
    nrm = np.array([spec.cushions[i].normal_xy for i in edge_i], float).reshape(-1, 2)
    a = np.array([spec.cushions[i].a_xy_mm for i in edge_i], float).reshape(-1, 2)
    offset = np.sum(a * nrm, axis=1) - edge_shift  # n . p = offset on the (shifted) line
    ppm = _px_per_mm(_calib_projector(start))

    def unpack(p: np.ndarray) -> Calibration:
        K = np.array([[p[0], 0.0, cx], [0.0, p[0], cy], [0.0, 0.0, 1.0]])
        R = cv2.Rodrigues(p[3:6])[0]
        return Calibration(spec, K, float(p[1]), 0.0, R, p[6:9].copy(), (w, h))

    def residual(p: np.ndarray, e_sel: np.ndarray, d_sel: np.ndarray) -> np.ndarray:
        c = unpack(p)
        xy = c.to_table(edge_px[e_sel], edge_z[e_sel])
        r_e = (np.sum(xy * nrm[e_sel], axis=1) - offset[e_sel]) * ppm
        r_d = (c.to_image(dia_xyz[d_sel, :2], dia_xyz[d_sel, 2]) - dia_px[d_sel]).ravel()
        return np.concatenate([r_e, r_d])

    # k2 stays 0 here: edges on the outline alone barely tell k2 from the focal length.
    p0 = np.concatenate([[start.K[0, 0], start.k1, 0.0],
                         cv2.Rodrigues(start.R)[0].ravel(), start.t])
    e_all, d_all = np.ones(len(edge_px), bool), np.ones(len(dia_px), bool)
    free = np.array([0, 1, 3, 4, 5, 6, 7, 8])

    # the weak pull toward the starting focal length of ``solve`` (a table seen nearly
    # head-on does not fix it)
    w_prior = focal_prior_px * np.sqrt(len(edge_px) + len(dia_px))

    def res_free(q: np.ndarray, e_sel: np.ndarray, d_sel: np.ndarray) -> np.ndarray:
        p = p0.copy()
        p[free] = q
        return np.append(residual(p, e_sel, d_sel), w_prior * (p[0] - p0[0]) / p0[0])

    fit = least_squares(res_free, p0[free], loss="soft_l1", f_scale=1.0, x_scale="jac",
                        args=(e_all, d_all))
    r = fit.fun[:-1]
    r_e = np.abs(r[: len(edge_px)])
    r_d = np.linalg.norm(r[len(edge_px) :].reshape(-1, 2), axis=1)
    thr = max(st.gate_px, 3.0 * float(np.median(r_e)))
    e_sel, d_sel = r_e < thr, r_d < 2 * thr
    if e_sel.sum() >= 20:
        fit = least_squares(res_free, fit.x, x_scale="jac", args=(e_sel, d_sel))
    p = p0.copy()
    p[free] = fit.x
    return unpack(p)


def _homography_projector(H: np.ndarray) -> Project:
    def project(xyz: np.ndarray) -> np.ndarray:
        p = np.column_stack([xyz[:, :2], np.ones(len(xyz))]) @ H.T
        return p[:, :2] / p[:, 2:3]

    return project


def _nose_homography(
    spec: TableSpec, edge_px: np.ndarray, edge_i: np.ndarray, H_prev: np.ndarray
) -> np.ndarray:
    """Table z = 0 -> image homography from one straight line per side through the edges.

    A side whose cushions show too few edges keeps its line from ``H_prev``: a camera
    above that side sees the cushion face from straight above, where it hides under the
    nose and the cloth seems to run on over the cushion top (also a hand or a score bar
    over a whole rail). At least three sides must show their edge."""
    if len(edge_px) < 20:
        raise CalibrationError(f"no table found: only {len(edge_px)} cushion edge points")
    normals = np.array([c.normal_xy for c in spec.cushions], float)
    hx, hy = spec.half_wh_mm
    lines: dict[tuple[int, int], np.ndarray] = {}
    missing = []
    for key in {(int(round(nx)), int(round(ny))) for nx, ny in normals}:
        members = [i for i, n in enumerate(normals) if (round(n[0]), round(n[1])) == key]
        ln = _robust_line(edge_px[np.isin(edge_i, members)])
        if ln is None:
            missing.append(key)
            # the side's line as the previous homography has it
            ends = np.array([[-key[0] * hx, -key[1] * hy], [-key[0] * hx, -key[1] * hy]], float)
            ends[:, 1 if key[0] else 0] = (-1.0, 1.0)
            ends[:, 1 if key[0] else 0] *= hy if key[0] else hx
            e = _homography_projector(H_prev)(np.column_stack([ends, np.zeros(2)]))
            ln = np.cross([*e[0], 1.0], [*e[1], 1.0])
        lines[key] = ln
    if len(missing) > 1:
        raise CalibrationError(
            f"no table found: {len(missing)} cushion sides show no straight edge"
        )
    img, tab = [], []
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        p = np.cross(lines[(-sx, 0)], lines[(0, -sy)])
        img.append(p[:2] / p[2])
        tab.append((sx * hx, sy * hy))
    return cv2.getPerspectiveTransform(np.float32(tab), np.float32(img))


def _robust_line(pts: np.ndarray) -> np.ndarray | None:
    """The straight line (``a x + b y + c = 0``, unit normal) that most of ``pts`` lie on,
    or ``None`` when too few agree on one.

    A side's edge points are not all its nose: a score bar over a rail, a cue or an arm
    gives a run of edges far from it, a third of the side or more, which pulls a
    least-squares (even a Huber) line between the two. The line is the consensus of
    point pairs (within ``_LINE_INLIER_PX``; a deterministic sample), refined on the
    points it explains."""
    n = len(pts)
    if n < _MIN_LINE_POINTS:
        return None
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, n, (2, _LINE_PAIRS))
    sel = a != b
    a, b = a[sel], b[sel]
    p, q = pts[a], pts[b]
    nrm = np.column_stack([p[:, 1] - q[:, 1], q[:, 0] - p[:, 0]])
    length = np.linalg.norm(nrm, axis=1)
    sel = length > 1e-6
    nrm = nrm[sel] / length[sel, None]
    c = -np.sum(nrm * p[sel], axis=1)
    d = np.abs(pts @ nrm.T + c)  # (N, pairs)
    best = int(np.argmax((d < _LINE_INLIER_PX).sum(axis=0))) if len(c) else 0
    keep = d[:, best] < _LINE_INLIER_PX if len(c) else np.ones(n, bool)
    ln: np.ndarray | None = None
    for _ in range(3):
        if keep.sum() < _MIN_LINE_POINTS:
            return None
        ln = _line_through(pts[keep])
        ln = ln / np.linalg.norm(ln[:2])
        dist = np.abs(pts @ ln[:2] + ln[2])
        keep = dist < max(1.5, 3.0 * float(np.median(dist[keep])))
    return ln


def _calib_projector(calib: Calibration) -> Project:
    def project(xyz: np.ndarray) -> np.ndarray:
        return calib.to_image(xyz[:, :2], xyz[:, 2])

    return project


def _px_per_mm(project: Project) -> float:
    p = project(np.array([[0.0, 0.0, 0.0], [100.0, 0.0, 0.0], [0.0, 100.0, 0.0]]))
    return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 200.0)
