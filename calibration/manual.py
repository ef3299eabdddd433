"""A camera from four clicked corners, for views the automatic fit cannot read.

``from_corners(spec, corners_px, resolution_wh)`` takes the four corners of the playing
surface in image pixels, in the order of ``TableSpec.corners_xy_mm()`` (counter-clockwise
from the table's (-x, -y) corner; seen on the image, counter-clockwise too, since the
camera looks down on the table), and returns a full ``Calibration``: focal length and pose,
so objects above the cloth are mapped at their own height (parallax) as with a fitted one.

Four points give a homography (8 numbers); a pinhole camera with square pixels, its
principal point at the image centre and no lens distortion has 7 (focal length, rotation,
translation), so the corners also fix the focal length: the two orthonormality constraints
of a plane-induced homography (its first two columns, through ``K^-1``, are orthogonal and
of equal length) give ``f**2`` in closed form. That is the starting point; the camera is
then fitted to the corners by least squares with a weak prior on its height over the table
(``CornerSettings``), because a camera straight overhead shows no perspective and leaves
the focal length, hence the height and the parallax, undetermined by the corners alone.

Lens distortion is not modelled: a lens that bends straight lines makes the cloth between
the corners a few millimetres off (measured in tests/test_manual_corners.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.model import Calibration, CalibrationError
from calibration.tables import Family, TableSpec

#: What each corner is, per family, for messages and ``--help``.
CORNER_NAMES = {
    Family.POOL: ("head-right", "foot-right", "foot-left", "head-left"),
    Family.NOVUSS: ("A's left", "A's right", "far right", "far left"),
}


#: Focal lengths (multiples of the frame width) believed from the corners' perspective;
#: outside them the perspective is too weak to read and the height prior gives the start.
FOCAL_RANGE_W = (0.1, 20.0)


@dataclass(frozen=True, slots=True)
class CornerSettings:
    """Knobs of :func:`from_corners`.

    ``click_sigma_px`` is how far a clicked corner may be off (one standard deviation);
    ``pool_height_mm``/``novuss_height_mm`` are the usual heights of the camera's centre
    over the cloth and ``height_sigma_log`` how loosely they are held (0.4: a factor of 1.5 is
    one standard deviation). Tightening the prior steadies a straight-overhead view, whose
    height the corners cannot tell, but biases a tilted one whose height they can.
    ``max_outside`` is how far (a fraction of the frame's larger side) a corner may lie
    outside the frame; ``max_tilt_deg`` the most the optical axis may lean from vertical
    (beyond it the corners are more likely in the wrong order than the camera that
    oblique); ``min_area`` the least fraction of the frame the corners must enclose.
    """

    click_sigma_px: float = 1.0
    pool_height_mm: float = 3500.0
    novuss_height_mm: float = 1250.0
    height_sigma_log: float = 0.4
    max_outside: float = 0.5
    max_tilt_deg: float = 60.0
    min_area: float = 0.01

    def __post_init__(self) -> None:
        if self.click_sigma_px <= 0 or self.height_sigma_log <= 0:
            raise ValueError("click_sigma_px and height_sigma_log must be > 0")
        if self.pool_height_mm <= 0 or self.novuss_height_mm <= 0:
            raise ValueError("pool_height_mm and novuss_height_mm must be > 0")
        if not 0 <= self.max_outside <= 10:
            raise ValueError(f"max_outside must be in [0, 10], got {self.max_outside}")
        if not 0 < self.max_tilt_deg < 90:
            raise ValueError(f"max_tilt_deg must be in (0, 90), got {self.max_tilt_deg}")
        if not 0 <= self.min_area < 1:
            raise ValueError(f"min_area must be in [0, 1), got {self.min_area}")

    def height_prior(self, family: Family) -> float:
        return self.pool_height_mm if family is Family.POOL else self.novuss_height_mm


def check_corners(corners_px: np.ndarray | list[float], resolution_wh: tuple[int, int],
                  settings: CornerSettings | None = None) -> np.ndarray:
    """The corners as a ``(4, 2)`` array, or ``CalibrationError`` saying what is wrong
    with them: not 8 finite numbers, far outside the frame, a quadrilateral that crosses
    itself, is not convex, runs clockwise on the image or is too small."""
    st = settings or CornerSettings()
    p = np.asarray(corners_px, dtype=float)
    if p.size != 8:
        raise CalibrationError(f"corners need 8 numbers (x, y of 4 corners), got {p.size}")
    p = p.reshape(4, 2)
    if not np.isfinite(p).all():
        raise CalibrationError("corners must be finite numbers")
    w, h = resolution_wh
    margin = st.max_outside * max(w, h)
    outside = (p[:, 0] < -margin) | (p[:, 0] > w + margin) | (p[:, 1] < -margin) | (
        p[:, 1] > h + margin)
    if outside.any():
        k = int(np.argmax(outside))
        raise CalibrationError(
            f"corner {k + 1} ({p[k, 0]:g}, {p[k, 1]:g}) lies far outside the {w}x{h} frame")
    # z of the cross product at each vertex; with y down, a quadrilateral that runs
    # counter-clockwise on screen turns the same (negative) way at every corner.
    e = np.roll(p, -1, axis=0) - p
    turn = e[:, 0] * np.roll(e, -1, axis=0)[:, 1] - e[:, 1] * np.roll(e, -1, axis=0)[:, 0]
    area = -0.5 * float(np.sum(p[:, 0] * np.roll(p[:, 1], -1) - np.roll(p[:, 0], -1) * p[:, 1]))
    if not ((turn < 0).all() or (turn > 0).all()):
        raise CalibrationError(
            "corners do not form a convex quadrilateral (two sides cross, or one corner is "
            "inside); give them in order around the table")
    if area < 0:
        raise CalibrationError(
            "corners run clockwise on the image; give them counter-clockwise as seen on "
            "the image, starting at the table's (-x, -y) corner")
    if area < st.min_area * w * h:
        raise CalibrationError(
            f"corners enclose {area / (w * h):.2%} of the frame; the table must be larger")
    return p


def _focal_from_homography(H: np.ndarray, centre: np.ndarray) -> float | None:
    """``f`` from the orthonormality of ``K^-1 H``'s first two columns (least squares over
    both constraints), or None where they give no positive ``f**2``."""
    Hc = H.copy()
    Hc[:2] -= np.outer(centre, Hc[2])  # the principal point to the origin
    Hc /= np.linalg.norm(Hc[:, :2])
    h1, h2 = Hc[:, 0], Hc[:, 1]
    a = np.array([h1[0] * h2[0] + h1[1] * h2[1], h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2])
    b = np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    if float(b @ b) < 1e-30:
        return None
    f2 = -float(a @ b) / float(b @ b)
    return math.sqrt(f2) if f2 > 0 else None


def _pose(H: np.ndarray, K: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rotation and translation (table -> camera) that the homography implies for ``K``,
    the camera in front of the table."""
    M = np.linalg.inv(K) @ H
    M /= 0.5 * (np.linalg.norm(M[:, 0]) + np.linalg.norm(M[:, 1]))
    if M[2, 2] < 0:  # the table's origin must lie in front of the camera
        M = -M
    r3 = np.cross(M[:, 0], M[:, 1])
    U, _, Vt = np.linalg.svd(np.column_stack([M[:, 0], M[:, 1], r3]))
    R = U @ Vt
    if np.linalg.det(R) < 0:
        R = U @ np.diag([1.0, 1.0, -1.0]) @ Vt
    return R, M[:, 2].copy()


def from_corners(
    spec: TableSpec,
    corners_px: np.ndarray | list[float],
    resolution_wh: tuple[int, int],
    settings: CornerSettings | None = None,
) -> Calibration:
    """The camera that sees the playing surface's corners at ``corners_px`` (see the module
    docstring); ``CalibrationError`` when the corners cannot be a table seen from above."""
    from scipy.optimize import least_squares

    st = settings or CornerSettings()
    px = check_corners(corners_px, resolution_wh, st)
    w, h = resolution_wh
    centre = np.array([w / 2, h / 2])
    table = spec.corners_xy_mm()
    xyz = np.column_stack([table, np.zeros(4)])
    H = cv2.getPerspectiveTransform(table.astype(np.float32), px.astype(np.float32))
    H = H.astype(float)
    height0 = st.height_prior(spec.family)

    f_closed = _focal_from_homography(H, centre)
    if f_closed is None or not FOCAL_RANGE_W[0] * w < f_closed < FOCAL_RANGE_W[1] * w:
        # No perspective to read a focal length from: the one that puts the camera at
        # the usual height (its scale in px/mm times that height).
        J = (H[:2, :2] * H[2, 2] - np.outer(H[:2, 2], H[2, :2])) / H[2, 2] ** 2
        f_closed = math.sqrt(abs(float(np.linalg.det(J)))) * height0
    K0 = np.array([[f_closed, 0, centre[0]], [0, f_closed, centre[1]], [0, 0, 1.0]])
    R0, t0 = _pose(H, K0)

    def camera(p: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        f = math.exp(p[0])
        K = np.array([[f, 0, centre[0]], [0, f, centre[1]], [0, 0, 1.0]])
        return K, cv2.Rodrigues(p[1:4])[0], p[4:7]

    def residual(p: np.ndarray) -> np.ndarray:
        K, R, t = camera(p)
        proj, _ = cv2.projectPoints(xyz, p[1:4], t, K, None)
        height = float((-R.T @ t)[2])
        prior = math.log(max(height, 1e-6) / height0) / st.height_sigma_log
        return np.concatenate([(proj.reshape(-1, 2) - px).ravel() / st.click_sigma_px, [prior]])

    p0 = np.concatenate([[math.log(f_closed)], cv2.Rodrigues(R0)[0].ravel(), t0])
    fit = least_squares(residual, p0, x_scale="jac")
    K, R, t = camera(fit.x)
    calib = Calibration(spec, K, 0.0, 0.0, R, t.copy(), (int(w), int(h)))

    centre_mm = calib.camera_centre_mm
    depth = (xyz @ R.T + t)[:, 2]
    if centre_mm[2] <= 0 or (depth <= 0).any():
        raise CalibrationError("no camera above the table sees these corners; check their order")
    tilt = math.degrees(math.acos(min(1.0, abs(float(R[2, 2])))))
    if tilt > st.max_tilt_deg:
        raise CalibrationError(
            f"these corners mean a camera tilted {tilt:.0f} degrees from vertical; check "
            f"their order ({', '.join(CORNER_NAMES[spec.family])})")
    err_mm = np.linalg.norm(calib.to_table(px) - table, axis=1)
    rms = float(np.sqrt(np.mean(err_mm ** 2)))
    return Calibration(spec, K, 0.0, 0.0, R, t.copy(), (int(w), int(h)), rms_mm=rms,
                       residuals_mm={"corners": rms}, features=("corners",))
