"""``fit(frame, spec)``: calibrate a camera frame of any table type."""

from __future__ import annotations

import numpy as np

from calibration.model import Calibration
from calibration.tables import Family, TableSpec


def fit(frame_bgr: np.ndarray, spec: TableSpec) -> Calibration:
    """The camera model that maps this frame onto ``spec``; raises ``CalibrationError``
    with a one-line reason when the table cannot be found."""
    if spec.family is Family.NOVUSS:
        from calibration.novuss_features import fit_novuss

        return fit_novuss(frame_bgr, spec)
    from calibration.pool_features import fit_pool

    return fit_pool(frame_bgr, spec)
