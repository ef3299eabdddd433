"""Automatic pool table calibration from one frame: no markers, only the table itself.

``fit_pool(frame_bgr, spec)`` finds the cloth, fits a rough homography to its outline and
then refines a full camera (``calibration.model.solve``) from two kinds of feature:

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

An edge sample gives only its distance across the nose line; its position along the line
is taken from the current camera (the sample's back-projection, projected onto the line),
and the fit is iterated (an ICP), so the along-line coordinate carries no information of
its own. Samples that disagree with the fitted camera by more than a few pixels (balls at
the cushion, a cue or an arm over the rail, graphics) are dropped before the next round.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.model import Calibration, CalibrationError, solve
from calibration.tables import Family, TableSpec

log = logging.getLogger(__name__)

#: Height (mm) of the cloth boundary line: where the cushion face meets the cloth.
NOSE_EDGE_Z_MM = 0.0

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
    positions runs away with the focal length).
    """

    sample_step_px: float = 6.0
    mouth_margin_mm: float = 35.0
    search_mm: float = 110.0
    refine_search_mm: float = 30.0
    min_contrast: float = 2.5
    gate_px: float = 1.5
    rounds: int = 4
    pinhole_rounds: int = 2

    def __post_init__(self) -> None:
        if self.sample_step_px <= 0 or self.search_mm <= 0 or self.refine_search_mm <= 0:
            raise ValueError("sample_step_px, search_mm and refine_search_mm must be > 0")
        if self.rounds < 1:
            raise ValueError(f"rounds must be >= 1, got {self.rounds}")


# ------------------------------------------------------------------------ the cloth


def _lab(frame_bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(frame_bgr.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)


def cloth_mask(frame_bgr: np.ndarray) -> np.ndarray:
    """uint8 mask of the connected cloth-coloured region through the image centre."""
    h, w = frame_bgr.shape[:2]
    small = cv2.resize(frame_bgr, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    lab = _lab(cv2.GaussianBlur(small, (5, 5), 0))
    sh, sw = lab.shape[:2]
    centre = lab[int(sh * 0.3) : int(sh * 0.7), int(sw * 0.3) : int(sw * 0.7)].reshape(-1, 3)
    ref = np.median(centre, axis=0)
    weight = np.array([0.5, 1.0, 1.0], np.float32)
    d = np.linalg.norm((lab - ref) * weight, axis=2)
    spread = float(np.percentile(np.linalg.norm((centre - ref) * weight, axis=1), 75))
    thr = max(8.0, 3.0 * spread)
    mask = (d < thr).astype(np.uint8) * 255
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, k)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, k)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if n < 2:
        raise CalibrationError("no table found: no cloth-coloured region in the frame")
    # the component covering most of the central box
    cbox = labels[int(sh * 0.3) : int(sh * 0.7), int(sw * 0.3) : int(sw * 0.7)]
    counts = np.bincount(cbox.ravel(), minlength=n)
    counts[0] = 0
    best = int(np.argmax(counts))
    area = stats[best, cv2.CC_STAT_AREA] / (sh * sw)
    if not 0.12 < area < 0.95:
        raise CalibrationError(
            f"no table found: the cloth-coloured region covers {area:.0%} of the frame"
        )
    out = (labels == best).astype(np.uint8) * 255
    return cv2.resize(out, (w, h), interpolation=cv2.INTER_NEAREST)


def _line_through(pts: np.ndarray) -> np.ndarray:
    vx, vy, x0, y0 = cv2.fitLine(pts.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.cross([x0, y0, 1.0], [x0 + vx, y0 + vy, 1.0])


def outline_corners(mask: np.ndarray) -> np.ndarray:
    """The four corners ``(4, 2)`` of the cloth outline, as sides fitted with lines."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    cnt = max(contours, key=cv2.contourArea).reshape(-1, 2).astype(float)
    hull = cv2.convexHull(cnt.astype(np.float32))
    peri = cv2.arcLength(hull, True)
    quad = None
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
        sel = (s > 0.15 * length) & (s < 0.85 * length) & (dist < max(6.0, 0.02 * length))
        lines.append(_line_through(cnt[sel]) if sel.sum() >= 10 else np.cross([*a, 1], [*b, 1]))
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


def _nose_samples(spec: TableSpec, project: Project, settings: PoolFitSettings):  # type: ignore[no-untyped-def]
    """Table points on the nose lines, about ``sample_step_px`` apart, with their cushion's
    inward normal and index."""
    pts, normals, idx = [], [], []
    for ci, c in enumerate(spec.cushions):
        a, b = np.asarray(c.a_xy_mm), np.asarray(c.b_xy_mm)
        u = (b - a) / c.length_mm
        a, b = a + u * settings.mouth_margin_mm, b - u * settings.mouth_margin_mm
        ends = project(np.array([[*a, NOSE_EDGE_Z_MM], [*b, NOSE_EDGE_Z_MM]]))
        n = max(2, int(np.linalg.norm(ends[1] - ends[0]) / settings.sample_step_px))
        s = np.linspace(0.0, 1.0, n)[:, None]
        pts.append(a + s * (b - a))
        normals.append(np.repeat([c.normal_xy], n, axis=0))
        idx.append(np.full(n, ci))
    return np.concatenate(pts), np.concatenate(normals), np.concatenate(idx)


def _find_edges(
    lum: np.ndarray,
    spec: TableSpec,
    project: Project,
    search_mm: float,
    settings: PoolFitSettings,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Nose edge pixels ``(M, 2)``, the cushion index and table seed point of each."""
    xy, nrm, idx = _nose_samples(spec, project, settings)
    z = NOSE_EDGE_Z_MM
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
    found_px, found_i, seeds = [], [], []
    for k in range(len(xy)):
        if not ok[k]:
            continue
        n_k = int(length[k] / step)
        p = prof[k, : n_k + 1]
        if len(p) < 12 or not np.all(np.isfinite(p)):
            continue
        drop = p[0 : max(4, n_k // 4)]
        level_in = float(np.median(drop))
        noise = 1.4826 * float(np.median(np.abs(drop - level_in)))
        thr = max(settings.min_contrast, 4.0 * noise)
        s = level_in - p  # rises where the image gets darker than the cloth
        above = np.nonzero(s > thr)[0]
        if len(above) == 0:
            continue
        j0 = int(above[0])
        if j0 < 4:
            continue
        top = s[j0 : j0 + int(1.5 / step) + 1]
        level_face = float(top.max())
        # a sharp step (the shaded cushion face), not the cushion top's slow darkening
        if level_face - s[max(0, j0 - int(2.0 / step))] < 2.0 * thr:
            continue
        half = level_face / 2
        # walk back to the half-level crossing, interpolate linearly
        j = j0
        while j > 0 and s[j - 1] >= half:
            j -= 1
        if j == 0 or s[j] <= s[j - 1]:
            continue
        tj = (j - 1) + (half - s[j - 1]) / (s[j] - s[j - 1])
        px = inner[k] + out_dir[k] * tj * step
        if 0 <= px[0] < w and 0 <= px[1] < h:
            found_px.append(px)
            found_i.append(idx[k])
            seeds.append(xy[k])
    if not found_px:
        return np.zeros((0, 2)), np.zeros(0, int), np.zeros((0, 2))
    return np.array(found_px), np.array(found_i), np.array(seeds)


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
    lum = _lab(frame_bgr)[..., 0]
    gray = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)

    corners_px = _assign_corners(outline_corners(cloth_mask(frame_bgr)))
    H = cv2.getPerspectiveTransform(
        spec.corners_xy_mm().astype(np.float32), corners_px.astype(np.float32)
    )

    def project_h(xyz: np.ndarray) -> np.ndarray:
        p = np.column_stack([xyz[:, :2], np.ones(len(xyz))]) @ H.T
        return p[:, :2] / p[:, 2:3]

    project: Project = project_h
    # Rough: straight lines through the nose edges of each side give the nose rectangle's
    # corners (lens bending ignored), twice, the second time searching closer.
    for search in (st.search_mm, 0.5 * st.search_mm):
        edge_px, edge_i, seeds = _find_edges(lum, spec, project, search, st)
        H = _nose_homography(spec, edge_px, edge_i)
        project = _homography_projector(H)
    search = st.refine_search_mm
    calib: Calibration | None = None
    for rnd in range(st.rounds + 1):
        edge_px, edge_i, seeds = _find_edges(lum, spec, project, search, st)
        if len(edge_px) < 20:
            raise CalibrationError(
                f"no table found: only {len(edge_px)} cushion edge points were seen"
            )
        ppm = _px_per_mm(project)
        dia_px, dia_i = _find_diamonds(gray, spec, project, max(4.0, search * ppm * 0.6))
        dia_xyz = np.column_stack([
            np.asarray(spec.diamonds_xy_mm, float).reshape(-1, 2)[dia_i],
            np.full(len(dia_i), spec.rail_height_mm),
        ])
        try:
            if calib is None:
                edge_xy = _on_nose(spec, edge_i, seeds)
                xyz = np.column_stack([edge_xy, np.full(len(edge_xy), NOSE_EDGE_Z_MM)])
                calib = solve(spec, edge_px, xyz, (w, h), lens=False)
            calib = _fit_lines(calib, edge_px, edge_i, dia_px, dia_xyz, st)
        except ValueError as exc:
            raise CalibrationError(f"no table found: {exc}") from exc
        project = _calib_projector(calib)
        search = min(st.refine_search_mm, 15.0)
        log.debug("round %d: %d edges, %d diamonds", rnd, len(edge_px), len(dia_px))
    assert calib is not None
    # The final fit by the shared solver, with each edge point's along-line position taken
    # from the converged camera: it reports per-feature residuals and drops outliers.
    edge_xy = _on_nose(spec, edge_i, calib.to_table(edge_px, NOSE_EDGE_Z_MM))
    px = np.concatenate([edge_px, dia_px])
    xyz = np.concatenate(
        [np.column_stack([edge_xy, np.full(len(edge_xy), NOSE_EDGE_Z_MM)]), dia_xyz]
    )
    err = np.linalg.norm(calib.to_image(xyz[:, :2], xyz[:, 2]) - px, axis=1)
    keep = err < max(st.gate_px, 2.5 * float(np.median(err)))
    names = [f"nose_{spec.cushions[i].name}" for i in edge_i] + ["diamond"] * len(dia_px)
    try:
        calib = solve(spec, px[keep], xyz[keep], (w, h),
                      names=[n for n, k in zip(names, keep, strict=True) if k])
    except ValueError as exc:
        raise CalibrationError(f"no table found: {exc}") from exc
    if not np.isfinite(calib.rms_mm) or calib.rms_mm > 10.0:
        raise CalibrationError(f"no table found: the fit leaves {calib.rms_mm:.1f} mm rms")
    return calib


def _fit_lines(
    start: Calibration,
    edge_px: np.ndarray,
    edge_i: np.ndarray,
    dia_px: np.ndarray,
    dia_xyz: np.ndarray,
    st: PoolFitSettings,
) -> Calibration:
    """Refit the camera: edge points to their nose lines (distance across the line only),
    diamonds to their points; robust, then plain on the points it explains."""
    from scipy.optimize import least_squares

    spec = start.spec
    w, h = start.resolution_wh
    cx, cy = w / 2, h / 2
    nrm = np.array([spec.cushions[i].normal_xy for i in edge_i], float)
    a = np.array([spec.cushions[i].a_xy_mm for i in edge_i], float)
    offset = np.sum(a * nrm, axis=1)  # n . p = offset on the nose line
    ppm = _px_per_mm(_calib_projector(start))

    def unpack(p: np.ndarray) -> Calibration:
        K = np.array([[p[0], 0.0, cx], [0.0, p[0], cy], [0.0, 0.0, 1.0]])
        R = cv2.Rodrigues(p[3:6])[0]
        return Calibration(spec, K, float(p[1]), 0.0, R, p[6:9].copy(), (w, h))

    def residual(p: np.ndarray, e_sel: np.ndarray, d_sel: np.ndarray) -> np.ndarray:
        c = unpack(p)
        xy = c.to_table(edge_px[e_sel], NOSE_EDGE_Z_MM)
        r_e = (np.sum(xy * nrm[e_sel], axis=1) - offset[e_sel]) * ppm
        r_d = (c.to_image(dia_xyz[d_sel, :2], dia_xyz[d_sel, 2]) - dia_px[d_sel]).ravel()
        return np.concatenate([r_e, r_d])

    # k2 stays 0 here: edges on the outline alone barely tell k2 from the focal length.
    p0 = np.concatenate([[start.K[0, 0], start.k1, 0.0],
                         cv2.Rodrigues(start.R)[0].ravel(), start.t])
    e_all, d_all = np.ones(len(edge_px), bool), np.ones(len(dia_px), bool)
    free = np.array([0, 1, 3, 4, 5, 6, 7, 8])

    def res_free(q: np.ndarray, e_sel: np.ndarray, d_sel: np.ndarray) -> np.ndarray:
        p = p0.copy()
        p[free] = q
        return residual(p, e_sel, d_sel)

    fit = least_squares(res_free, p0[free], loss="soft_l1", f_scale=1.0, x_scale="jac",
                        args=(e_all, d_all))
    r = fit.fun
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


def _nose_homography(spec: TableSpec, edge_px: np.ndarray, edge_i: np.ndarray) -> np.ndarray:
    """Table z = 0 -> image homography from one straight line per side through the edges."""
    if len(edge_px) < 20:
        raise CalibrationError(f"no table found: only {len(edge_px)} cushion edge points")
    normals = np.array([c.normal_xy for c in spec.cushions], float)
    lines: dict[tuple[int, int], np.ndarray] = {}
    for key in {(int(round(nx)), int(round(ny))) for nx, ny in normals}:
        members = [i for i, n in enumerate(normals) if (round(n[0]), round(n[1])) == key]
        pts = edge_px[np.isin(edge_i, members)]
        if len(pts) < 6:
            raise CalibrationError("no table found: a cushion side shows no edge")
        keep = np.ones(len(pts), bool)
        for _ in range(3):
            ln = _line_through(pts[keep])
            ln = ln / np.linalg.norm(ln[:2])
            d = np.abs(pts @ ln[:2] + ln[2])
            keep = d < max(1.5, 3.0 * float(np.median(d[keep])))
            if keep.sum() < 6:
                raise CalibrationError("no table found: a cushion side is not straight")
        lines[key] = ln
    img, tab = [], []
    hx, hy = spec.half_wh_mm
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        p = np.cross(lines[(-sx, 0)], lines[(0, -sy)])
        img.append(p[:2] / p[2])
        tab.append((sx * hx, sy * hy))
    return cv2.getPerspectiveTransform(np.float32(tab), np.float32(img))


def _calib_projector(calib: Calibration) -> Project:
    def project(xyz: np.ndarray) -> np.ndarray:
        return calib.to_image(xyz[:, :2], xyz[:, 2])

    return project


def _px_per_mm(project: Project) -> float:
    p = project(np.array([[0.0, 0.0, 0.0], [100.0, 0.0, 0.0], [0.0, 100.0, 0.0]]))
    return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 200.0)
