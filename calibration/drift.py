"""Keep the table found: a cheap per-frame test that the camera has not moved.

A fit takes a few hundred milliseconds; a frame arrives every 33. So once a calibration
is made, ``DriftCheck`` remembers what the image looks like across the table's own
edges (the cushion noses or rail edges and the printed lines, where they are in view):
short brightness profiles along each edge's normal, a few hundred of them. For every
new frame it samples the same profiles (one ``cv2.remap`` of a few thousand pixels) and
slides each against its reference by up to ``search_px``:

* most profiles still fit where they were: **steady**;
* hardly any do, or those that can be matched all fit somewhere else by a pixel or more:
  the camera was bumped, zoomed or cut away, **moved** (re-fit, and say so in the
  stream);
* in between (a body over a good part of the table): **obscured** — keep the
  calibration but do not trust new positions, and look again next frame.

Profiles are compared after removing their mean and scale, so flicker, white-balance
drift and exposure changes do not read as motion; a player's hand over a rail spoils a
few profiles, not most.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.model import Calibration

#: Statuses of a ``DriftReport``.
STEADY, MOVED, OBSCURED = "steady", "moved", "obscured"


@dataclass(frozen=True, slots=True)
class DriftSettings:
    """Thresholds of the drift check (pixels are full-resolution image pixels)."""

    spacing_px: float = 12.0  # between profiles along an edge
    half_length_px: float = 4.0  # of a profile, each side of the edge
    search_px: float = 3.0  # largest slide tried against the reference
    step_px: float = 0.5
    min_contrast: float = 6.0  # grey levels (std) a reference profile needs to be used
    min_correlation: float = 0.8  # a profile "matches" at a slide this well or better
    still_px: float = 0.75  # a match within this slide has not moved
    steady_share: float = 0.6  # of usable profiles matching still: steady
    moved_share: float = 0.25  # fewer still than this: the view changed (bump, zoom, cut)
    visible_share: float = 0.4  # of usable profiles matching somewhere, to read a slide
    moved_px: float = 1.0  # median slide of the matches that says the camera moved
    margin_px: float = 8.0  # profiles this close to the frame border are not used


@dataclass(frozen=True, slots=True)
class DriftReport:
    """One frame's verdict; ``shift_px`` is the median slide of the matched profiles."""

    status: str
    shift_px: float
    still: float  # share of usable profiles matching where they were
    visible: float  # share of usable profiles matching somewhere within the search
    profiles: int  # usable profiles

    @property
    def moved(self) -> bool:
        return self.status == MOVED


def _edge_points(calib: Calibration, spacing_px: float) -> tuple[np.ndarray, np.ndarray]:
    """Image points ``(K, 2)`` along the table's edges and lines, and unit normals."""
    spec = calib.spec
    curves: list[np.ndarray] = []
    for c in spec.cushions:
        curves.append(np.array([c.a_xy_mm, c.b_xy_mm], float))
    for line in spec.lines:
        if line.is_circle:
            t = np.linspace(0, 2 * np.pi, 73)
            curves.append(np.column_stack([line.a_xy_mm[0] + line.radius_mm * np.cos(t),
                                           line.a_xy_mm[1] + line.radius_mm * np.sin(t)]))
        else:
            curves.append(np.array([line.a_xy_mm, line.b_xy_mm], float))
    pts, normals = [], []
    for poly in curves:
        for a, b in zip(poly[:-1], poly[1:], strict=True):
            ends = calib.to_image(np.array([a, b]))
            n = max(2, int(np.linalg.norm(ends[1] - ends[0]) / spacing_px))
            # inset from segment ends: corners and joins make poor profiles
            s = np.linspace(0.0, 1.0, n + 2)[1:-1]
            mm = a + s[:, None] * (b - a)
            px = calib.to_image(mm)
            ahead = calib.to_image(mm + 1e-3 * (b - a))
            tangent = ahead - px
            tangent /= np.linalg.norm(tangent, axis=1, keepdims=True) + 1e-12
            pts.append(px)
            normals.append(np.column_stack([-tangent[:, 1], tangent[:, 0]]))
    return np.concatenate(pts), np.concatenate(normals)


def _grey_samples(bgr: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """Grey levels at sub-pixel points ``(..., 2)`` (one remap of only those points)."""
    shape = xy.shape[:-1]
    flat = xy.reshape(1, -1, 2).astype(np.float32)
    s = cv2.remap(bgr, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR,
                  borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    grey = s @ np.array([0.114, 0.587, 0.299], np.float32) if s.ndim == 3 else s
    return grey.reshape(shape)


def _normalise(p: np.ndarray) -> np.ndarray:
    p = p - p.mean(axis=-1, keepdims=True)
    return p / (np.linalg.norm(p, axis=-1, keepdims=True) + 1e-6)


class DriftCheck:
    """Per-frame check that the camera of ``calib`` still sees the table where it did in
    ``frame_bgr`` (the frame it was fitted on)."""

    def __init__(self, calib: Calibration, frame_bgr: np.ndarray,
                 settings: DriftSettings | None = None):
        st = settings or DriftSettings()
        self.calib = calib
        self.settings = st
        h, w = frame_bgr.shape[:2]
        pts, normals = _edge_points(calib, st.spacing_px)
        m = st.margin_px + st.half_length_px + st.search_px
        inside = ((pts[:, 0] > m) & (pts[:, 0] < w - 1 - m) & (pts[:, 1] > m)
                  & (pts[:, 1] < h - 1 - m))
        pts, normals = pts[inside], normals[inside]
        half = st.half_length_px
        self._offsets = np.arange(-half, half + 1e-9, st.step_px)
        self._slides = np.arange(-st.search_px, st.search_px + 1e-9, st.step_px)
        wide = np.arange(-half - st.search_px, half + st.search_px + 1e-9, st.step_px)
        ref = _grey_samples(frame_bgr, pts[:, None, :] + wide[None, :, None] * normals[:, None])
        # keep profiles with an edge to hold on to in their middle part
        core = ref[:, len(self._slides) // 2: len(self._slides) // 2 + len(self._offsets)]
        usable = core.std(axis=1) >= st.min_contrast
        self.points_px = pts[usable]
        self.normals = normals[usable]
        n_off = len(self._offsets)
        # the reference, slid: (K, slides, offsets), each window normalised
        idx = np.arange(len(self._slides))[:, None] + np.arange(n_off)[None, :]
        self._ref = _normalise(ref[usable][:, idx])
        self._sample_xy = (self.points_px[:, None, :]
                           + self._offsets[None, :, None] * self.normals[:, None, :])
        self.frame_wh = (w, h)

    def __call__(self, frame_bgr: np.ndarray) -> DriftReport:
        """The verdict for one frame of the same source (same size)."""
        st = self.settings
        k = len(self.points_px)
        if k == 0:
            return DriftReport(OBSCURED, float("nan"), 0.0, 0.0, 0)
        h, w = frame_bgr.shape[:2]
        if (w, h) != self.frame_wh:
            raise ValueError(f"frame is {w}x{h}, the calibration's is "
                             f"{self.frame_wh[0]}x{self.frame_wh[1]}")
        cur = _normalise(_grey_samples(frame_bgr, self._sample_xy))  # (K, offsets)
        # where the current profile sits in the reference: slide s means the edge moved -s
        corr = np.einsum("kso,ko->ks", self._ref, cur)
        best = corr.argmax(axis=1)
        peak = corr[np.arange(k), best]
        # parabolic sub-step slide at the peak
        lo = corr[np.arange(k), np.clip(best - 1, 0, len(self._slides) - 1)]
        hi = corr[np.arange(k), np.clip(best + 1, 0, len(self._slides) - 1)]
        den = lo - 2 * peak + hi
        frac = np.divide(0.5 * (lo - hi), den, out=np.zeros_like(den), where=np.abs(den) > 1e-9)
        slide = (self._slides[best] + np.clip(frac, -0.5, 0.5) * st.step_px)
        matched = peak >= st.min_correlation
        still = matched & (np.abs(slide) <= st.still_px)
        visible, share_still = matched.mean(), still.mean()
        shift = float(np.median(np.abs(slide[matched]))) if matched.any() else float("nan")
        if share_still >= st.steady_share:
            status = STEADY
        elif share_still < st.moved_share or (visible >= st.visible_share
                                              and shift >= st.moved_px):
            status = MOVED  # the edges left their places (beyond the search, or all alike)
        else:
            status = OBSCURED
        return DriftReport(status, shift, float(share_still), float(visible), k)
