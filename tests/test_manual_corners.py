"""``from_corners``: a full camera (focal length and pose, so parallax too) from the four
playing-surface corners clicked on an image, and a clear refusal of corners that cannot be
a table seen from above."""

import numpy as np
import pytest

from calibration.manual import CornerSettings, check_corners, from_corners
from calibration.model import CalibrationError
from calibration.tables import get_table
from simulation.camera import CameraSetup, overhead_camera

BALL_CENTRE_MM = 28.575
WH = (1280, 720)


def camera(table: str, tilt_deg: float, azimuth_deg: float = 40.0, k1: float = 0.0,
           height_mm: float | None = None):  # type: ignore[no-untyped-def]
    spec = get_table(table)
    novuss = table == "novuss"
    setup = CameraSetup(WH, height_mm=height_mm or (1300.0 if novuss else 3600.0), fill=0.85,
                        tilt_deg=tilt_deg, tilt_azimuth_deg=azimuth_deg, k1=k1)
    return spec, overhead_camera(spec, setup)


def true_corners(spec, cam) -> np.ndarray:  # type: ignore[no-untyped-def]
    return cam.project(np.column_stack([spec.corners_xy_mm(), np.zeros(4)]))


def grid_mm(spec, n: int = 12) -> np.ndarray:  # type: ignore[no-untyped-def]
    hx, hy = spec.half_wh_mm
    gx, gy = np.meshgrid(np.linspace(-hx, hx, n), np.linspace(-hy, hy, n))
    return np.column_stack([gx.ravel(), gy.ravel()])


def mapped_error_mm(spec, cam, calib, z_mm: float) -> np.ndarray:  # type: ignore[no-untyped-def]
    """How far table points at height ``z_mm``, seen by the true camera, land from where
    they are when mapped back through ``calib`` at that height."""
    g = grid_mm(spec)
    px = cam.project(np.column_stack([g, np.full(len(g), z_mm)]))
    return np.linalg.norm(calib.to_table(px, z_mm) - g, axis=1)


@pytest.mark.parametrize(("table", "tilt_deg", "azimuth_deg"),
                         [("pool-9ft", 12.0, 40.0), ("pool-7ft", 8.0, 200.0),
                          ("novuss", 10.0, 120.0)])
def test_true_corners_of_a_tilted_camera_give_the_camera(table, tilt_deg, azimuth_deg):
    spec, cam = camera(table, tilt_deg, azimuth_deg)
    calib = from_corners(spec, true_corners(spec, cam), WH)
    assert calib.K[0, 0] == pytest.approx(cam.K[0, 0], rel=0.01)
    assert np.linalg.norm(calib.camera_centre_mm - cam.centre_mm) < 20.0
    assert mapped_error_mm(spec, cam, calib, 0.0).max() < 0.5
    # parallax: a ball's centre 28.6 mm above the cloth maps to where the ball is
    assert mapped_error_mm(spec, cam, calib, BALL_CENTRE_MM).max() < 0.5
    assert calib.features == ("corners",) and calib.rms_mm < 0.1
    assert np.abs(calib.corners_px() - true_corners(spec, cam)).max() < 0.05


def test_a_straight_down_camera_takes_its_height_from_the_prior():
    """No perspective at all: the corners cannot tell the height, the prior (3.5 m over a
    pool table) stands in, and a ball centre is still mapped within a millimetre."""
    spec, cam = camera("pool-9ft", 0.0, height_mm=3800.0)
    calib = from_corners(spec, true_corners(spec, cam), WH)
    assert calib.camera_centre_mm[2] == pytest.approx(3500.0, rel=0.05)
    assert mapped_error_mm(spec, cam, calib, 0.0).max() < 0.1
    assert mapped_error_mm(spec, cam, calib, BALL_CENTRE_MM).max() < 1.0


def test_clicks_a_pixel_off_and_a_lens_cost_millimetres_not_centimetres():
    spec, cam = camera("pool-9ft", 10.0, k1=-0.03)
    clicked = true_corners(spec, cam) + np.random.default_rng(0).normal(0, 1.0, (4, 2))
    calib = from_corners(spec, clicked, WH)
    err = mapped_error_mm(spec, cam, calib, BALL_CENTRE_MM)
    assert np.median(err) < 4.0 and err.max() < 8.0


def _corners_of_a_view():  # type: ignore[no-untyped-def]
    spec, cam = camera("pool-9ft", 8.0)
    return spec, true_corners(spec, cam)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda c: c.ravel()[:7], "8 numbers"),
        (lambda c: np.vstack([c, [[1.0, 2.0]]]), "8 numbers"),
        (lambda c: np.where(np.eye(4, 2, dtype=bool), np.nan, c), "finite"),
        (lambda c: c[[0, 2, 1, 3]], "convex"),  # two sides cross
        (lambda c: np.vstack([c[:3], [c[:3].mean(axis=0)]]), "convex"),
        (lambda c: c[::-1], "clockwise"),
        (lambda c: c + [4000.0, 0.0], "far outside"),
        (lambda c: 0.05 * c, "0.13% of the frame"),
        (lambda c: np.roll(c, 1, axis=0), "check their order"),  # starts at a short side
    ],
    ids=["seven", "ten", "nan", "crossed", "dent", "clockwise", "outside", "tiny", "order"],
)
def test_bad_corners_are_refused_with_the_reason(make, message):
    spec, corners = _corners_of_a_view()
    with pytest.raises(CalibrationError, match=message):
        from_corners(spec, make(corners), WH)


def test_corners_a_little_outside_the_frame_are_fine():
    spec = get_table("pool-9ft")
    cam = overhead_camera(spec, CameraSetup(WH, height_mm=3000.0, fill=1.0, tilt_deg=10.0,
                                            offset_mm=(500.0, 0.0)))
    corners = true_corners(spec, cam)
    assert corners[:, 0].min() < -50  # the head end hangs out of the frame
    assert check_corners(corners, WH).shape == (4, 2)
    calib = from_corners(spec, corners, WH)
    assert mapped_error_mm(spec, cam, calib, BALL_CENTRE_MM).max() < 0.5


def test_corners_given_half_a_turn_round_are_the_same_camera_turned():
    spec, corners = _corners_of_a_view()
    a = from_corners(spec, corners, WH)
    b = from_corners(spec, np.roll(corners, 2, axis=0), WH)
    assert np.allclose(a.camera_centre_mm[:2], -b.camera_centre_mm[:2], atol=1e-3)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"click_sigma_px": 0.0}, "click_sigma_px"), ({"max_tilt_deg": 90.0}, "max_tilt_deg"),
     ({"min_area": 1.0}, "min_area"), ({"max_outside": -1.0}, "max_outside")],
)
def test_settings_are_validated(kwargs, message):
    with pytest.raises(ValueError, match=message):
        CornerSettings(**kwargs)
