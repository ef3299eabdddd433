"""fit_pool calibrates rendered pool frames from the cloth outline and the diamonds alone."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from calibration.pool_features import CalibrationError, fit_pool
from calibration.tables import get_table
from simulation.appearance import clean_appearance, random_appearance
from simulation.camera import CameraSetup, overhead_camera
from simulation.render import Renderer, SceneFrame


def render_setup(seed: int, table: str, realistic: bool):  # type: ignore[no-untyped-def]
    """A random overhead camera, look and a few balls; returns (spec, camera, frame)."""
    rng = np.random.default_rng(seed)
    spec = get_table(table)
    setup = CameraSetup(
        (1280, 720),
        height_mm=rng.uniform(3300, 4200),
        fill=rng.uniform(0.78, 0.9),
        tilt_deg=rng.uniform(0, 15),
        tilt_azimuth_deg=rng.uniform(0, 360),
        offset_mm=tuple(rng.uniform(-150, 150, 2)),
        k1=rng.uniform(-0.06, 0),
        roll_deg=rng.uniform(-3, 3),
    )
    cam = overhead_camera(spec, setup)
    app = random_appearance(spec, rng, realism=1.0) if realistic else clean_appearance(spec)
    hx, hy = spec.half_wh_mm
    n = 6
    xy = np.column_stack([rng.uniform(-hx + 40, hx - 40, n), rng.uniform(-hy + 40, hy - 40, n)])
    labels = ("cue_ball",) + tuple(f"ball_{i}" for i in range(1, n))
    frame = SceneFrame(0.0, cam, np.arange(n), labels, xy[None], np.zeros((1, n)), np.ones(n, bool))
    return spec, cam, Renderer(spec, app, seed=seed).render(frame).bgr


def cloth_error_mm(spec, cam, fit) -> np.ndarray:  # type: ignore[no-untyped-def]
    hx, hy = spec.half_wh_mm
    gx, gy = np.meshgrid(np.linspace(-hx, hx, 15), np.linspace(-hy, hy, 8))
    g = np.column_stack([gx.ravel(), gy.ravel()])
    px = cam.project(np.column_stack([g, np.zeros(len(g))]))
    return np.linalg.norm(fit.to_table(px) - g, axis=1)


# Setups measured to pass. Known failures (refused with CalibrationError, no longer fitted
# wrong): realistic seed 3 on the 9 ft table and seed 4 (the cushion side under the camera
# shows no edge and its diamonds are missed; black cloth beside black rails).
@pytest.mark.parametrize(
    ("seed", "table", "realistic"),
    [
        (0, "pool-9ft", False),
        (1, "pool-7ft", False),
        (2, "pool-9ft", False),
        (3, "pool-7ft", False),
        (4, "pool-9ft", False),
        (0, "pool-9ft", True),
        (0, "pool-7ft", True),
        (1, "pool-9ft", True),
        (2, "pool-9ft", True),
        (2, "pool-7ft", True),
        (3, "pool-7ft", True),
    ],
)
def test_fit_pool_maps_the_cloth_to_a_millimetre(seed: int, table: str, realistic: bool) -> None:
    spec, cam, img = render_setup(seed, table, realistic)
    err = cloth_error_mm(spec, cam, fit_pool(img, spec))
    assert np.median(err) <= 1.0, np.median(err)
    assert err.max() <= 3.0, err.max()


@pytest.mark.parametrize("kind", ["blank", "noise"])
def test_no_table_raises(kind: str) -> None:
    rng = np.random.default_rng(0)
    if kind == "blank":
        img = np.full((720, 1280, 3), 90, np.uint8)
    else:
        img = rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    with pytest.raises(CalibrationError, match="no table found"):
        fit_pool(img, get_table("pool-9ft"))


def test_novuss_is_refused() -> None:
    with pytest.raises(ValueError, match="pool table"):
        fit_pool(np.zeros((720, 1280, 3), np.uint8), get_table("novuss"))


def test_row_median_matches_numpy() -> None:
    from calibration.pool_features import _row_median

    rng = np.random.default_rng(0)
    a = rng.normal(size=(50, 30))
    count = rng.integers(1, 31, 50)
    padded = np.where(np.arange(30)[None, :] < count[:, None], a, np.nan)
    want = [np.median(a[i, : count[i]]) for i in range(50)]
    np.testing.assert_allclose(_row_median(padded, count), want)


def test_a_camera_gone_wild_does_not_exhaust_memory() -> None:
    """A cushion projected absurdly long must not ask for billions of samples."""
    from calibration.pool_features import PoolFitSettings, _nose_samples

    spec = get_table("pool-9ft")

    def wild(xyz: np.ndarray) -> np.ndarray:
        return xyz[:, :2] * 1e9

    xy, _, _ = _nose_samples(spec, wild, PoolFitSettings())
    assert len(xy) <= 1000 * len(spec.cushions)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rounds": 0}, "rounds"),
        ({"max_rms_mm": 0.0}, "max_rms_mm"),
        ({"diamond_search_mm": -1.0}, "diamond_search_mm"),
        ({"fit_edges_max": 5}, "fit_edges_max"),
        ({"max_rms_px": 0.0}, "max_rms_px"),
        ({"rail_max_rms_mm": -1.0}, "rail_max_rms_mm"),
    ],
)
def test_settings_are_validated(kwargs: dict[str, float], message: str) -> None:
    from calibration.pool_features import PoolFitSettings

    with pytest.raises(ValueError, match=message):
        PoolFitSettings(**kwargs)  # type: ignore[arg-type]


def shifted(calib, dx_mm: float, dy_mm: float):  # type: ignore[no-untyped-def]
    """``calib`` with the table it sees moved by (dx, dy) mm: the whole fit that far off."""
    from calibration.model import Calibration

    t = calib.t + calib.R @ np.array([dx_mm, dy_mm, 0.0])
    return Calibration(calib.spec, calib.K, calib.k1, calib.k2, calib.R, t, calib.resolution_wh)


@pytest.mark.parametrize(
    ("seed", "realistic", "dx_mm", "dy_mm", "refused"),
    [
        (0, True, 0.0, 0.0, False),
        (2, False, 0.0, 0.0, False),
        (0, True, 114.0, 0.0, True),
        (0, True, 0.0, -114.0, True),
        (2, False, 0.0, 80.0, True),
        (2, False, -90.0, 0.0, True),
    ],
)
def test_side_check_refuses_a_fit_a_side_off_and_passes_the_true_camera(
    seed: int, realistic: bool, dx_mm: float, dy_mm: float, refused: bool
) -> None:
    """The fit's self-check (colours at table points it did not fit): a camera that puts
    the table 80 mm or more off is refused, the true camera is not."""
    from calibration.pool_features import _lab, check_cloth_sides
    from simulation.dataset import calibration_of

    spec, cam, img = render_setup(seed, "pool-9ft", realistic)
    calib = shifted(calibration_of(spec, cam), dx_mm, dy_mm)
    if refused:
        with pytest.raises(CalibrationError, match="side is off"):
            check_cloth_sides(_lab(img), calib)
    else:
        check_cloth_sides(_lab(img), calib)


@pytest.mark.parametrize(("azimuth_deg", "bare"), [(270.0, "right"), (90.0, "left")])
def test_a_side_under_the_camera_is_held_by_its_rail_edge(azimuth_deg: float, bare: str) -> None:
    """A camera hung beyond a long side cannot see that side's cushion face (the rail top
    hides it): on a table without diamonds, the fit holds the side by the rail's inner edge
    behind the cushion top (it used to be refused) and still maps the cloth to a
    millimetre or two."""
    spec = get_table("pool-9ft")
    setup = CameraSetup((1280, 720), height_mm=3500.0, fill=0.85, tilt_deg=15.0,
                        tilt_azimuth_deg=azimuth_deg,
                        offset_mm=(0.0, 300.0 if azimuth_deg == 90.0 else -300.0), k1=-0.03)
    cam = overhead_camera(spec, setup)
    assert abs(cam.centre_mm[1]) > spec.half_wh_mm[1]  # the camera hangs beyond the side
    look = replace(clean_appearance(spec), rail_style="black", rail_bgr=(30.0, 30.0, 30.0),
                   diamonds=False)
    frame = SceneFrame(0.0, cam, np.arange(1), ("cue_ball",), np.zeros((1, 1, 2)),
                       np.zeros((1, 1)), np.ones(1, bool))
    img = Renderer(spec, look, seed=0).render(frame).bgr
    fit = fit_pool(img, spec)
    assert any(name.startswith(f"rail_{bare}") for name in fit.features), fit.features
    err = cloth_error_mm(spec, cam, fit)
    assert np.sqrt(np.mean(err**2)) <= 4.0, np.sqrt(np.mean(err**2))


@pytest.mark.slow
def test_the_benchmark_frame_once_fitted_114_mm_off_is_fitted_or_refused() -> None:
    """Calibration benchmark frame 133 (pool, realistic look) was returned 114 mm off with
    nothing to say so; the side check now throws that candidate out, and the fit must be
    right or refused, never silently wrong."""
    from benchmarks.calibration import random_frame

    spec = get_table("pool-9ft")
    img, cam = random_frame(spec, 133)
    try:
        fit = fit_pool(img, spec)
    except CalibrationError:
        return
    err = cloth_error_mm(spec, cam, fit)
    assert np.sqrt(np.mean(err**2)) < 5.0


@pytest.mark.slow
@pytest.mark.parametrize("k", [0, 8])
def test_a_table_small_in_a_broadcast_frame_is_fitted(k: int) -> None:
    """Benchmark broadcast views 0 and 8 (the table fills 55-72 % of the frame, arena
    light, a body over a rail) were refused for leaving 1.2 mm: the residual limit is
    pixels at the table centre, not a fixed millimetre."""
    from benchmarks.calibration import broadcast_frame

    spec = get_table("pool-9ft")
    img, cam = broadcast_frame(spec, k)
    err = cloth_error_mm(spec, cam, fit_pool(img, spec))
    assert np.sqrt(np.mean(err**2)) < 1.5
