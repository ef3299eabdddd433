"""Overlay video: the source frames with what cueref tracked and the latest calls drawn on.

``OverlayWriter`` is a sink that closes like a file. Each frame gets every track on the
table drawn where the calibration puts it in the image (at the object's own height), its
label and state (moving, resting, occluded), and the last two calls made so far.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import cv2
import numpy as np

from calibration.model import Calibration
from calibration.tables import TableSpec
from tracking.types import Tracks, TrackState

#: BGR colours per track state.
STATE_BGR = {
    int(TrackState.MOVING): (80, 255, 80),
    int(TrackState.RESTING): (0, 255, 255),
    int(TrackState.OCCLUDED): (160, 160, 160),
}


def _short(label: str) -> str:
    return {"cue_ball": "cue", "red_pawn": "R", "black_pawn": "B"}.get(
        label, label.replace("ball_", ""))


class OverlayWriter:
    """``with OverlayWriter(path, fps, (w, h), spec) as ov: ov.draw(bgr, t_s, calib, tracks,
    calls)`` writes one annotated frame per call."""

    def __init__(self, path: str | Path, fps: float, resolution_wh: tuple[int, int],
                 spec: TableSpec) -> None:
        from simulation.video import VideoWriter

        self.spec = spec
        self.frames = 0
        w, h = resolution_wh
        self._wh = (w - w % 2, h - h % 2)  # H.264 (yuv420p) wants even sizes
        self._writer = VideoWriter(path, fps, self._wh, crf=28)
        self._height = {lab: spec.object_for(lab).centre_height_mm for lab in spec.labels}

    def draw(self, bgr: np.ndarray, calib: Calibration | None, tracks: Tracks | None,
             calls: Sequence[dict[str, Any]]) -> None:
        img = np.ascontiguousarray(bgr[: self._wh[1], : self._wh[0]]).copy()
        if calib is not None and tracks is not None and len(tracks):
            on = tracks[tracks.on_table]
            z = np.array([self._height.get(lab, 0.0) for lab in on.label])
            xy_px = calib.to_image(on.xy_mm, z) if len(on) else np.zeros((0, 2))
            radius = [self.spec.object_for(lab).radius_mm if lab in self._height else 20.0
                      for lab in on.label]
            px_per_mm = _scale(calib)
            for (x, y), lab, state, r in zip(xy_px, on.label, on.state, radius, strict=True):
                c = (int(round(x)), int(round(y)))
                colour = STATE_BGR.get(int(state), (255, 255, 255))
                rad = max(4, int(round(r * px_per_mm)) + 3)
                cv2.circle(img, c, rad, colour, 1, cv2.LINE_AA)
                cv2.putText(img, _short(lab), (c[0] + rad, c[1] - 3),
                            cv2.FONT_HERSHEY_SIMPLEX, 0.4, colour, 1, cv2.LINE_AA)
        h = img.shape[0]
        shown = list(calls)[-2:]
        for j, c in enumerate(shown):
            text = f"shot {c['shot']}: {c['outcome']} ({c['rule']}) {c['text']}"
            y = h - 16 - 22 * (len(shown) - 1 - j)
            cv2.putText(img, text[:110], (12, y), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                        (0, 0, 0), 3, cv2.LINE_AA)
            cv2.putText(img, text[:110], (12, y), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                        (255, 255, 255), 1, cv2.LINE_AA)
        self._writer.write(img)
        self.frames += 1

    def close(self) -> None:
        self._writer.close()

    def __enter__(self) -> OverlayWriter:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _scale(calib: Calibration) -> float:
    """Image pixels per table mm near the table's centre."""
    pts = calib.to_image(np.array([[0.0, 0.0], [100.0, 0.0]]))
    return float(np.linalg.norm(pts[1] - pts[0])) / 100.0
