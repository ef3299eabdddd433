"""Fit a camera to image points that each lie somewhere on a known table line.

``calibration.model.solve`` fits point-to-point correspondences. A finder that searches
across printed lines knows only *which line* a pixel shows, not where along it: pinning
each pixel to the table point an earlier camera mapped it to (a sliding correspondence, as
in ICP) bakes that camera's error along the line into the next fit, and the rounds creep
toward the answer (a frame with a strong lens stalled 2-3 mm off after five rounds). Here
each residual is the pixel's distance *across* its line, in the image (point-to-line, the
"point-to-plane" of ICP): sliding along the line is free, so a fit converges in one go.

The camera model is ``calibration.model``'s (focal length, k1/k2, pose; principal point at
the image centre, square pixels). The solver is a small Levenberg-Marquardt with the
analytic Jacobian of ``cv2.projectPoints`` and a soft-L1 loss (iteratively reweighted),
then a plain fit on the points it explains, as ``solve`` does: a hand, a cue or a pawn
over a line must not bend the camera. Nine parameters and a few hundred points need no
large linear algebra (a multi-threaded SVD of the tall Jacobian cost more than the rest
of a fit on a busy machine).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from calibration.model import Calibration, focal_from_homography
from calibration.tables import TableSpec

#: Scale of the soft-L1 loss (px across the line): residuals beyond it count less and less.
ROBUST_SCALE_PX = 2.0
#: After the robust fit, points further across their line than this (px), or than 3 times
#: the median, are dropped for the final plain fit.
INLIER_PX = 3.0
#: Pull toward the starting focal length, as ``calibration.model.FOCAL_PRIOR_PX``.
FOCAL_PRIOR_PX = 0.5
#: Levenberg-Marquardt stops when a step lowers the cost by less than this fraction.
LM_TOL = 1e-6

Snapper = Callable[[np.ndarray], np.ndarray]  # table xy (N, 2) -> nearest on own line


def initial_camera(
    image_px: np.ndarray,
    table_xy_mm: np.ndarray,
    resolution_wh: tuple[int, int],
    focal_guess_px: float | None = None,
) -> tuple[float, np.ndarray, np.ndarray]:
    """A first lens-free camera ``(f, rvec, tvec)`` from rough correspondences on z = 0:
    the pose for a few focal lengths, the one the points' homography implies first; of
    those that explain the points about as well as the best, the likeliest wins (seen from
    straight above a flat board hardly tells one focal length from another).
    ``ValueError`` when none gives a pose."""
    w, h = resolution_wh
    cx, cy = w / 2, h / 2
    xyz = np.column_stack([table_xy_mm, np.zeros(len(table_xy_mm))]).astype(np.float64)
    px = np.asarray(image_px, np.float64)
    if focal_guess_px is not None:
        prefs: tuple[float, ...] = (focal_guess_px,)
    else:
        prefs = (0.9 * w, 1.3 * w, 0.6 * w, 2.0 * w)
        f_h = focal_from_homography(px, table_xy_mm, cx, cy)
        if f_h is not None and 0.25 * w < f_h < 8.0 * w:
            prefs = (f_h, *prefs)
    guesses = []
    for f0 in prefs:
        K0 = np.array([[f0, 0.0, cx], [0.0, f0, cy], [0.0, 0.0, 1.0]])
        ok, rvec, tvec = cv2.solvePnP(xyz, px, K0, None, flags=cv2.SOLVEPNP_ITERATIVE)
        if not ok:
            continue
        proj, _ = cv2.projectPoints(xyz, rvec, tvec, K0, None)
        err = float(np.median(np.sum((proj.reshape(-1, 2) - px) ** 2, axis=1)))
        guesses.append((err, f0, rvec.ravel(), tvec.ravel()))
    if not guesses:
        raise ValueError("no camera pose explains these points")
    least = min(g[0] for g in guesses)
    _, f0, rvec, tvec = next(g for g in guesses if g[0] <= 1.25 * least + 1.0)
    return float(f0), rvec, tvec


def solve_on_lines(
    spec: TableSpec,
    image_px: np.ndarray,
    on_line_xy_mm: np.ndarray,
    tangent_xy: np.ndarray,
    snap: Snapper,
    resolution_wh: tuple[int, int],
    start: tuple[float, float, float, np.ndarray, np.ndarray],
    *,
    lens: int,
    names: list[str],
    focal_prior_px: float | None = None,
    relinearise: int = 1,
) -> tuple[Calibration, np.ndarray]:
    """Fit focal length, ``lens`` radial terms (0, 1 or 2) and pose so that each of
    ``image_px`` ``(N, 2)`` lies on its table line.

    ``on_line_xy_mm`` ``(N, 2)``: a point of each pixel's line near where it is seen, and
    ``tangent_xy`` the line's unit direction there; ``snap`` maps table points onto their
    own lines (the same order). ``start``: ``(f, k1, k2, rvec, tvec)``; lens terms beyond
    ``lens`` are set to 0. The points are re-snapped with the new camera ``relinearise``
    times (a circle's tangent turns as a point slides). ``rms_mm`` and ``residuals_mm``
    are the inliers' distances to their lines on the board, per line name. Returns the
    camera and which points it kept as inliers. ``ValueError`` with fewer than 6 points.
    """
    px = np.asarray(image_px, np.float64).reshape(-1, 2)
    if len(px) < 6:
        raise ValueError(f"need at least 6 points to fit a camera, got {len(px)}")
    w, h = resolution_wh
    cx, cy = w / 2, h / 2
    f0, k1, k2, rvec, tvec = start
    p = np.concatenate([[f0, k1 if lens >= 1 else 0.0, k2 if lens >= 2 else 0.0],
                        np.ravel(rvec), np.ravel(tvec)]).astype(np.float64)
    free = np.array([True, lens >= 1, lens >= 2] + [True] * 6)
    w_prior = (FOCAL_PRIOR_PX if focal_prior_px is None else focal_prior_px) * np.sqrt(len(px))
    f_ref = float(f0)
    on_line = np.asarray(on_line_xy_mm, np.float64)
    tangent = np.asarray(tangent_xy, np.float64)
    inlier = np.ones(len(px), bool)
    for k in range(relinearise + 1):
        if k:
            calib = _calibration(spec, p, (w, h))
            on_line = snap(calib.to_table(px))
        xyz = np.column_stack([on_line, np.zeros(len(on_line))])
        n_img = _image_normals(p, xyz, tangent, cx, cy)
        p = _lm(p, free, xyz, px, n_img, w_prior, f_ref, cx, cy, robust=True)
        r = np.abs(_residuals(p, xyz, px, n_img, cx, cy)[0])
        inlier = r < max(INLIER_PX, 3.0 * float(np.median(r)))
        if inlier.sum() < 6:
            inlier[:] = True
        elif not inlier.all():
            p = _lm(p, free, xyz[inlier], px[inlier], n_img[inlier], w_prior, f_ref, cx, cy,
                    robust=False)
    calib = _calibration(spec, p, (w, h))
    back = calib.to_table(px[inlier])
    err = np.linalg.norm(back - snap(calib.to_table(px))[inlier], axis=1)
    kept = [n for n, ok in zip(names, inlier, strict=True) if ok]
    kept_arr = np.array(kept)
    per = {name: float(np.sqrt(np.mean(err[kept_arr == name] ** 2)))
           for name in dict.fromkeys(kept)}
    out = Calibration(spec, calib.K, calib.k1, calib.k2, calib.R, calib.t, (w, h),
                      rms_mm=float(np.sqrt(np.mean(err ** 2))), residuals_mm=per,
                      features=tuple(dict.fromkeys(kept)))
    return out, inlier


def _calibration(spec: TableSpec, p: np.ndarray, resolution_wh: tuple[int, int]) -> Calibration:
    w, h = resolution_wh
    K = np.array([[p[0], 0.0, w / 2], [0.0, p[0], h / 2], [0.0, 0.0, 1.0]])
    return Calibration(spec, K, float(p[1]), float(p[2]), cv2.Rodrigues(p[3:6])[0],
                       p[6:9].copy(), (w, h))


def _project(
    p: np.ndarray, xyz: np.ndarray, cx: float, cy: float
) -> tuple[np.ndarray, np.ndarray]:
    """Pixels ``(N, 2)`` and their Jacobian ``(N, 2, 9)`` in the order of ``p``:
    f, k1, k2, rvec, tvec."""
    K = np.array([[p[0], 0.0, cx], [0.0, p[0], cy], [0.0, 0.0, 1.0]])
    dist = np.array([p[1], p[2], 0.0, 0.0])
    img, jac = cv2.projectPoints(xyz, p[3:6], p[6:9], K, dist)
    jac = jac.reshape(-1, 2, jac.shape[1])
    J = np.concatenate([(jac[:, :, 6] + jac[:, :, 7])[..., None], jac[:, :, 10:12],
                        jac[:, :, 0:6]], axis=2)
    return img.reshape(-1, 2), J


def _image_normals(
    p: np.ndarray, xyz: np.ndarray, tangent_xy: np.ndarray, cx: float, cy: float
) -> np.ndarray:
    """Unit normals ``(N, 2)`` in the image of each point's line, from its table tangent."""
    a, _ = _project(p, xyz, cx, cy)
    step = xyz.copy()
    step[:, :2] += tangent_xy
    b, _ = _project(p, step, cx, cy)
    d = b - a
    d /= np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-12)
    return np.column_stack([-d[:, 1], d[:, 0]])


def _residuals(
    p: np.ndarray, xyz: np.ndarray, px: np.ndarray, n_img: np.ndarray, cx: float, cy: float
) -> tuple[np.ndarray, np.ndarray]:
    proj, J = _project(p, xyz, cx, cy)
    r = np.einsum("ij,ij->i", proj - px, n_img)
    return r, np.einsum("ij,ijk->ik", n_img, J)


def _lm(
    p0: np.ndarray,
    free: np.ndarray,
    xyz: np.ndarray,
    px: np.ndarray,
    n_img: np.ndarray,
    w_prior: float,
    f_ref: float,
    cx: float,
    cy: float,
    *,
    robust: bool,
    max_iter: int = 40,
) -> np.ndarray:
    """Levenberg-Marquardt on the across-line residuals (soft-L1 by reweighting when
    ``robust``) plus the focal length's prior."""
    c2 = ROBUST_SCALE_PX ** 2

    def cost_of(r: np.ndarray, f: float) -> float:
        data = 2.0 * c2 * (np.sqrt(1.0 + r * r / c2) - 1.0) if robust else r * r
        return float(np.sum(data) + (w_prior * (f - f_ref) / f_ref) ** 2)

    p = p0.copy()
    r, Jr = _residuals(p, xyz, px, n_img, cx, cy)
    cost = cost_of(r, p[0])
    lam = 1e-3
    idx = np.flatnonzero(free)
    for _ in range(max_iter):
        wgt = 1.0 / np.sqrt(1.0 + r * r / c2) if robust else np.ones_like(r)
        J = Jr[:, idx]
        A = J.T @ (wgt[:, None] * J)
        g = J.T @ (wgt * r)
        # the prior's row: d/df of w_prior (f - f_ref) / f_ref
        jp = w_prior / f_ref
        A[0, 0] += jp * jp
        g[0] += jp * (w_prior * (p[0] - f_ref) / f_ref)
        diag = np.diag(A).copy()
        improved = False
        for _ in range(10):
            try:
                step = -np.linalg.solve(A + lam * np.diag(np.maximum(diag, 1e-12)), g)
            except np.linalg.LinAlgError:
                lam *= 10.0
                continue
            q = p.copy()
            q[idx] += step
            r_new, J_new = _residuals(q, xyz, px, n_img, cx, cy)
            cost_new = cost_of(r_new, q[0])
            if np.isfinite(cost_new) and cost_new <= cost:
                improved = True
                done = cost - cost_new <= LM_TOL * cost
                p, r, Jr, cost = q, r_new, J_new, cost_new
                lam = max(lam / 10.0, 1e-9)
                break
            lam *= 10.0
        if not improved or done:
            break
    return p
