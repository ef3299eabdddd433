"""Reading frames from what the user points cueref at: an image file or a video file.

``read_frame(path, index)`` returns one BGR frame and its time; ``SourceError`` says in one
line what could not be read. Video goes through PyAV (frames are decoded in order up to the
one asked for; timestamps are the frames' own, never ``index / fps``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

#: Extensions read as still images; anything else is tried as a video.
IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})


class SourceError(ValueError):
    """The source cannot be read (missing, not an image or a video, no such frame)."""


@dataclass(frozen=True, slots=True)
class SourceFrame:
    """One frame of a source: BGR pixels, its index and its time in seconds."""

    bgr: np.ndarray
    index: int
    t_s: float

    @property
    def resolution_wh(self) -> tuple[int, int]:
        return int(self.bgr.shape[1]), int(self.bgr.shape[0])


def _read_image(path: Path, index: int) -> SourceFrame:
    import cv2

    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise SourceError(f"cannot read {str(path)!r} as an image (PNG, JPEG, BMP, TIFF...)")
    if index != 0:
        raise SourceError(f"{str(path)!r} is a still image: it has only frame 0, not {index}")
    return SourceFrame(img, 0, 0.0)


def _read_video(path: Path, index: int) -> SourceFrame:
    import av

    try:
        container = av.open(str(path))
    except (av.error.FFmpegError, UnicodeDecodeError, ValueError):
        raise SourceError(f"cannot read {str(path)!r} as an image or a video") from None
    with container:
        if not container.streams.video:
            raise SourceError(f"{str(path)!r} has no video stream")
        stream = container.streams.video[0]
        seen = 0
        try:
            for frame in container.decode(stream):
                if seen == index:
                    if frame.pts is not None and frame.time_base is not None:
                        t_s = float(frame.pts * frame.time_base)
                    else:
                        t_s = float(frame.time or 0.0)
                    return SourceFrame(frame.to_ndarray(format="bgr24"), index, t_s)
                seen += 1
        except av.error.FFmpegError as exc:
            raise SourceError(f"cannot decode {str(path)!r} after frame {seen}: {exc}") from None
    if seen == 0:
        raise SourceError(f"video {str(path)!r} has no frames")
    raise SourceError(f"video {str(path)!r} has {seen} frames (0..{seen - 1}); "
                      f"frame {index} is past the end")


def read_frame(path: str | Path, index: int = 0) -> SourceFrame:
    """Frame ``index`` (from 0) of an image or a video file."""
    p = Path(path)
    if index < 0:
        raise SourceError(f"frame numbers start at 0, got {index}")
    if not p.is_file():
        raise SourceError(f"{str(p)!r} not found")
    if p.suffix.lower() in IMAGE_SUFFIXES:
        return _read_image(p, index)
    return _read_video(p, index)
