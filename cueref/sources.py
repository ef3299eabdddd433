"""Reading frames from what the user points cueref at: an image, a video or a folder.

``read_frame(path, index)`` returns one BGR frame and its time; ``iter_frames(source)``
streams every frame of a video file or a folder of images; ``SourceError`` says in one
line what could not be read. Video goes through PyAV (timestamps are the frames' own,
never ``index / fps``); a folder of images has no clock, so its frames are ``fps`` apart.
"""

from __future__ import annotations

from collections.abc import Iterator
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
    seen = 0
    for frame in _iter_video(path):  # decoded in order up to the one asked for
        if frame.index == index:
            return frame
        seen += 1
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


def _frame_time_s(frame) -> float:  # type: ignore[no-untyped-def]
    if frame.pts is not None and frame.time_base is not None:
        return float(frame.pts * frame.time_base)
    return float(frame.time or 0.0)


def _iter_video(path: Path) -> Iterator[SourceFrame]:
    import av

    try:
        container = av.open(str(path))
    except (av.error.FFmpegError, UnicodeDecodeError, ValueError):
        raise SourceError(f"cannot read {str(path)!r} as an image or a video") from None
    with container:
        if not container.streams.video:
            raise SourceError(f"{str(path)!r} has no video stream")
        stream = container.streams.video[0]
        stream.thread_type = "AUTO"
        index = 0
        try:
            for frame in container.decode(stream):
                yield SourceFrame(frame.to_ndarray(format="bgr24"), index, _frame_time_s(frame))
                index += 1
        except av.error.FFmpegError as exc:
            raise SourceError(f"cannot decode {str(path)!r} after frame {index}: {exc}") from None
    if index == 0:
        raise SourceError(f"video {str(path)!r} has no frames")


def _iter_folder(path: Path, fps: float) -> Iterator[SourceFrame]:
    import cv2

    files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise SourceError(f"folder {str(path)!r} has no images "
                          f"({', '.join(sorted(IMAGE_SUFFIXES))})")
    for index, file in enumerate(files):
        img = cv2.imread(str(file), cv2.IMREAD_COLOR)
        if img is None:
            raise SourceError(f"cannot read {str(file)!r} as an image")
        yield SourceFrame(img, index, index / fps)


def video_fps(path: str | Path) -> float | None:
    """The video's nominal frame rate, or None for images, folders and unknown rates."""
    p = Path(path)
    if not p.is_file() or p.suffix.lower() in IMAGE_SUFFIXES:
        return None
    import av

    try:
        with av.open(str(p)) as container:
            rate = container.streams.video[0].average_rate if container.streams.video else None
    except (av.error.FFmpegError, UnicodeDecodeError, ValueError):
        return None
    return float(rate) if rate else None


def iter_frames(source: str | Path, *, fps: float = 30.0) -> Iterator[SourceFrame]:
    """Every frame of a video file, a folder of images (in name order, ``fps`` apart) or
    a single image, in order."""
    p = Path(source)
    if p.is_dir():
        return _iter_folder(p, fps)
    if not p.is_file():
        raise SourceError(f"{str(p)!r} not found")
    if p.suffix.lower() in IMAGE_SUFFIXES:
        return iter([_read_image(p, 0)])
    return _iter_video(p)
