"""A picture that shows at a glance whether a calibration fits its frame.

``draw_check_image(frame_bgr, calib)`` draws, through the fitted camera (lens included, so
straight table lines bend as the lens bends them): a 100 mm grid over the playing surface,
every printed line of the table spec (circles included), the cushion noses (pool) or inner
rail faces (Novuss), the pocket holes, the four corners numbered in the order ``--corners``
takes them, and the names of the ends (pool ``HEAD``/``FOOT``, Novuss the rails ``a``,
``b``, ``left``, ``right``), so a wrong turn of the frame shows too. Where the drawing sits
on the table's features the fit is right; a ghost table beside them is a bad fit.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.model import Calibration
from calibration.tables import Family

#: BGR colours of each layer.
GRID_BGR = (235, 235, 235)
LINE_BGR = (0, 220, 255)
CUSHION_BGR = (80, 255, 80)
POCKET_BGR = (255, 80, 255)
CORNER_BGR = (40, 40, 255)
TEXT_BGR = (255, 255, 255)
GRID_MM = 100.0
STEP_MM = 10.0  # polylines are sampled this finely so that they follow the lens


def _segment(a: tuple[float, float], b: tuple[float, float]) -> np.ndarray:
    a_, b_ = np.asarray(a, float), np.asarray(b, float)
    n = max(2, int(np.ceil(np.linalg.norm(b_ - a_) / STEP_MM)) + 1)
    return a_ + np.linspace(0.0, 1.0, n)[:, None] * (b_ - a_)


def _circle(centre: tuple[float, float], radius_mm: float) -> np.ndarray:
    n = max(24, int(np.ceil(2 * np.pi * radius_mm / STEP_MM)))
    th = np.linspace(0.0, 2 * np.pi, n + 1)
    return np.asarray(centre, float) + radius_mm * np.column_stack([np.cos(th), np.sin(th)])


def _polyline(img: np.ndarray, calib: Calibration, xy_mm: np.ndarray, colour: tuple[int, ...],
              thickness: int, z_mm: float = 0.0) -> None:
    px = calib.to_image(xy_mm, z_mm)
    if not np.isfinite(px).all():
        return
    pts = np.round(px * 16).astype(np.int32).reshape(-1, 1, 2)  # 4 bits of sub-pixel
    cv2.polylines(img, [pts], False, colour, thickness, cv2.LINE_AA, shift=4)


def _label(img: np.ndarray, text: str, xy_px: np.ndarray, scale: float) -> None:
    org = (int(round(xy_px[0])), int(round(xy_px[1])))
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
    org = (org[0] - tw // 2, org[1] + th // 2)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 4, cv2.LINE_AA)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, TEXT_BGR, 2, cv2.LINE_AA)


def draw_check_image(frame_bgr: np.ndarray, calib: Calibration) -> np.ndarray:
    """A copy of ``frame_bgr`` with the calibrated table drawn over it (module docstring)."""
    spec = calib.spec
    h, w = frame_bgr.shape[:2]
    if (w, h) != tuple(calib.resolution_wh):
        raise ValueError(f"frame is {w}x{h} but the calibration is for "
                         f"{calib.resolution_wh[0]}x{calib.resolution_wh[1]}")
    out = np.ascontiguousarray(frame_bgr, dtype=np.uint8).copy()
    thin = max(1, round(min(w, h) / 720))
    scale = 0.5 * min(w, h) / 720

    grid = out.copy()
    hx, hy = spec.half_wh_mm
    for x in np.arange(-np.floor(hx / GRID_MM), np.floor(hx / GRID_MM) + 1) * GRID_MM:
        _polyline(grid, calib, _segment((x, -hy), (x, hy)), GRID_BGR, thin)
    for y in np.arange(-np.floor(hy / GRID_MM), np.floor(hy / GRID_MM) + 1) * GRID_MM:
        _polyline(grid, calib, _segment((-hx, y), (hx, y)), GRID_BGR, thin)
    out = cv2.addWeighted(grid, 0.45, out, 0.55, 0.0)

    for line in spec.lines:
        xy = (_circle(line.a_xy_mm, line.radius_mm) if line.is_circle
              else _segment(line.a_xy_mm, line.b_xy_mm))
        _polyline(out, calib, xy, LINE_BGR, thin)
    for cushion in spec.cushions:
        _polyline(out, calib, _segment(cushion.a_xy_mm, cushion.b_xy_mm), CUSHION_BGR, thin + 1)
    for pocket in spec.pockets:
        _polyline(out, calib, _circle(pocket.centre_xy_mm, pocket.hole_radius_mm),
                  POCKET_BGR, thin + 1)

    for k, px in enumerate(calib.corners_px(), start=1):
        centre = (int(round(px[0])), int(round(px[1])))
        cv2.circle(out, centre, 3 * thin + 2, CORNER_BGR, -1, cv2.LINE_AA)
        inward = calib.to_image(spec.corners_xy_mm()[k - 1] * 0.9)[0]
        _label(out, str(k), inward, scale)

    if spec.family is Family.POOL:
        ends = {"HEAD": (-0.42 * 2 * hx, 0.0), "FOOT": (0.42 * 2 * hx, 0.0)}
    else:
        ends = {c.name: tuple(np.add(np.mean([c.a_xy_mm, c.b_xy_mm], axis=0),
                                     np.multiply(c.normal_xy, 60.0)))
                for c in spec.cushions}
    for text, xy in ends.items():
        _label(out, text, calib.to_image(np.asarray([xy], float))[0], 1.4 * scale)
    return out
