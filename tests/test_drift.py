"""The per-frame drift check: steady through play, moved on a camera bump."""

import json
from pathlib import Path

import numpy as np
import pytest

from calibration.drift import MOVED, STEADY, DriftCheck
from calibration.tables import get_table
from simulation.camera import CameraModel
from simulation.dataset import calibration_of
from simulation.video import read_video

SAMPLES = Path(__file__).resolve().parents[1] / "sample_videos"


def clip(name: str):  # type: ignore[no-untyped-def]
    side = json.loads((SAMPLES / f"{name}.json").read_text())
    spec = get_table(side["table"])
    cams = [calibration_of(spec, CameraModel.from_json(c)) for c in side["cameras"]]
    return side, cams, list(read_video(SAMPLES / f"{name}.mp4"))


@pytest.fixture(scope="module")
def bump():  # type: ignore[no-untyped-def]
    return clip("camera_bump")


def test_a_camera_bump_reads_moved_from_its_first_frame_and_steady_before(bump):
    side, cams, frames = bump
    t_bump = side["camera_switch_s"][1]
    check = DriftCheck(cams[0], frames[0][0])
    status = [(t, check(bgr).status) for bgr, t in frames]
    assert all(s == STEADY for t, s in status if t < t_bump - 1e-6)  # players move, not it
    assert all(s == MOVED for t, s in status if t >= t_bump - 1e-6)


def test_after_a_refit_the_settled_camera_reads_steady(bump):
    side, cams, frames = bump
    settled = [(bgr, t) for bgr, t in frames if t >= side["camera_switch_s"][-1]]
    check = DriftCheck(cams[-1], settled[0][0])
    assert {check(bgr).status for bgr, _ in settled} == {STEADY}


def test_hands_and_cues_over_the_table_are_not_a_bump():
    side, cams, frames = clip("hand_over_table")
    check = DriftCheck(cams[0], frames[0][0])
    reports = [check(bgr) for bgr, _ in frames]
    assert all(r.status == STEADY for r in reports)
    assert min(r.still for r in reports) > 0.8 and reports[0].profiles > 100


def test_light_changes_are_not_a_bump(bump):
    _, cams, frames = bump
    check = DriftCheck(cams[0], frames[0][0])
    darker = (frames[5][0].astype(np.float32) * 0.6 + 20).astype(np.uint8)
    assert check(darker).status == STEADY


def test_a_frame_of_another_size_is_refused(bump):
    _, cams, frames = bump
    check = DriftCheck(cams[0], frames[0][0])
    with pytest.raises(ValueError, match="calibration's is"):
        check(frames[0][0][:100, :100])
