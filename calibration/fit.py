"""``fit(frame, spec)``: calibrate a camera frame of any table type."""

from __future__ import annotations

import numpy as np

from calibration.model import Calibration, CalibrationError
from calibration.tables import Family, TableSpec

#: A fitted camera beyond these is no overhead camera: the features belonged to something
#: else (often another table type; a pool frame fitted as Novuss came back 970 km up).
MAX_TILT_DEG = 45.0
MAX_LENS_K = 1.0
FOCAL_RANGE_W = (0.2, 10.0)  # focal length in frame widths


def fit(frame_bgr: np.ndarray, spec: TableSpec) -> Calibration:
    """The camera model that maps this frame onto ``spec``; raises ``CalibrationError``
    with a one-line reason when the table cannot be found."""
    if spec.family is Family.NOVUSS:
        from calibration.novuss_features import fit_novuss

        calib = fit_novuss(frame_bgr, spec)
    else:
        from calibration.pool_features import fit_pool

        calib = fit_pool(frame_bgr, spec)
    check_camera(calib)
    return calib


def check_camera(calib: Calibration) -> None:
    """``CalibrationError`` when a fit needs a camera no venue hangs over a table."""
    w = calib.resolution_wh[0]
    odd = []
    if max(abs(calib.k1), abs(calib.k2)) > MAX_LENS_K:
        odd.append(f"lens k1 {calib.k1:.3g} k2 {calib.k2:.3g}")
    if not FOCAL_RANGE_W[0] * w <= calib.K[0, 0] <= FOCAL_RANGE_W[1] * w:
        odd.append(f"focal length {calib.K[0, 0]:.3g} px")
    if odd:
        raise CalibrationError(f"no {calib.spec.name} table found: the best fit needs an "
                               f"impossible camera ({', '.join(odd)})")
    if calib.tilt_deg > MAX_TILT_DEG:
        raise CalibrationError(
            f"the view is too oblique: the camera looks {calib.tilt_deg:.0f} degrees away "
            f"from straight down (at most {MAX_TILT_DEG:.0f}); hang it over the table")
