"""Which end is which: a start position on the table turns the fitted frame of a symmetric
table (pool: half turns; Novuss: quarter turns) into the table frame, and ``rotate``
re-expresses the same camera in the turned frame."""

import dataclasses

import numpy as np
import pytest

from calibration.orientation import (
    OrientationSettings,
    infer_orientation,
    rotate,
    rotate_detections,
    rotate_points,
)
from calibration.tables import get_table
from calibration.views import detector_warp, silhouette_heights_mm
from simulation.appearance import clean_appearance, random_appearance
from simulation.camera import CameraSetup, overhead_camera
from simulation.dataset import calibration_of
from simulation.racks import cue_ball_in_kitchen, novuss_start, pool_rack
from simulation.render import Renderer, SceneFrame
from vision.detector import Detector

POOL, NOVUSS = get_table("pool-9ft"), get_table("novuss")


def exact_calibration(spec, tilt_deg: float = 6.0, *, roll_deg: float = 0.0):  # type: ignore[no-untyped-def]
    novuss = spec is NOVUSS
    cam = overhead_camera(spec, CameraSetup((1280, 720), height_mm=1300 if novuss else 3600,
                                            fill=0.85, tilt_deg=tilt_deg, tilt_azimuth_deg=40,
                                            roll_deg=roll_deg, k1=-0.1 if novuss else -0.03))
    return cam, calibration_of(spec, cam)


def rack_with_cue_ball(game: str, seed: int = 0):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    labels, xy = pool_rack(game, POOL, rng)
    cue = cue_ball_in_kitchen(POOL, rng, occupied_xy_mm=xy)
    return (*labels, "cue_ball"), np.vstack([xy, [cue]])


# ------------------------------------------------------------------- pure functions

@pytest.mark.parametrize("game", ["8ball", "9ball", "10ball", "14.1-rerack"])
@pytest.mark.parametrize("turn", [0, 180])
def test_a_rack_tells_the_foot(game, turn):
    _, calib = exact_calibration(POOL)
    labels, xy = rack_with_cue_ball(game)
    # the fit came back turned by -turn: the rack lies where the fit's frame puts it
    verdict = infer_orientation(calib, rotate_points(xy, -turn), labels)
    assert verdict.deg == turn, verdict.reason
    assert "rack" in verdict.reason


@pytest.mark.parametrize(
    ("xy_mm", "labels"),
    [
        (np.zeros((0, 2)), []),
        # four balls frozen at the foot spot are not yet a rack
        (np.array([[635.0, 0.0], [685.0, 29.0], [685.0, -29.0], [735.0, 0.0]]),
         ["ball_1", "ball_2", "ball_3", "ball_4"]),
        # racks at both ends: nothing decides
        (np.concatenate([rack_with_cue_ball("9ball")[1][:9],
                         -rack_with_cue_ball("9ball")[1][:9]]), ["ball_1"] * 18),
    ],
    ids=["empty", "four_balls", "two_racks"],
)
def test_pool_without_one_rack_is_undecided(xy_mm, labels):
    _, calib = exact_calibration(POOL)
    verdict = infer_orientation(calib, xy_mm, labels)
    assert verdict.deg is None and "kept the fit's frame" in verdict.reason


def test_scattered_balls_decide_nothing():
    _, calib = exact_calibration(POOL)
    rng = np.random.default_rng(4)
    xy = np.column_stack([rng.uniform(-1200, 1200, 9), rng.uniform(-600, 600, 9)])
    assert infer_orientation(calib, xy, ["ball_1"] * 9).deg is None


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_novuss_singles_start_rows_tell_all_four_turns(turn):
    _, calib = exact_calibration(NOVUSS)
    labels, xy = novuss_start(NOVUSS, doubles=False)
    verdict = infer_orientation(calib, rotate_points(xy, -turn), labels)
    assert verdict.deg == turn and verdict.reason.startswith("singles start rows (16 pawns)")


@pytest.mark.parametrize(("turn", "told"), [(0, 0), (90, 90), (180, 0), (270, 90)])
def test_novuss_doubles_start_rows_tell_the_axes_only(turn, told):
    _, calib = exact_calibration(NOVUSS)
    labels, xy = novuss_start(NOVUSS, doubles=True)
    verdict = infer_orientation(calib, rotate_points(xy, -turn), labels)
    assert verdict.deg == told and "look the same" in verdict.reason


def test_novuss_mid_game_pawns_decide_nothing():
    _, calib = exact_calibration(NOVUSS)
    rng = np.random.default_rng(1)
    xy = rng.uniform(-460, 460, (14, 2))
    labels = ["red_pawn", "black_pawn"] * 7
    assert infer_orientation(calib, xy, labels).deg is None


def test_settings_and_inputs_are_validated():
    _, calib = exact_calibration(POOL)
    with pytest.raises(ValueError, match="2 positions but 1 labels"):
        infer_orientation(calib, np.zeros((2, 2)), ["ball_1"])
    with pytest.raises(ValueError, match="min_rack_balls"):
        OrientationSettings(min_rack_balls=0)


# ---------------------------------------------------------------------------- rotate

@pytest.mark.parametrize(("spec", "turn"), [(POOL, 180), (NOVUSS, 90), (NOVUSS, 270)])
def test_rotate_keeps_the_camera_and_turns_the_table(spec, turn):
    _, calib = exact_calibration(spec)
    turned = rotate(calib, turn)
    px = np.array([[300.0, 200.0], [700.0, 500.0], [1000.0, 380.0]])
    for z in (0.0, 28.6):
        assert np.allclose(turned.to_table(px, z), rotate_points(calib.to_table(px, z), turn))
    assert np.allclose(turned.camera_centre_mm, np.r_[rotate_points(
        calib.camera_centre_mm[:2], turn)[0], calib.camera_centre_mm[2]])
    # corner k of the turned frame is where corner k - turn/90 was (corners go round)
    assert np.allclose(turned.corners_px(), np.roll(calib.corners_px(), turn // 90, axis=0))


def test_rotate_by_zero_and_by_two_quarters():
    _, calib = exact_calibration(NOVUSS)
    assert rotate(calib, 0) is calib
    assert np.allclose(rotate(rotate(calib, 90), 90).R, rotate(calib, 180).R)


def test_rotate_renames_per_feature_residuals():
    _, calib = exact_calibration(POOL)
    fitted = dataclasses.replace(calib, residuals_mm={"nose_head": 0.5, "nose_left_foot": 0.7,
                                                      "diamond": 0.9},
                                 features=("nose_head", "nose_left_foot", "diamond"))
    turned = rotate(fitted, 180)
    assert turned.residuals_mm == {"nose_foot": 0.5, "nose_right_head": 0.7, "diamond": 0.9}
    assert turned.features == ("nose_foot", "nose_right_head", "diamond")


@pytest.mark.parametrize(("spec", "turn"), [(POOL, 90), (POOL, 45), (NOVUSS, 30)])
def test_rotate_refuses_turns_the_table_does_not_allow(spec, turn):
    _, calib = exact_calibration(spec)
    with pytest.raises(ValueError, match="turns by"):
        rotate(calib, turn)


# ------------------------------------------------------- rendered frames, the detector

@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector()


def render(spec, cam, labels, xy, *, seed: int, realism: float):  # type: ignore[no-untyped-def]
    look = (random_appearance(spec, np.random.default_rng(seed), realism=realism) if realism
            else clean_appearance(spec))
    n = len(labels)
    frame = SceneFrame(0.0, cam, np.arange(n), tuple(labels), np.asarray(xy, float)[None],
                       np.zeros((1, n)), np.ones(n, bool))
    return Renderer(spec, look, seed=seed).render(frame).bgr


def test_a_pool_fit_turned_half_round_is_turned_back_by_the_rack(detector):
    cam, truth = exact_calibration(POOL, 8.0)
    labels, xy = rack_with_cue_ball("9ball", seed=2)
    bgr = render(POOL, cam, labels, xy, seed=2, realism=0.6)
    fitted = rotate(truth, 180)  # what a fit that took the foot for the head returns
    dets = detector.detect(bgr, detector_warp(fitted), silhouette_heights_mm(POOL))
    verdict = infer_orientation(fitted, dets.xy_mm, dets.label)
    assert verdict.deg == 180, verdict.reason
    assert np.abs(rotate(fitted, 180).corners_px() - truth.corners_px()).max() < 1e-6
    # the same detections in the turned frame: table points and the canonical view turn
    turned = rotate_detections(dets, POOL, 180)
    assert np.allclose(turned.xy_mm, -dets.xy_mm) and np.array_equal(turned.xy_px, dets.xy_px)
    assert np.allclose(turned.xy_canon_px, [639.0, 319.0] - dets.xy_canon_px)
    assert (turned.xyxy_canon_px[:, :2] <= turned.xyxy_canon_px[:, 2:]).all()


@pytest.fixture(scope="module")
def novuss_start_frame():
    cam, truth = exact_calibration(NOVUSS, 6.0)
    labels, xy = novuss_start(NOVUSS, doubles=False)
    labels, xy = (*labels, "puck"), np.vstack([xy, [[40.0, -300.0]]])
    return truth, render(NOVUSS, cam, labels, xy, seed=1, realism=0.6)


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_a_rendered_novuss_start_tells_each_turn_of_the_fit(detector, novuss_start_frame, turn):
    truth, bgr = novuss_start_frame
    fitted = rotate(truth, (360 - turn) % 360)
    dets = detector.detect(bgr, detector_warp(fitted), silhouette_heights_mm(NOVUSS))
    verdict = infer_orientation(fitted, dets.xy_mm, dets.label)
    assert verdict.deg == turn, verdict.reason
