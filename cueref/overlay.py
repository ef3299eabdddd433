"""Overlay video: the source frames with tracked objects and the referee's calls drawn on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np


def write_overlay(video: Path, truth: dict[str, Any], calls: list[dict[str, Any]],
                  out_path: Path) -> int:
    """Draw each object's position and the latest call on every frame; returns frames written.

    Positions come from ``truth`` (a sidecar: per-frame ``xy_px`` and ``visible``); calls are
    shown from their time stamp until the next one.
    """
    from simulation.video import VideoWriter, read_video

    labels = [o["label"] for o in truth["objects"]]
    frames = truth["frames"]
    calls = sorted(calls, key=lambda c: c["t_s"])
    w, h = truth["frame_wh"]
    n = 0
    with VideoWriter(out_path, truth["fps"], (w, h), crf=28) as writer:
        for k, (bgr, t_s) in enumerate(read_video(video)):
            img = np.ascontiguousarray(bgr)
            if k < len(frames):
                f = frames[k]
                for label, (x, y), r, vis in zip(labels, f["xy_px"], f["radius_px"],
                                                 f["visible"], strict=True):
                    if vis <= 0.0:
                        continue
                    c = (int(round(x)), int(round(y)))
                    cv2.circle(img, c, int(round(r)) + 3, (0, 255, 255), 1, cv2.LINE_AA)
                    cv2.putText(img, label.replace("ball_", ""), (c[0] + int(r) + 3, c[1] - 3),
                                cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 255, 255), 1, cv2.LINE_AA)
            shown = [c for c in calls if c["t_s"] <= t_s + 1e-9][-2:]
            for j, c in enumerate(shown):
                text = f"shot {c['shot']}: {c['outcome']} ({c['rule']}) {c['text']}"
                y = h - 16 - 22 * (len(shown) - 1 - j)
                cv2.putText(img, text[:110], (12, y), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                            (0, 0, 0), 3, cv2.LINE_AA)
                cv2.putText(img, text[:110], (12, y), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                            (255, 255, 255), 1, cv2.LINE_AA)
            writer.write(img)
            n += 1
    return n
