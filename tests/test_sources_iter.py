"""Streaming frames from a video file or a folder of images, with their times."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from cueref.sources import SourceError, iter_frames, video_fps


def test_video_frames_come_in_order_with_the_container_timestamps() -> None:
    frames = list(iter_frames("sample_videos/split_hit.mp4"))
    t = np.array([f.t_s for f in frames])
    assert [f.index for f in frames] == list(range(len(frames)))
    assert np.all(np.diff(t) > 0)
    assert np.median(np.diff(t)) == pytest.approx(1 / 30, rel=1e-3)
    assert video_fps("sample_videos/split_hit.mp4") == pytest.approx(30.0)


def test_folder_of_images_reads_in_name_order_fps_apart(tmp_path: Path) -> None:
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"f{i:03d}.png"), np.full((8, 12, 3), i * 50, np.uint8))
    (tmp_path / "notes.txt").write_text("not an image")
    frames = list(iter_frames(tmp_path, fps=25.0))
    assert [int(f.bgr[0, 0, 0]) for f in frames] == [0, 50, 100]
    assert [f.t_s for f in frames] == pytest.approx([0.0, 0.04, 0.08])
    assert video_fps(tmp_path) is None


@pytest.mark.parametrize("make, message", [
    (lambda p: p / "missing.mp4", "not found"),
    (lambda p: p, "has no images"),
    (lambda p: (p / "x.mp4").write_text("junk") and p / "x.mp4", "cannot read"),
])
def test_unreadable_sources_say_what_is_wrong(tmp_path: Path, make, message: str) -> None:
    with pytest.raises(SourceError, match=message):
        list(iter_frames(make(tmp_path)))
