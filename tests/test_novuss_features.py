"""``fit_novuss`` calibrates a camera over a Novuss board from one rendered frame, with no
markers, to about a millimetre on the playing surface; a frame without a board is refused."""

import numpy as np
import pytest

from calibration.novuss_features import CalibrationError, NovussFitSettings, fit_novuss
from calibration.tables import get_table
from simulation.appearance import clean_appearance, random_appearance
from simulation.camera import CameraSetup, overhead_camera
from simulation.render import Renderer, SceneFrame

NOVUSS = get_table("novuss")
_GRID = np.linspace(-495.0, 495.0, 23)
GRID_MM = np.array([(x, y) for x in _GRID for y in _GRID])
_RENDERERS: dict[str, Renderer] = {}


def renderer(kind, seed):  # type: ignore[no-untyped-def]
    """One renderer per look for the whole module (textures take a second or two)."""
    key = f"{kind}-{seed}"
    if key not in _RENDERERS:
        if kind == "clean":
            app = clean_appearance(NOVUSS)
        else:
            app = random_appearance(NOVUSS, np.random.default_rng(seed), realism=1.0)
        _RENDERERS[key] = Renderer(NOVUSS, app, seed=seed)
    r = _RENDERERS[key]
    r.reset()
    return r


def random_setup(seed):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    return CameraSetup(
        (1280, 720),
        height_mm=float(rng.uniform(1050, 1450)),
        fill=float(rng.uniform(0.84, 0.94)),
        tilt_deg=float(rng.uniform(0, 15)),
        tilt_azimuth_deg=float(rng.uniform(0, 360)),
        offset_mm=(float(rng.uniform(-60, 60)), float(rng.uniform(-60, 60))),
        k1=float(rng.uniform(-0.2, 0.0)),
        k2=float(rng.uniform(0.0, 0.03)),
    )


def scene(cam, seed):  # type: ignore[no-untyped-def]
    """The puck and a few pawns of each colour somewhere on the board."""
    rng = np.random.default_rng(seed + 7)
    labels = ("puck",) + ("red_pawn", "black_pawn") * 3
    n = len(labels)
    xy = rng.uniform(-440, 440, size=(1, n, 2))
    return SceneFrame(0.0, cam, np.arange(n), labels, xy, np.zeros((1, n)), np.ones(n, bool))


def mapped_error_mm(seed, kind):  # type: ignore[no-untyped-def]
    cam = overhead_camera(NOVUSS, random_setup(seed))
    frame = renderer(kind, seed if kind != "clean" else 0).render(scene(cam, seed)).bgr
    fit = fit_novuss(frame, NOVUSS)
    gt_px = cam.project(np.column_stack([GRID_MM, np.zeros(len(GRID_MM))]))
    return np.linalg.norm(fit.to_table(gt_px) - GRID_MM, axis=1), fit


@pytest.mark.parametrize("seed", [0, 3, 6, 9, 12])
def test_clean_frames_map_the_surface_within_a_millimetre(seed):
    err, fit = mapped_error_mm(seed, "clean")
    assert np.median(err) <= 1.0, f"median {np.median(err):.2f} mm"
    assert err.max() <= 3.0, f"max {err.max():.2f} mm"
    assert fit.rms_mm < 1.0
    assert {"zone_a", "zone_b", "zone_left", "zone_right", "circle"} <= set(fit.features)


@pytest.mark.slow
@pytest.mark.xfail(reason="realistic looks (glare, falloff, vignette) still bias the fit by "
                   "~1-5 mm on some frames", strict=False)
@pytest.mark.parametrize("seed", [1, 2, 4])
def test_realistic_frames_map_the_surface_within_a_millimetre(seed):
    err, _ = mapped_error_mm(seed, "random")
    assert np.median(err) <= 1.0, f"median {np.median(err):.2f} mm"
    assert err.max() <= 3.0, f"max {err.max():.2f} mm"


def blank_frame():  # type: ignore[no-untyped-def]
    return np.full((720, 1280, 3), 90, np.uint8)


def noise_frame():  # type: ignore[no-untyped-def]
    return np.random.default_rng(0).integers(0, 256, (720, 1280, 3), dtype=np.uint8)


@pytest.mark.parametrize("make", [blank_frame, noise_frame], ids=["blank", "noise"])
def test_no_board_raises_calibration_error(make):
    with pytest.raises(CalibrationError, match="board not found"):
        fit_novuss(make(), NOVUSS)


def test_calibration_error_is_a_value_error():
    assert issubclass(CalibrationError, ValueError)


def test_a_pool_table_is_refused():
    with pytest.raises(CalibrationError, match="Novuss"):
        fit_novuss(blank_frame(), get_table("pool-9ft"))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"windows_px": ()}, "windows_px"),
        ({"step_mm": 0.0}, "step_mm"),
        ({"min_contrast": 1.5}, "min_contrast"),
        ({"min_samples": 3}, "min_samples"),
        ({"lens_terms": (0, 1)}, "lens_terms"),
        ({"lens_terms": (0, 1, 3, 2, 2)}, "lens_terms"),
    ],
)
def test_settings_are_validated(kwargs, message):
    with pytest.raises(ValueError, match=message):
        NovussFitSettings(**kwargs)


@pytest.mark.parametrize("seed", [5, 13])
def test_a_cue_and_a_hand_across_the_rail_are_ignored(seed):
    """A bright cue across the rail joins the board to the frame edge in the bright-region
    mask, and the arm cuts a dent into its outline: the board's corners must still hold."""
    from simulation.render import Occluder

    cam = overhead_camera(NOVUSS, random_setup(seed))
    base = scene(cam, seed)
    tip = (-300.0, float(np.random.default_rng(seed).uniform(-300, 300)))
    frame = SceneFrame(base.t_s, cam, base.ids, base.labels, base.xy_mm, base.z_mm,
                       base.visible, (Occluder("cue", tip, 0.0, z_mm=30.0),
                                      Occluder("hand", (tip[0] - 200.0, tip[1]), 0.0,
                                               z_mm=40.0)))
    img = renderer("clean", 0).render(frame).bgr
    fit = fit_novuss(img, NOVUSS)
    gt_px = cam.project(np.column_stack([GRID_MM, np.zeros(len(GRID_MM))]))
    err = np.linalg.norm(fit.to_table(gt_px) - GRID_MM, axis=1)
    assert np.median(err) <= 1.0, f"median {np.median(err):.2f} mm"
    assert err.max() <= 3.0, f"max {err.max():.2f} mm"
