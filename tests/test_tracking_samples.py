"""Ratchet: the tracker on noisy observations of sample clips may not get worse than the
numbers in tests/data/tracking_ratchet.json (target: no ID switch at all)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calibration.tables import get_table
from simulation.groundtruth import load_sidecar
from simulation.observe import ObserveSettings, ground_truth_from_sidecar, observe
from simulation.trackeval import id_switches
from tracking.tracker import Tracker
from tracking.types import TrackState

ROOT = Path(__file__).resolve().parents[1]
RATCHET = json.loads((ROOT / "tests" / "data" / "tracking_ratchet.json").read_text())


@pytest.mark.parametrize("clip", sorted(RATCHET["max_id_switches"]))
def test_sample_clip_id_switches_do_not_rise(clip: str) -> None:
    gt = ground_truth_from_sidecar(load_sidecar(ROOT / "sample_videos" / f"{clip}.json"))
    observed = observe(gt, ObserveSettings(), seed=RATCHET["seed"])
    tracker = Tracker(get_table(gt.table))
    run = [tracker.update(o) for o in observed.frames]
    score = id_switches(gt, observed.truth_frame, run)
    assert score["switches"] <= RATCHET["max_id_switches"][clip], score
    # every object the clip ends with on the table has a track in play, none pocketed
    on = gt.status[observed.truth_frame[-1]] == 0
    assert (run[-1].state != TrackState.POCKETED).sum() >= on.sum()


def test_pawns_set_down_in_a_row_keep_their_identities() -> None:
    # novuss_doubles under noise seed 2: a black pawn glimpsed in the hand at 1.72 s and
    # missed for three frames was taken for a pawn at 900 mm/s when the hand set a row of
    # four down 110 mm away, and ran along the row taking each pawn's detection in turn
    gt = ground_truth_from_sidecar(load_sidecar(ROOT / "sample_videos" / "novuss_doubles.json"))
    observed = observe(gt, ObserveSettings(), seed=2)
    tracker = Tracker(get_table(gt.table))
    run = [tracker.update(o) for o in observed.frames[:70]]
    assert id_switches(gt, observed.truth_frame[:70], run)["switches"] == 0


@pytest.mark.parametrize("clip, seed", [("camera_bump", 4), ("novuss_doubles", 2),
                                        ("novuss_mid_set", 3)])
def test_sample_clip_under_other_noise_seeds_keeps_every_identity(clip: str, seed: int) -> None:
    # Each of these once switched identities:
    # - camera_bump, seed 4: a hand moving along a row hid one pawn as it uncovered the
    #   next, which was taken for the hidden one moved there within a frame (hand_min_s);
    #   and the puck's path, predicted past the centre of the pawn it hit, did not count
    #   as approaching it, so the row's pushes ran the wrong way and two pawns flying off
    #   its ends swapped tracks.
    # - novuss_doubles, seed 2: a false detection 19 mm beside a pawn hidden 1.3 s carried
    #   its track off (a shift needs a second sighting), and two pawns under a hand took
    #   the identities of pawns set down across the board 0.08 s later.
    # - novuss_mid_set, seed 3: the puck struck away from a pawn counted as knocking it,
    #   its present uncertainty widening the touch where it began; the hidden pawn then
    #   followed false detections across the board.
    gt = ground_truth_from_sidecar(load_sidecar(ROOT / "sample_videos" / f"{clip}.json"))
    observed = observe(gt, ObserveSettings(), seed=seed)
    tracker = Tracker(get_table(gt.table))
    run = [tracker.update(o) for o in observed.frames]
    assert id_switches(gt, observed.truth_frame, run)["switches"] == 0
