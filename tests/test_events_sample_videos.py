"""The segmenter on a sample clip's ground truth gives the sidecar's shots."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from adjudication.detection import MotionEventDetector, ShotSegmenter
from calibration.tables import get_table
from simulation.groundtruth import load_sidecar, shots_from_sidecar
from simulation.synthetic_tracks import TrackNoise, tracks_from_sidecar

CLIPS = Path(__file__).resolve().parents[1] / "sample_videos"


def segment(name: str):
    data = load_sidecar(CLIPS / f"{name}.json")
    spec = get_table(data["table"])
    tracks = tracks_from_sidecar(data, TrackNoise(), np.random.default_rng(0))
    det, seg = MotionEventDetector(spec), ShotSegmenter()
    shots = []
    for tr in tracks:
        shots += seg.update(tr, det.update(tr))
    shots += seg.flush(det.flush())
    return shots, shots_from_sidecar(data)


@pytest.mark.parametrize("name", ["split_hit", "9ball"])
def test_segmenter_matches_sidecar_shots(name):
    shots, truth = segment(name)
    striker = "cue_ball"
    assert [s.number for s in shots] == [s.number for s in truth]
    for got, want in zip(shots, truth, strict=True):
        fc, wc = got.first_contact(striker), want.first_contact(striker)
        assert (fc is None) == (wc is None)
        if fc is not None and fc.confidence >= 0.5:
            assert fc.labels == wc.labels
        assert sorted(got.pocketed_labels()) == sorted(want.pocketed_labels())
