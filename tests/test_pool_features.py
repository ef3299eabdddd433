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


# ------------------------------------------------ robustness: looks and views that broke it


def render_look(setup: CameraSetup, **look):  # type: ignore[no-untyped-def]
    """A clean 9 ft table with ``look`` changed (cloth, rails, graphics, texture, noise)
    under the camera ``setup``, two balls on it; returns (spec, camera, frame)."""
    spec = get_table("pool-9ft")
    cam = overhead_camera(spec, setup)
    xy = np.array([[[-600.0, 200.0], [500.0, -250.0]]])
    frame = SceneFrame(0.0, cam, np.arange(2), ("cue_ball", "ball_1"), xy, np.zeros((1, 2)),
                       np.ones(2, bool))
    img = Renderer(spec, replace(clean_appearance(spec), **look), seed=0).render(frame).bgr
    return spec, cam, img


def test_robust_line_takes_the_side_not_a_score_bar_over_a_third_of_it() -> None:
    """A score bar over a rail gives a third of a side's edge points 60 px off: a least
    squares line (even a Huber one) lands between the two; the side's line must not."""
    from calibration.pool_features import _robust_line

    rng = np.random.default_rng(0)
    x = np.linspace(100.0, 1100.0, 150)
    y = 600.0 + 0.02 * x + rng.normal(0.0, 0.3, len(x))
    y[40:95] += 60.0  # the bar's edge
    ln = _robust_line(np.column_stack([x, y]))
    assert ln is not None
    at = -(ln[0] * np.array([100.0, 1100.0]) + ln[2]) / ln[1]
    np.testing.assert_allclose(at, 600.0 + 0.02 * np.array([100.0, 1100.0]), atol=0.5)


DARK = {"cloth_bgr": (42.0, 40.0, 38.0), "rail_style": "black", "rail_bgr": (30.0, 30.0, 30.0),
        "surface_texture_amp": 0.04, "noise_read": 1.5, "floor_bgr": (30.0, 60.0, 30.0)}


def test_dark_cloth_beside_dark_rails_is_fitted() -> None:
    """Near-black cloth with black rails (a real venue look): the cloth-coloured region
    runs out to the rails' outer edge, so its outline lies a rail width outside the noses
    (their search found no edge there: 'only 0 cushion edge points'), and the face's drop
    below the dark cloth is a few L* units."""
    setup = CameraSetup((1280, 720), height_mm=3700.0, fill=0.8, tilt_deg=5.0,
                        tilt_azimuth_deg=30.0, offset_mm=(20.0, -10.0), k1=-0.03)
    spec, cam, img = render_look(setup, **DARK)
    err = cloth_error_mm(spec, cam, fit_pool(img, spec))
    assert np.sqrt(np.mean(err**2)) <= 1.0, np.sqrt(np.mean(err**2))


@pytest.mark.parametrize("min_contrast", [1.0, 2.5, 4.0])
def test_nose_edges_do_not_move_with_the_contrast_threshold(min_contrast: float) -> None:
    """Each nose edge is placed half-way down the face's step, wherever the threshold
    first noticed the step: it used to walk back from that first sample, and a lower
    threshold (dark cloth) moved the edges 0.3 mm outward."""
    from calibration.pool_features import PoolFitSettings, _calib_projector, _find_edges, _lab
    from simulation.dataset import calibration_of

    setup = CameraSetup((1280, 720), height_mm=3700.0, fill=0.85, tilt_deg=3.0,
                        tilt_azimuth_deg=0.0, offset_mm=(0.0, 0.0), k1=-0.02)
    spec, cam, img = render_look(setup, cloth_bgr=(70.0, 60.0, 55.0),
                                 surface_texture_amp=0.04, noise_read=1.0)
    truth = calibration_of(spec, cam)
    lum = np.ascontiguousarray(_lab(img)[..., 0])
    px, idx, _ = _find_edges(lum, spec, _calib_projector(truth), 15.0,
                             PoolFitSettings(min_contrast=min_contrast))
    nrm = np.array([spec.cushions[i].normal_xy for i in idx])
    a = np.array([spec.cushions[i].a_xy_mm for i in idx])
    inward_mm = np.sum((truth.to_table(px) - a) * nrm, axis=1)
    assert len(px) > 200
    assert abs(float(np.median(inward_mm))) <= 0.1, np.median(inward_mm)


def synthetic_features(sides: tuple[int, ...], diamond_sides: tuple[int, ...]):  # type: ignore[no-untyped-def]
    """Exact nose edge points on ``sides`` and diamonds on ``diamond_sides`` (0..3: -x,
    +x, -y, +y) as a straight-down camera sees them; returns (calibration, features)."""
    from simulation.dataset import calibration_of

    spec = get_table("pool-9ft")
    setup = CameraSetup((1280, 720), height_mm=3800.0, fill=0.85, tilt_deg=4.0,
                        tilt_azimuth_deg=20.0, offset_mm=(0.0, 0.0), k1=-0.02)
    calib = calibration_of(spec, overhead_camera(spec, setup))
    keys = ((1, 0), (-1, 0), (0, 1), (0, -1))
    xy, idx = [], []
    for ci, c in enumerate(spec.cushions):
        if (round(c.normal_xy[0]), round(c.normal_xy[1])) in [keys[k] for k in sides]:
            s = np.linspace(0.05, 0.95, 40)[:, None]
            xy.append(np.asarray(c.a_xy_mm) + s * (np.asarray(c.b_xy_mm) - np.asarray(c.a_xy_mm)))
            idx.append(np.full(40, ci))
    edge_xy, edge_i = np.concatenate(xy), np.concatenate(idx)
    d = np.asarray(spec.diamonds_xy_mm, float)
    outward = -np.array(keys, float)
    half = np.array([spec.half_wh_mm[0]] * 2 + [spec.half_wh_mm[1]] * 2)
    on = np.zeros(len(d), bool)
    for k in diamond_sides:
        on |= d @ outward[k] > half[k]
    dia_xyz = np.column_stack([d[on], np.full(on.sum(), spec.rail_height_mm)])
    return calib, (calib.to_image(edge_xy), edge_i, np.zeros(len(edge_i)),
                   np.zeros(len(edge_i)), calib.to_image(dia_xyz[:, :2], dia_xyz[:, 2]),
                   dia_xyz)


@pytest.mark.parametrize(
    ("diamond_sides", "fixed"),
    [((), False), ((0, 1), True), ((0, 1, 3), True)],
)
def test_a_side_that_shows_nothing_is_fixed_only_by_diamonds_along_the_others(
    diamond_sides: tuple[int, ...], fixed: bool
) -> None:
    """The -y side shows no edge and no diamond (a score bar over its rail, the camera hung
    beyond it). Three sides' edges alone leave it loose (the camera's focal length, lens
    and height trade off); diamonds along the short rails fix it, and the fit is then
    taken (``_check_sides`` with the spread of ``_side_spread_mm``) where it used to be
    refused always."""
    from calibration.pool_features import _MAX_UNHELD_SPREAD_MM, _check_sides, _side_spread_mm

    calib, (edge_px, edge_i, edge_z, shift, dia_px, dia_xyz) = synthetic_features(
        (0, 1, 3), diamond_sides)
    spread = _side_spread_mm(calib, edge_px, edge_i, edge_z, shift, dia_px, dia_xyz)
    assert bool(spread[2] <= _MAX_UNHELD_SPREAD_MM) is fixed, spread
    check = lambda: _check_sides(  # noqa: E731
        calib.spec, edge_i, dia_xyz[:, :2],
        lambda: _side_spread_mm(calib, edge_px, edge_i, edge_z, shift, dia_px, dia_xyz))
    if fixed:
        check()
    else:
        with pytest.raises(CalibrationError, match="-y side shows neither"):
            check()


def test_diamonds_overrule_a_side_locked_onto_the_rail_edge() -> None:
    """The camera hangs beyond the bottom rail: that side shows the rail's inner edge
    behind the cushion top, 40 mm outward of the nose, and no nose. A fit that took it for
    the nose was 40 mm off there and refused for disagreeing with all the diamonds; the
    side's edges now give way to the diamonds, and the fit holds."""
    setup = CameraSetup((1280, 720), height_mm=4000.0, fill=0.8, tilt_deg=14.0,
                        tilt_azimuth_deg=270.0, offset_mm=(0.0, 0.0), k1=-0.03)
    spec, cam, img = render_look(setup, cloth_bgr=(120.0, 130.0, 110.0), rail_style="black",
                                 rail_bgr=(25.0, 25.0, 25.0))
    assert cam.centre_mm[1] < -spec.half_wh_mm[1] - 300.0
    err = cloth_error_mm(spec, cam, fit_pool(img, spec))
    assert np.sqrt(np.mean(err**2)) <= 1.0, np.sqrt(np.mean(err**2))


@pytest.mark.slow
@pytest.mark.parametrize(("views", "k"), [("random", 61), ("random", 73), ("random", 112),
                                          ("random", 113), ("random", 149), ("random", 158),
                                          ("random", 178), ("broadcast", 10)])
def test_benchmark_frames_once_refused_are_fitted(views: str, k: int) -> None:
    """Calibration benchmark frames that were refused: a score bar over the bottom rail with
    an arm over the table (61, 73), near-black cloth beside black rails (112, 158, broadcast
    10), the side beyond the camera locked onto its rail edge (113, 149), dark purple cloth
    whose faces drop a few L* units (178)."""
    from benchmarks.calibration import VIEWS

    spec = get_table("pool-9ft")
    img, cam = VIEWS[views](spec, k)
    err = cloth_error_mm(spec, cam, fit_pool(img, spec))
    assert np.sqrt(np.mean(err**2)) < 1.0
