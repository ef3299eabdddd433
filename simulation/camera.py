"""A real camera over the table: pinhole intrinsics, radial lens distortion and a pose.

World coordinates are the table frame of ``calibration.tables`` (mm, z up). The lens follows
OpenCV's model (k1, k2, p1, p2, k3), so what we render is exactly what ``cv2.projectPoints``
predicts and what a calibration fit can recover.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from calibration.tables import Family, TableSpec


@dataclass(frozen=True, slots=True)
class CameraModel:
    """Intrinsics ``K`` (3x3), distortion ``dist`` (5,), pose world->camera ``R``, ``t``."""

    K: np.ndarray
    dist: np.ndarray
    R: np.ndarray
    t: np.ndarray
    resolution_wh: tuple[int, int]

    def __post_init__(self) -> None:
        if self.K.shape != (3, 3) or self.R.shape != (3, 3) or self.t.shape != (3,):
            raise ValueError("K and R must be 3x3 and t must have 3 elements")
        if self.dist.shape != (5,):
            raise ValueError("dist must hold k1, k2, p1, p2, k3")

    @property
    def centre_mm(self) -> np.ndarray:
        """The camera's optical centre in the table frame."""
        return -self.R.T @ self.t

    @property
    def rvec(self) -> np.ndarray:
        return cv2.Rodrigues(self.R)[0].ravel()

    def project(self, xyz_mm: np.ndarray) -> np.ndarray:
        """Pixel positions ``(N, 2)`` of table-frame points ``(N, 3)``, lens included."""
        pts = np.asarray(xyz_mm, dtype=np.float64).reshape(-1, 3)
        if len(pts) == 0:
            return np.zeros((0, 2))
        px, _ = cv2.projectPoints(pts, self.rvec, self.t, self.K, self.dist)
        return px.reshape(-1, 2)

    def depth_mm(self, xyz_mm: np.ndarray) -> np.ndarray:
        """Distance along the optical axis of each point ``(N, 3)``."""
        pts = np.asarray(xyz_mm, dtype=np.float64).reshape(-1, 3)
        return (pts @ self.R.T + self.t)[:, 2]

    def rays(self, xy_px: np.ndarray) -> np.ndarray:
        """Unit ray directions ``(N, 3)`` in the table frame through pixels ``(N, 2)``."""
        px = np.asarray(xy_px, dtype=np.float64).reshape(-1, 1, 2)
        criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-10)
        norm = cv2.undistortPoints(px, self.K, self.dist, None, None, None, criteria).reshape(-1, 2)
        d_cam = np.concatenate([norm, np.ones((len(norm), 1))], axis=1)
        d = d_cam @ self.R  # R.T applied to row vectors
        return d / np.linalg.norm(d, axis=1, keepdims=True)

    def to_plane(self, xy_px: np.ndarray, z_mm: float = 0.0) -> np.ndarray:
        """Where the rays through pixels ``(N, 2)`` meet the plane ``z = z_mm``: ``(N, 2)``."""
        d = self.rays(xy_px)
        c = self.centre_mm
        s = (z_mm - c[2]) / d[:, 2]
        return c[:2] + s[:, None] * d[:, :2]

    def H_image_from_table(self, z_mm: float = 0.0) -> np.ndarray:
        """The homography from plane ``z = z_mm`` (mm) to undistorted pixels."""
        t = self.t + self.R[:, 2] * z_mm
        H = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], t])
        return H / H[2, 2]

    def H_table_from_image(self, z_mm: float = 0.0) -> np.ndarray:
        H = np.linalg.inv(self.H_image_from_table(z_mm))
        return H / H[2, 2]

    def to_json(self) -> dict[str, Any]:
        return {
            "K": np.round(self.K, 6).tolist(),
            "dist": np.round(self.dist, 8).tolist(),
            "R": np.round(self.R, 9).tolist(),
            "t_mm": np.round(self.t, 6).tolist(),
            "centre_mm": np.round(self.centre_mm, 3).tolist(),
            "resolution_wh": list(self.resolution_wh),
            "H_table_from_image": np.round(self.H_table_from_image(), 9).tolist(),
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> CameraModel:
        return cls(
            K=np.array(obj["K"], dtype=float),
            dist=np.array(obj["dist"], dtype=float),
            R=np.array(obj["R"], dtype=float),
            t=np.array(obj["t_mm"], dtype=float),
            resolution_wh=(int(obj["resolution_wh"][0]), int(obj["resolution_wh"][1])),
        )


@dataclass(frozen=True, slots=True)
class CameraSetup:
    """How a camera hangs over a table; ``overhead_camera`` turns it into a model.

    ``tilt_deg`` leans the optical axis away from vertical (real rigs: 0-15 degrees),
    toward ``tilt_azimuth_deg``; ``offset_mm`` moves the point the camera looks at away
    from the table centre; ``fill`` is the fraction of the frame the table with its rails
    spans on its tighter axis; ``k1``/``k2`` bend straight lines (negative: barrel).
    """

    resolution_wh: tuple[int, int] = (1280, 720)
    height_mm: float = 3500.0
    fill: float = 0.78
    tilt_deg: float = 0.0
    tilt_azimuth_deg: float = 0.0
    roll_deg: float = 0.0
    offset_mm: tuple[float, float] = (0.0, 0.0)
    k1: float = 0.0
    k2: float = 0.0

    def __post_init__(self) -> None:
        w, h = self.resolution_wh
        if w < 64 or h < 64:
            raise ValueError(f"resolution {w}x{h} is too small")
        if not 0.0 <= self.tilt_deg <= 40.0:
            raise ValueError(f"tilt_deg must be in [0, 40], got {self.tilt_deg}")
        if not 0.1 < self.fill <= 1.2:
            raise ValueError(f"fill must be in (0.1, 1.2], got {self.fill}")
        if self.height_mm <= 200:
            raise ValueError(f"height_mm must be > 200, got {self.height_mm}")


def look_at(centre_mm: np.ndarray, target_mm: np.ndarray, up_xyz: np.ndarray) -> np.ndarray:
    """World->camera rotation for a camera at ``centre`` looking at ``target``.

    Camera axes follow OpenCV: x right, y down, z forward; ``up_xyz`` is the world
    direction that should point up in the image.
    """
    z = target_mm - centre_mm
    z = z / np.linalg.norm(z)
    x = np.cross(z, up_xyz)
    x = x / np.linalg.norm(x)
    y = np.cross(z, x)
    return np.stack([x, y, z])


def overhead_camera(spec: TableSpec, setup: CameraSetup) -> CameraModel:
    """A camera over ``spec`` hung as ``setup`` says, framed so the table fills the view."""
    w, h = setup.resolution_wh
    hx, hy = spec.half_wh_mm
    rail = spec.rail_width_mm
    extent_x, extent_y = 2 * (hx + rail), 2 * (hy + rail)
    # Focal length: the table with rails spans `fill` of the frame on its tighter axis.
    f = min(setup.fill * w / extent_x, setup.fill * h / extent_y) * setup.height_mm
    K = np.array([[f, 0.0, w / 2], [0.0, f, h / 2], [0.0, 0.0, 1.0]])

    target = np.array([setup.offset_mm[0], setup.offset_mm[1], 0.0])
    tilt, az = math.radians(setup.tilt_deg), math.radians(setup.tilt_azimuth_deg)
    lean = np.array([math.sin(tilt) * math.cos(az), math.sin(tilt) * math.sin(az), math.cos(tilt)])
    centre = target + setup.height_mm * lean
    R = look_at(centre, target, np.array([0.0, 1.0, 0.0]))
    if setup.roll_deg:
        roll = math.radians(setup.roll_deg)
        Rz = np.array(
            [[math.cos(roll), -math.sin(roll), 0], [math.sin(roll), math.cos(roll), 0], [0, 0, 1]]
        )
        R = Rz @ R
    t = -R @ centre
    dist = np.array([setup.k1, setup.k2, 0.0, 0.0, 0.0])
    return CameraModel(K=K, dist=dist, R=R, t=t, resolution_wh=(w, h))


def default_setup(spec: TableSpec, resolution_wh: tuple[int, int] = (1280, 720)) -> CameraSetup:
    """A typical rig: a broadcast camera 3.5 m over a pool table, a low wide lens over Novuss."""
    if spec.family is Family.NOVUSS:
        return CameraSetup(resolution_wh, height_mm=1250.0, fill=0.9, k1=-0.12, k2=0.02)
    return CameraSetup(resolution_wh, height_mm=3800.0, fill=0.82, k1=-0.02)
