"""H.264 video in and out through PyAV (libx264, yuv420p).

Timestamps are the frames' own presentation timestamps; never ``frame_count / fps``
(real containers lie about both, see ``shared/REAL_WORLD.md``).
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from types import TracebackType

import numpy as np


class VideoWriter:
    """Writes BGR frames to an H.264 file; a context manager that closes like a file.

    ``crf`` trades size for fidelity (18 near-lossless, 23 default, 28+ broadcast-like
    smearing). ``write(bgr, t_s=...)`` places a frame at its own time (variable frame rate);
    without ``t_s`` frames follow each other at ``fps``.
    """

    def __init__(
        self,
        path: str | Path,
        fps: float,
        resolution_wh: tuple[int, int],
        crf: int = 23,
        preset: str = "veryfast",
    ):
        import av

        w, h = resolution_wh
        if w % 2 or h % 2:
            raise ValueError(f"yuv420p needs an even resolution, got {w}x{h}")
        if fps <= 0:
            raise ValueError(f"fps must be > 0, got {fps}")
        self.path = Path(path)
        self.resolution_wh = (int(w), int(h))
        self._rate = Fraction(fps).limit_denominator(1001)
        self._container = av.open(str(self.path), mode="w")
        stream = self._container.add_stream("libx264", rate=self._rate)
        stream.width, stream.height = self.resolution_wh
        stream.pix_fmt = "yuv420p"
        stream.codec_context.time_base = 1 / self._rate
        stream.options = {"crf": str(int(crf)), "preset": preset}
        self._stream = stream
        self._next_pts = 0
        self._closed = False
        self.frames_written = 0

    def write(self, bgr: np.ndarray, t_s: float | None = None) -> None:
        import av

        if self._closed:
            raise ValueError("write to a closed VideoWriter")
        w, h = self.resolution_wh
        if bgr.shape != (h, w, 3) or bgr.dtype != np.uint8:
            raise ValueError(f"expected ({h}, {w}, 3) uint8, got {bgr.shape} {bgr.dtype}")
        frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(bgr), format="bgr24")
        pts = self._next_pts if t_s is None else max(round(t_s * self._rate), self._next_pts)
        frame.pts = pts
        frame.time_base = 1 / self._rate
        self._next_pts = pts + 1
        for packet in self._stream.encode(frame):
            self._container.mux(packet)
        self.frames_written += 1

    def close(self) -> None:
        if self._closed:
            return
        for packet in self._stream.encode():
            self._container.mux(packet)
        self._container.close()
        self._closed = True

    def __enter__(self) -> VideoWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def read_video(path: str | Path) -> Iterator[tuple[np.ndarray, float]]:
    """Decoded BGR frames with their presentation timestamps in seconds."""
    import av

    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        for frame in container.decode(stream):
            if frame.pts is not None and frame.time_base is not None:
                t_s = float(frame.pts * frame.time_base)
            else:
                t_s = float(frame.time or 0.0)
            yield frame.to_ndarray(format="bgr24"), t_s


def video_codec(path: str | Path) -> str:
    """The codec name of the first video stream (e.g. ``"h264"``)."""
    import av

    with av.open(str(path)) as container:
        return str(container.streams.video[0].codec_context.name)
