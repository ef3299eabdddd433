"""The camera model that calibration fits, and the mapping between pixels and table mm.

A ``Calibration`` is a pinhole camera with radial lens distortion (OpenCV's model with
k1, k2; no tangential terms) and a pose in the table frame of ``calibration.tables``.
Objects are mapped at their own height: a ball centre sits 28.6 mm above the cloth, and a
camera that is not straight above it sees it displaced (parallax), so ``to_table`` takes
the height of the point the pixel shows.

``solve`` fits the model to correspondences between image points and table points (at
any height: cloth features at z = 0, rail tops above it); the feature finders that produce
those correspondences live beside it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from calibration.tables import TableSpec


class CalibrationError(ValueError):
    """The frame does not show a table that can be calibrated; the message says what was
    not found, for one line on the command line."""


@dataclass(frozen=True, slots=True)
class Calibration:
    """A fitted camera: intrinsics ``K``, radial lens ``k1``/``k2``, pose ``R``/``t``
    (table -> camera), the fit's ``rms_mm`` and per-feature residuals (mm)."""

    spec: TableSpec
    K: np.ndarray
    k1: float
    k2: float
    R: np.ndarray
    t: np.ndarray
    resolution_wh: tuple[int, int]
    rms_mm: float = 0.0
    residuals_mm: dict[str, float] = field(default_factory=dict)
    features: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.K.shape != (3, 3) or self.R.shape != (3, 3) or self.t.shape != (3,):
            raise ValueError("K and R must be 3x3 and t must have 3 elements")

    @property
    def dist(self) -> np.ndarray:
        return np.array([self.k1, self.k2, 0.0, 0.0, 0.0])

    @property
    def tilt_deg(self) -> float:
        """Angle between the optical axis and straight down."""
        return float(np.degrees(np.arccos(min(1.0, abs(float(self.R[2, 2]))))))

    @property
    def camera_centre_mm(self) -> np.ndarray:
        return -self.R.T @ self.t

    @property
    def H_image_from_table(self) -> np.ndarray:
        """Table plane (z = 0, mm) to undistorted pixels."""
        H = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.t])
        return H / H[2, 2]

    @property
    def H_table_from_image(self) -> np.ndarray:
        """Undistorted pixels to the table plane (mm); apply ``undistort`` first."""
        H = np.linalg.inv(self.H_image_from_table)
        return H / H[2, 2]

    def to_image(self, xy_mm: np.ndarray, z_mm: float | np.ndarray = 0.0) -> np.ndarray:
        """Pixels ``(N, 2)`` of table points ``(N, 2)`` at height ``z_mm``, lens included."""
        p = np.asarray(xy_mm, dtype=float).reshape(-1, 2)
        z = np.broadcast_to(np.asarray(z_mm, dtype=float), (len(p),))
        if len(p) == 0:
            return np.zeros((0, 2))
        rvec = cv2.Rodrigues(self.R)[0]
        px, _ = cv2.projectPoints(np.column_stack([p, z]), rvec, self.t, self.K, self.dist)
        return px.reshape(-1, 2)

    def undistort(self, xy_px: np.ndarray) -> np.ndarray:
        """Where pixels ``(N, 2)`` would be without the lens (same ``K``)."""
        p = np.asarray(xy_px, dtype=float).reshape(-1, 1, 2)
        if len(p) == 0:
            return np.zeros((0, 2))
        criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-10)
        return cv2.undistortPoints(p, self.K, self.dist, R=None, P=self.K,
                                   criteria=criteria).reshape(-1, 2)

    def to_table(self, xy_px: np.ndarray, z_mm: float | np.ndarray = 0.0) -> np.ndarray:
        """Table points ``(N, 2)`` seen at pixels ``(N, 2)``, each on the plane at its height.

        ``z_mm`` is the height of what the pixel shows (0 for the cloth, a ball's radius for
        its centre), scalar or one per point: the parallax correction.
        """
        u = self.undistort(xy_px)
        z = np.broadcast_to(np.asarray(z_mm, dtype=float), (len(u),))
        rays = np.column_stack([u, np.ones(len(u))]) @ np.linalg.inv(self.K).T @ self.R
        c = self.camera_centre_mm
        s = (z - c[2]) / rays[:, 2]
        return c[:2] + s[:, None] * rays[:, :2]

    def corners_px(self) -> np.ndarray:
        """The playing surface's four corners in the image (counter-clockwise from -x, -y)."""
        return self.to_image(self.spec.corners_xy_mm())

    def to_json(self) -> dict[str, Any]:
        return {
            "H_table_from_image": self.H_table_from_image.tolist(),  # full precision
            # A homography cannot bend: it maps pixels with the lens taken out (k1, k2).
            "H_input": "undistorted pixels: remove the lens (k1, k2) from image pixels first",
            "K": np.round(self.K, 4).tolist(),
            "lens": {"k1": round(self.k1, 6), "k2": round(self.k2, 6)},
            "R": np.round(self.R, 9).tolist(),
            "t_mm": np.round(self.t, 4).tolist(),
            "camera_centre_mm": np.round(self.camera_centre_mm, 2).tolist(),
            "corners_px": np.round(self.corners_px(), 2).tolist(),
            "rms_mm": round(self.rms_mm, 4),
            "residuals_mm": {k: round(v, 4) for k, v in self.residuals_mm.items()},
            "features": list(self.features),
        }


#: Weight of ``solve``'s pull toward the starting focal length: pixels of residual per
#: point for a focal length off by 100 %. Small enough that a view with perspective or a
#: lens that fixes the focal length overrides it.
FOCAL_PRIOR_PX = 0.5


def focal_from_homography(
    image_px: np.ndarray, table_xy_mm: np.ndarray, cx: float, cy: float
) -> float | None:
    """The focal length (px) that a plane's homography implies for square pixels and the
    principal point at ``(cx, cy)`` (the two orthogonality constraints on its first two
    columns, averaged by least squares); ``None`` where the view does not fix it (a plane
    seen nearly head-on) or the points give no homography."""
    if len(image_px) < 4:
        return None
    H, _ = cv2.findHomography(table_xy_mm.astype(np.float64), image_px.astype(np.float64))
    if H is None:
        return None
    T = np.array([[1.0, 0.0, -cx], [0.0, 1.0, -cy], [0.0, 0.0, 1.0]])
    h = T @ H
    h1, h2 = h[:, 0], h[:, 1]
    # h1' W h2 = 0 and h1' W h1 = h2' W h2 with W = diag(1/f^2, 1/f^2, 1): linear in 1/f^2.
    a = np.array([h1[0] * h2[0] + h1[1] * h2[1],
                  h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2])
    b = -np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    den = float(a @ a)
    if den <= 0:
        return None
    inv_f2 = float(a @ b) / den
    if not np.isfinite(inv_f2) or inv_f2 <= 0:
        return None
    return float(1.0 / np.sqrt(inv_f2))


def _project(params: np.ndarray, xyz: np.ndarray, cx: float, cy: float) -> np.ndarray:
    f, k1, k2 = params[:3]
    rvec, tvec = params[3:6], params[6:9]
    K = np.array([[f, 0.0, cx], [0.0, f, cy], [0.0, 0.0, 1.0]])
    px, _ = cv2.projectPoints(xyz, rvec, tvec, K, np.array([k1, k2, 0.0, 0.0, 0.0]))
    return px.reshape(-1, 2)


def solve(
    spec: TableSpec,
    image_px: np.ndarray,
    table_xyz_mm: np.ndarray,
    resolution_wh: tuple[int, int],
    *,
    names: list[str] | None = None,
    lens: bool | int = True,
    start: Calibration | None = None,
    focal_prior_px: float | None = None,
    focal_guess_px: float | None = None,
) -> Calibration:
    """Fit focal length, k1/k2 and pose to correspondences (robust least squares).

    The principal point is the image centre and pixels are square: with one view of a
    nearly flat scene these are not identifiable, and real cameras are close to it.
    ``names`` label each correspondence's feature for the per-feature residuals.
    ``lens``: how many radial terms to fit (``True`` both, ``False`` or 0 none, 1 only k1;
    the others stay 0). Iterative finders fit fewer terms while their correspondences are
    still rough: k1/k2 fitted to a rough start bend the image to match its errors and
    run away with the focal length. ``start``: a camera to start from (its lens terms
    beyond ``lens`` are dropped) instead of guessing the pose from the points.
    ``focal_prior_px``: the pull toward the starting focal length (default
    ``FOCAL_PRIOR_PX``); a finder whose correspondences are still rough raises it to hold
    the focal length while the pose settles. ``focal_guess_px``: without ``start``, the
    one focal length to start from instead of the usual guesses.
    """
    from scipy.optimize import least_squares

    px = np.asarray(image_px, dtype=float).reshape(-1, 2)
    xyz = np.asarray(table_xyz_mm, dtype=float).reshape(-1, 3)
    if len(px) != len(xyz):
        raise ValueError(f"{len(px)} image points but {len(xyz)} table points")
    if len(px) < 6:
        raise ValueError(f"need at least 6 correspondences to fit a camera, got {len(px)}")
    w, h = resolution_wh
    cx, cy = w / 2, h / 2

    # Start: a homography of the z = 0 points gives the pose for a guessed focal length;
    # try a few focal lengths and keep the best start.
    flat = np.abs(xyz[:, 2]) < 1e-6
    if flat.sum() < 4:
        raise ValueError("need at least 4 correspondences on the playing surface")
    n_lens = 2 if lens is True else 0 if lens is False else int(lens)
    if not 0 <= n_lens <= 2:
        raise ValueError(f"lens must be a bool or 0, 1 or 2 terms, got {lens!r}")
    best: tuple[float, np.ndarray] | None = None
    if start is not None:
        k = [start.k1, start.k2][:n_lens] + [0.0] * (2 - n_lens)
        p0 = np.concatenate([[start.K[0, 0], *k], cv2.Rodrigues(start.R)[0].ravel(), start.t])
        best = (float(np.mean((_project(p0, xyz, cx, cy) - px) ** 2)), p0)
    # Guesses in order of preference: seen straight from above, a flat table hardly tells
    # one focal length from another (nor, later, from the lens terms that would go with
    # it), so a guess that explains the points about as well as the best one and is a
    # common focal length wins over a far-fetched one.
    guesses: list[tuple[float, np.ndarray]] = []
    prefs: tuple[float, ...] = ()
    if start is None and focal_guess_px is not None:
        prefs = (focal_guess_px,)
    elif start is None:
        prefs = (0.9 * w, 1.3 * w, 0.6 * w, 2.0 * w)
        f_h = focal_from_homography(px[flat], xyz[flat, :2], cx, cy)
        if f_h is not None and 0.25 * w < f_h < 8.0 * w:
            prefs = (f_h, *prefs)
    for f0 in prefs:
        K0 = np.array([[f0, 0.0, cx], [0.0, f0, cy], [0.0, 0.0, 1.0]])
        ok, rvec, tvec = cv2.solvePnP(xyz[flat], px[flat], K0, None,
                                      flags=cv2.SOLVEPNP_ITERATIVE)
        if not ok:
            continue
        p0 = np.concatenate([[f0, 0.0, 0.0], rvec.ravel(), tvec.ravel()])
        err = float(np.median(np.sum((_project(p0, xyz, cx, cy) - px) ** 2, axis=1)))
        guesses.append((err, p0))
    if guesses:
        least = min(e for e, _ in guesses)
        best = next(g for g in guesses if g[0] <= 1.25 * least + 1.0)
    if best is None:
        raise ValueError("no camera pose explains these points")
    p0 = best[1]

    def full(p: np.ndarray) -> np.ndarray:
        """All nine parameters with the lens terms not fitted set to 0."""
        q = p.copy()
        q[1 + n_lens : 3] = 0.0
        return q

    # A weak pull of the focal length toward its start: seen straight from above with no
    # lens terms, a flat table does not fix the focal length (distance and focal length
    # trade off), and an unpulled fit slides toward f = 0 or below.
    f_ref = float(p0[0])
    w_prior = (FOCAL_PRIOR_PX if focal_prior_px is None else focal_prior_px) * np.sqrt(len(px))

    def residual(p: np.ndarray, px: np.ndarray, xyz: np.ndarray) -> np.ndarray:
        r = (_project(full(p), xyz, cx, cy) - px).ravel()
        return np.append(r, w_prior * (p[0] - f_ref) / f_ref)

    # A robust fit first, then a plain one on the points it explains: outliers (a hand, a
    # cue, graphics over a feature) must not bend the camera.
    fit = least_squares(residual, p0, loss="soft_l1", f_scale=2.0, x_scale="jac",
                        args=(px, xyz))
    err_px = np.linalg.norm(fit.fun[:-1].reshape(-1, 2), axis=1)
    inlier = err_px < max(3.0, 3.0 * float(np.median(err_px)))
    if inlier.sum() < 6:
        inlier[:] = True
    elif not inlier.all():
        fit = least_squares(residual, fit.x, x_scale="jac", args=(px[inlier], xyz[inlier]))
    p = full(fit.x)
    K = np.array([[p[0], 0.0, cx], [0.0, p[0], cy], [0.0, 0.0, 1.0]])
    R = cv2.Rodrigues(p[3:6])[0]
    calib = Calibration(spec, K, float(p[1]), float(p[2]), R, p[6:9].copy(), (w, h))
    # Residuals in mm over the inliers: each image point mapped back onto the table at
    # its own height.
    back = calib.to_table(px[inlier], xyz[inlier, 2])
    err = np.linalg.norm(back - xyz[inlier, :2], axis=1)
    per: dict[str, float] = {}
    if names is not None:
        kept = [n for n, ok in zip(names, inlier, strict=True) if ok]
        for name in dict.fromkeys(kept):
            sel = np.array([n == name for n in kept])
            per[name] = float(np.sqrt(np.mean(err[sel] ** 2)))
    return Calibration(
        spec, K, calib.k1, calib.k2, R, calib.t, (w, h),
        rms_mm=float(np.sqrt(np.mean(err ** 2))),
        residuals_mm=per,
        features=tuple(dict.fromkeys(names)) if names is not None else (),
    )
