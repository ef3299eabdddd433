"""The detector's input: the table seen straight from above at a fixed scale.

Whatever the camera, the frame is warped onto the table plane (z = 0) so that the model
sees every object at one size per table type, axis-aligned, and nothing but the table:

* ``pool``: 640 x 320 px; the playing surface plus 80 mm on each long side (pocket cups
  and the balls resting in them), scaled so the short side fills 320 px: 0.224 px/mm on a
  9 ft table (a ball is 12.8 px across), 0.278 px/mm on a 7 ft table.
* ``novuss``: 480 x 480 px over 1040 mm: the 1000 mm field and 20 mm of rail on each side,
  0.46 px/mm (a pawn is 13.8 px across, the puck 20.8 px).

Canonical pixels: u grows with table +x, v grows with table -y (the table as seen from
above, +y up), origin at the top-left corner of the canvas, pixel centres on integers.

The warp needs only a mapping from table mm to image pixels, which ``calibration``'s
``Calibration`` provides (``TableMapping``); ``vision`` imports no other stage.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

#: Grey the warp shows outside the camera's frame (and training letterboxes with).
PAD_GREY = 114

POOL_INPUT_WH = (640, 320)
POOL_MARGIN_MM = 80.0
NOVUSS_INPUT_WH = (480, 480)
NOVUSS_SPAN_MM = 1040.0


class TableMapping(Protocol):
    """Table mm <-> image pixels at a height; ``calibration.Calibration`` is one."""

    resolution_wh: tuple[int, int]

    def to_image(self, xy_mm: np.ndarray, z_mm: float | np.ndarray = 0.0) -> np.ndarray: ...

    def to_table(self, xy_px: np.ndarray, z_mm: float | np.ndarray = 0.0) -> np.ndarray: ...


@dataclass(frozen=True, slots=True)
class CanonicalView:
    """The canvas geometry for one table type: size and scale; mm <-> canonical px."""

    kind: str  # "pool" | "novuss"
    size_wh: tuple[int, int]
    px_per_mm: float

    def to_canon(self, xy_mm: np.ndarray) -> np.ndarray:
        """Canonical pixels ``(N, 2)`` of table points ``(N, 2)`` on the plane z = 0."""
        p = np.asarray(xy_mm, float).reshape(-1, 2)
        w, h = self.size_wh
        u = (w - 1) / 2 + p[:, 0] * self.px_per_mm
        v = (h - 1) / 2 - p[:, 1] * self.px_per_mm
        return np.column_stack([u, v])

    def to_mm(self, uv_px: np.ndarray) -> np.ndarray:
        """Table points (z = 0 plane) ``(N, 2)`` under canonical pixels ``(N, 2)``."""
        q = np.asarray(uv_px, float).reshape(-1, 2)
        w, h = self.size_wh
        x = (q[:, 0] - (w - 1) / 2) / self.px_per_mm
        y = ((h - 1) / 2 - q[:, 1]) / self.px_per_mm
        return np.column_stack([x, y])


def canonical_view(surface_wh_mm: tuple[float, float], *, novuss: bool) -> CanonicalView:
    """The canvas for a table whose playing surface measures ``surface_wh_mm``."""
    if novuss:
        w, h = NOVUSS_INPUT_WH
        return CanonicalView("novuss", (w, h), h / NOVUSS_SPAN_MM)
    w, h = POOL_INPUT_WH
    length, width = surface_wh_mm
    ppm = min(h / (width + 2 * POOL_MARGIN_MM), w / (length + 2 * POOL_MARGIN_MM))
    return CanonicalView("pool", (w, h), ppm)


@dataclass(frozen=True, slots=True, eq=False)
class TableWarp:
    """A camera frame -> canonical view warp for one calibration (built once, cheap per frame).

    Large frames are first shrunk by an integer factor with area averaging, so the warp
    samples the image near its own scale instead of skipping pixels (aliasing would
    make edges, and the centres refined from them, jump about).
    """

    view: CanonicalView
    mapping: TableMapping
    frame_wh: tuple[int, int]
    shrink: int
    map_x: np.ndarray  # (H, W) float32: source x (in the shrunk frame) of each canvas pixel
    map_y: np.ndarray

    def __call__(self, bgr: np.ndarray) -> np.ndarray:
        """The canonical view ``(H, W, 3)`` uint8 of a camera frame."""
        h, w = bgr.shape[:2]
        if (w, h) != self.frame_wh:
            raise ValueError(
                f"frame is {w}x{h} but the calibration is for "
                f"{self.frame_wh[0]}x{self.frame_wh[1]}; calibrate this source again"
            )
        src = bgr
        if self.shrink > 1:
            src = cv2.resize(bgr, (w // self.shrink, h // self.shrink),
                             interpolation=cv2.INTER_AREA)
        return cv2.remap(src, self.map_x, self.map_y, cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=(PAD_GREY,) * 3)

    def canon_to_image(self, uv_px: np.ndarray) -> np.ndarray:
        """Full-resolution image pixels of canonical pixels (through the table plane)."""
        return self.mapping.to_image(self.view.to_mm(uv_px), 0.0)

    def image_to_canon(self, xy_px: np.ndarray) -> np.ndarray:
        """Canonical pixels of full-resolution image pixels (through the table plane)."""
        return self.view.to_canon(self.mapping.to_table(xy_px, 0.0))

    def image_px_per_canon_px(self, uv_px: np.ndarray) -> np.ndarray:
        """Local scale ``(N,)``: image pixels per canonical pixel around each point."""
        uv = np.asarray(uv_px, float).reshape(-1, 2)
        steps = np.array([[-0.5, 0.0], [0.5, 0.0], [0.0, -0.5], [0.0, 0.5]])
        a, b, c, d = self.canon_to_image((uv[None] + steps[:, None]).reshape(-1, 2)).reshape(
            4, len(uv), 2)
        return 0.5 * (np.linalg.norm(b - a, axis=1) + np.linalg.norm(d - c, axis=1))


def build_warp(view: CanonicalView, mapping: TableMapping) -> TableWarp:
    """The warp of ``mapping``'s camera onto ``view`` (one projection of every canvas pixel)."""
    w, h = view.size_wh
    uu, vv = np.meshgrid(np.arange(w, dtype=float), np.arange(h, dtype=float))
    uv = np.column_stack([uu.ravel(), vv.ravel()])
    src = mapping.to_image(view.to_mm(uv), 0.0)
    centre = np.array([[(w - 1) / 2, (h - 1) / 2]])
    scale = float(
        np.linalg.norm(mapping.to_image(view.to_mm(centre + [[1.0, 0.0]]), 0.0)
                       - mapping.to_image(view.to_mm(centre), 0.0))
    )
    shrink = max(1, int(math.floor(scale)))
    fw, fh = mapping.resolution_wh
    # A lens model folds back far outside its frame: keep only pixels that map back home.
    back = mapping.to_table(src, 0.0)
    bad = ~np.isfinite(src).all(axis=1) | ~(np.linalg.norm(back - view.to_mm(uv), axis=1) < 5.0)
    src = (src + 0.5) / shrink - 0.5
    src[bad] = -1e4
    map_x = src[:, 0].reshape(h, w).astype(np.float32)
    map_y = src[:, 1].reshape(h, w).astype(np.float32)
    return TableWarp(view, mapping, (int(fw), int(fh)), shrink, map_x, map_y)
