"""The pipeline's own bookkeeping, without pixels: development-mode observations in,
stream lines out."""

from __future__ import annotations

import pytest

from adjudication.games import Game
from calibration.tables import get_table
from cueref.pipeline import Pipeline, sidecar_observations
from cueref.stream import validation_errors
from simulation.groundtruth import load_sidecar, sidecar_declarations


def _run(pipe: Pipeline, name: str) -> None:
    for obs in sidecar_observations(load_sidecar(f"sample_videos/{name}.json")):
        pipe.feed_observations(obs)
    pipe.close()


def test_a_shot_the_engine_cannot_judge_becomes_a_review_call_and_the_run_goes_on():
    lines: list[dict] = []
    pipe = Pipeline(game=Game.NINE_BALL, spec=get_table("pool-9ft"), players=("A", "B"),
                    observer=None, keeper=None, write=lines.append)

    real = pipe.engine

    class Broken:
        def start(self, players, **kw):
            return real.start(players, **kw)

        def judge(self, state, shot, declaration=None):
            raise IndexError("list index out of range")

    pipe.engine = Broken()  # type: ignore[assignment]
    _run(pipe, "split_hit")
    calls = [ln for ln in lines if ln["type"] == "call"]
    assert calls and all(c["outcome"] == "review" for c in calls)
    assert "IndexError" in calls[0]["evidence"]["error"]
    assert all(validation_errors(ln) == [] for ln in lines)


def test_untrusted_time_during_a_shot_adds_the_camera_review_call():
    lines: list[dict] = []
    pipe = Pipeline(game=Game.NINE_BALL, spec=get_table("pool-9ft"), players=("A", "B"),
                    observer=None, keeper=None, write=lines.append)
    for obs in sidecar_observations(load_sidecar("sample_videos/split_hit.json")):
        pipe.feed_observations(obs, trusted=not 3.0 < obs.t_s < 3.4)
    pipe.close()
    calls = [ln for ln in lines if ln["type"] == "call"]
    assert calls[0]["rule"] == "WPA camera review" and calls[0]["outcome"] == "review"
    assert 0.3 <= calls[0]["evidence"]["untrusted_s"] <= 0.45


@pytest.mark.parametrize("name, game, outcomes", [
    # the 8 m/s cue ball's blur flags its bend the frame before it reaches the apex, and
    # the frame after misses it: its line, run on past that frame, meets the apex ball
    ("hand_over_table", Game.NINE_BALL, ("review",)),
    # the 10 m/s cue ball's blur flags its bend 6 ms before it reaches the apex: the apex,
    # which its line meets within half a frame, is a candidate at that frame
    ("10ball", Game.TEN_BALL, ()),
])
def test_break_cue_ball_flagged_bending_early_hits_the_apex_first(name, game, outcomes):
    # development mode: the break's calls are the ground truth's; the first contact is the
    # 1 (perhaps for review), never the ball the cue ball passes later (a wrong "hit the 2
    # first" foul)
    truth = load_sidecar(f"sample_videos/{name}.json")
    lines: list[dict] = []
    pipe = Pipeline(game=game, spec=get_table(truth["table"]),
                    players=tuple(truth["players"]), observer=None, keeper=None,
                    write=lines.append)
    _run(pipe, name)
    ours = {(c["rule"], c["outcome"]) for c in lines if c["type"] == "call" and c["shot"] == 1}
    want = {(c["rule"], c["outcome"]) for c in truth["shots"][0]["calls"]}
    assert want <= ours
    # the only other call may be the first-contact rule's review (WPA 6.2), where allowed
    assert all(rule == "WPA 6.2" and outcome in outcomes for rule, outcome in ours - want)


def test_novuss_clip_in_development_mode_makes_the_ground_truth_calls_and_no_other():
    # shot 2: the puck, 2.3 m/s, its sightings noisy with its speed, hits pawn 10 of the
    # row cushion a holds at 7.406 s, after the frame at 7.400 s: its bend is flagged at
    # the frame after, not where a path whose fit is noisier than its sightings comes
    # within that fit's noise of the pawn (then the hit lies past the window, and the
    # row's end pawn, flying off, took it: a review call)
    truth = load_sidecar("sample_videos/novuss.json")
    lines: list[dict] = []
    pipe = Pipeline(game=Game.NOVUSS, spec=get_table("novuss"), players=tuple(truth["players"]),
                    observer=None, keeper=None, write=lines.append,
                    declarations=sidecar_declarations(truth))
    _run(pipe, "novuss")
    ours = sorted((c["shot"], c["rule"], c["outcome"]) for c in lines if c["type"] == "call")
    want = sorted((c["shot"], c["rule"], c["outcome"]) for s in truth["shots"]
                  for c in s["calls"])
    assert ours == want


def test_pawns_half_under_the_cue_are_observed_as_less_sure():
    """Sample clip novuss, frame 313: the cue lies over two black pawns (68 % and 85 %
    visible), whose edge fits are spoilt and whose centres are 4-8 mm off. Their
    observations say so (a larger sigma, from the fit's RMS); clear objects keep the
    refined centre's 1 mm (plus the calibration's). How much larger turns on a few
    tenths of a pixel of the model's box, which differ between CPUs: 3.4 mm on one
    machine, 1.4 mm on another, for the one more hidden."""
    import cv2
    import numpy as np

    from calibration.keeper import CalibrationKeeper
    from cueref.pipeline import REFINED_SIGMA_MM, DetectorObserver
    from cueref.sources import SourceFrame
    from vision.detector import Detector

    spec = get_table("novuss")
    truth = load_sidecar("sample_videos/novuss.json")
    cap = cv2.VideoCapture("sample_videos/novuss.mp4")
    keeper, observer = CalibrationKeeper(spec), DetectorObserver(Detector(threads=2), spec)
    for i in range(314):
        ok, bgr = cap.read()
        assert ok
        calib = keeper.update(bgr, i).calib
    obs = observer(SourceFrame(bgr, i, i / truth["fps"]), calib)
    xy = np.asarray(truth["frames"][i]["xy_mm"])
    visible = np.asarray(truth["frames"][i]["visible"])
    nearest = np.linalg.norm(obs.xy_mm[:, None] - xy[None], axis=2).argmin(axis=1)
    hidden = visible[nearest] < 0.9
    clear_sigma = np.hypot(REFINED_SIGMA_MM, calib.rms_mm)
    assert hidden.sum() == 2 and np.all(obs.sigma_mm[hidden] > 1.1 * clear_sigma)
    assert np.median(obs.sigma_mm[~hidden]) == pytest.approx(clear_sigma)
