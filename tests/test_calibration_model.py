"""The calibration camera model maps pixels and table mm both ways, parallax included,
and ``solve`` recovers a camera from correspondences."""

import numpy as np
import pytest

from calibration.model import solve
from calibration.tables import get_table
from simulation.camera import CameraSetup, overhead_camera
from simulation.dataset import calibration_of

SETUPS = [
    ("pool-9ft", CameraSetup(height_mm=3600, tilt_deg=12, tilt_azimuth_deg=40,
                             offset_mm=(60, -30), k1=-0.05)),
    ("novuss", CameraSetup(height_mm=1200, fill=0.9, tilt_deg=14, tilt_azimuth_deg=200,
                           k1=-0.18, k2=0.03)),
]


def truth(name, setup):
    spec = get_table(name)
    cam = overhead_camera(spec, setup)
    return spec, cam, calibration_of(spec, cam)


@pytest.mark.parametrize(("name", "setup"), SETUPS, ids=[s[0] for s in SETUPS])
def test_to_image_agrees_with_the_renderers_camera(name, setup):
    spec, cam, calib = truth(name, setup)
    rng = np.random.default_rng(0)
    xy = rng.uniform(-0.5, 0.5, size=(50, 2)) * np.asarray(spec.surface_wh_mm)
    z = rng.uniform(0, 40, size=50)
    assert np.abs(calib.to_image(xy, z) - cam.project(np.column_stack([xy, z]))).max() < 1e-6


@pytest.mark.parametrize(("name", "setup"), SETUPS, ids=[s[0] for s in SETUPS])
def test_to_table_inverts_to_image_at_each_objects_height(name, setup):
    spec, _, calib = truth(name, setup)
    rng = np.random.default_rng(1)
    xy = rng.uniform(-0.5, 0.5, size=(50, 2)) * np.asarray(spec.surface_wh_mm)
    z = rng.uniform(0, 40, size=50)
    back = calib.to_table(calib.to_image(xy, z), z)
    assert np.abs(back - xy).max() < 1e-3


def test_ignoring_height_misplaces_a_ball_centre_by_the_parallax():
    spec, _, calib = truth(*SETUPS[0])
    xy = np.array([[1100.0, 550.0]])  # near a corner, far from below the camera
    px = calib.to_image(xy, 28.575)
    shift = np.linalg.norm(calib.to_table(px, 0.0) - xy)
    c = calib.camera_centre_mm
    expected = np.linalg.norm(xy[0] - c[:2]) * 28.575 / (c[2] - 28.575)
    assert shift == pytest.approx(expected, rel=1e-6) and shift > 3.0  # >> the 1 mm budget


@pytest.mark.parametrize(("name", "setup"), SETUPS, ids=[s[0] for s in SETUPS])
def test_solve_recovers_the_camera_from_noisy_correspondences(name, setup):
    spec, cam, _ = truth(name, setup)
    rng = np.random.default_rng(2)
    hx, hy = spec.half_wh_mm
    flat = rng.uniform([-hx, -hy], [hx, hy], size=(60, 2))
    rail = np.column_stack([rng.uniform(-hx, hx, 20), np.full(20, hy + 20.0)])
    xyz = np.vstack([np.column_stack([flat, np.zeros(60)]),
                     np.column_stack([rail, np.full(20, spec.rail_height_mm)])])
    px = cam.project(xyz) + rng.normal(0, 0.2, size=(80, 2))
    names = ["cloth"] * 60 + ["rail"] * 20
    calib = solve(spec, px, xyz, cam.resolution_wh, names=names)
    grid = rng.uniform([-hx, -hy], [hx, hy], size=(200, 2))
    err = np.linalg.norm(calib.to_table(cam.project(np.column_stack([grid, np.zeros(200)])))
                         - grid, axis=1)
    assert np.median(err) < 1.0 and err.max() < 3.0
    assert calib.rms_mm < 1.0 and set(calib.residuals_mm) == {"cloth", "rail"}
    assert calib.features == ("cloth", "rail")


def test_solve_shrugs_off_outliers():
    spec, cam, _ = truth(*SETUPS[1])
    rng = np.random.default_rng(3)
    xyz = np.column_stack([rng.uniform(-480, 480, size=(60, 2)), np.zeros(60)])
    px = cam.project(xyz)
    px[:5] += rng.uniform(30, 80, size=(5, 2))  # a hand over five features
    calib = solve(spec, px, xyz, cam.resolution_wh)
    good = calib.to_table(px[5:]) - xyz[5:, :2]
    assert np.abs(good).max() < 1.0


@pytest.mark.parametrize(
    ("n", "error"), [(5, "at least 6"), (0, "at least 6")],
)
def test_solve_refuses_too_few_points(n, error):
    spec, cam, _ = truth(*SETUPS[0])
    xyz = np.zeros((n, 3))
    with pytest.raises(ValueError, match=error):
        solve(spec, cam.project(xyz) if n else np.zeros((0, 2)), xyz, cam.resolution_wh)


def test_calibration_json_has_the_design_fields():
    _, _, calib = truth(*SETUPS[0])
    out = calib.to_json()
    assert {"H_table_from_image", "corners_px", "rms_mm", "lens", "features"} <= set(out)
    H = np.array(out["H_table_from_image"])
    assert np.abs(np.array(out["corners_px"]) - calib.corners_px()).max() <= 0.005
    corner = calib.undistort(calib.corners_px())[0]
    p = H @ np.array([corner[0], corner[1], 1.0])
    assert p[:2] / p[2] == pytest.approx(calib.spec.corners_xy_mm()[0], abs=1e-6)
