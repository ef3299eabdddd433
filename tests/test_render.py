"""The renderer draws objects where its ground truth says, and looks the way it claims."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from calibration.tables import get_table
from simulation.appearance import clean_appearance, random_appearance
from simulation.camera import CameraSetup, overhead_camera
from simulation.render import (
    Occluder,
    Renderer,
    SceneFrame,
    object_reference_xyz,
)
from simulation.video import VideoWriter, read_video, video_codec

POOL = get_table("pool-9ft")
NOVUSS = get_table("novuss")
_CLEAN: dict[str, Renderer] = {}


def clean_renderer(spec):  # type: ignore[no-untyped-def]
    """One clean renderer per table for the whole module (textures take a second), reset."""
    if spec.name not in _CLEAN:
        _CLEAN[spec.name] = Renderer(spec, clean_appearance(spec), seed=0)
    r = _CLEAN[spec.name]
    r.reset()
    return r


def tilted_camera(spec, **kw):  # type: ignore[no-untyped-def]
    height = 1250.0 if spec.family == "novuss" else 3800.0
    setup = CameraSetup(
        (1280, 720),
        height_mm=height,
        fill=0.85,
        tilt_deg=12.0,
        tilt_azimuth_deg=30.0,
        k1=-0.15,
        **kw,
    )
    return overhead_camera(spec, setup)


def make_frame(cam, labels, xy_mm, z_mm=None, occluders=(), t_s=0.0):  # type: ignore[no-untyped-def]
    xy = np.asarray(xy_mm, float).reshape(1, -1, 2)
    n = xy.shape[1]
    z = np.zeros((1, n)) if z_mm is None else np.asarray(z_mm, float).reshape(1, n)
    return SceneFrame(
        t_s, cam, np.arange(n), tuple(labels), xy, z, np.ones(n, bool), tuple(occluders)
    )


def empty_frame(cam):  # type: ignore[no-untyped-def]
    return SceneFrame(
        0.0, cam, np.zeros(0, int), (), np.zeros((1, 0, 2)), np.zeros((1, 0)), np.zeros(0, bool)
    )


def silhouette_centroid(img: np.ndarray, empty: np.ndarray, thr: float = 60.0) -> np.ndarray:
    diff = np.abs(img.astype(float) - empty.astype(float)).sum(axis=2)
    ys, xs = np.nonzero(diff > thr)
    assert len(xs) > 20, "object not drawn"
    return np.array([xs.mean(), ys.mean()])


def top_face_centroid(img: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """Centroid of the pixels with the disc's top-face colour (not its darker side wall)."""
    diff = np.abs(img.astype(float) - empty.astype(float)).sum(axis=2)
    obj = img[diff > 60].astype(float)
    bright = obj[obj.sum(axis=1) >= np.percentile(obj.sum(axis=1), 60)]
    top = np.median(bright, axis=0)
    dist = np.linalg.norm(img.astype(float) - top, axis=2)
    ys, xs = np.nonzero(dist < 0.28 * np.linalg.norm(top))
    return np.array([xs.mean(), ys.mean()])


POSITIONS_POOL = [(0.0, 0.0), (900.0, 400.0), (-1180.0, -560.0), (1180.0, 560.0), (-600, 500)]


@pytest.mark.parametrize("xy", POSITIONS_POOL)
def test_ball_drawn_at_ground_truth_pixel(xy):  # type: ignore[no-untyped-def]
    cam = tilted_camera(POOL)
    r = clean_renderer(POOL)
    empty = r.render(empty_frame(cam)).bgr
    out = r.render(make_frame(cam, ["ball_3"], [xy]))
    c = silhouette_centroid(out.bgr, empty)
    assert np.linalg.norm(c - out.xy_px[0]) < 0.5
    ref = object_reference_xyz(POOL, ["ball_3"], np.array([xy]), np.zeros(1))
    assert np.allclose(out.xy_px, cam.project(ref))


POSITIONS_NOVUSS = [(0.0, 0.0), (300.0, -200.0), (-460.0, 460.0), (455.0, -455.0), (-200, 350)]


@pytest.mark.parametrize("label", ["red_pawn", "puck"])
@pytest.mark.parametrize("xy", POSITIONS_NOVUSS)
def test_disc_top_face_drawn_at_ground_truth_pixel(label, xy):  # type: ignore[no-untyped-def]
    cam = tilted_camera(NOVUSS)
    app = replace(
        clean_appearance(NOVUSS), pawn_red_bgr=(30.0, 30.0, 220.0), puck_bgr=(200.0, 60.0, 40.0)
    )
    r = Renderer(NOVUSS, app, seed=0)
    empty = r.render(empty_frame(cam)).bgr
    out = r.render(make_frame(cam, [label], [xy]))
    c = top_face_centroid(out.bgr, empty)
    assert np.linalg.norm(c - out.xy_px[0]) < 0.5


def test_ball_near_edge_shows_predicted_parallax():
    cam = tilted_camera(POOL)
    r = clean_renderer(POOL)
    empty = r.render(empty_frame(cam)).bgr
    xy = (-1150.0, -540.0)  # the corner away from the camera's lean
    out = r.render(make_frame(cam, ["ball_2"], [xy]))
    contact = cam.project(np.array([[*xy, 0.0]]))[0]
    predicted = out.xy_px[0] - contact
    measured = silhouette_centroid(out.bgr, empty) - contact
    assert np.linalg.norm(predicted) > 4.0  # a tilted camera sees real parallax here
    assert np.linalg.norm(measured - predicted) < 0.5


def _hole_and_board_brightness(xy, y_line):  # type: ignore[no-untyped-def]
    """Brightness of the pixel at a pawn's hole and of bare board beside the pawn."""
    setup = CameraSetup((1920, 1080), height_mm=1000.0, fill=0.9, offset_mm=(xy[0], y_line))
    cam = overhead_camera(NOVUSS, setup)
    out = clean_renderer(NOVUSS).render(make_frame(cam, ["red_pawn"], [xy]))
    cx, cy = np.round(out.xy_px[0]).astype(int)
    hole = out.bgr[cy, cx].astype(float).sum()
    return hole, out.bgr[cy + 40, cx].astype(float).sum()


def test_novuss_line_shows_through_pawn_hole():
    y_line = NOVUSS.line("zone_a").a_xy_mm[1]
    on_line, board = _hole_and_board_brightness((100.0, y_line), y_line)
    off_line, _ = _hole_and_board_brightness((100.0, y_line + 10.0), y_line)
    assert on_line < 0.75 * board  # the line, dark, inside the hole
    assert off_line > 0.9 * board  # only bare board 10 mm off the line


def _pool_scene(seed_pos: int):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed_pos)
    xy = np.stack([rng.uniform(-1100, 1100, 16), rng.uniform(-550, 550, 16)], 1)
    cam = overhead_camera(POOL, CameraSetup((640, 360), height_mm=3800.0, fill=0.82))
    return make_frame(cam, POOL.labels, xy, occluders=[Occluder("cue", (0.0, 0.0), 0.5)], t_s=0.13)


def test_same_seed_same_bytes_different_seed_different_look():
    frame = _pool_scene(1)
    app_a = random_appearance(POOL, np.random.default_rng(7))
    a1 = Renderer(POOL, app_a, seed=5).render(frame).bgr
    a2 = Renderer(POOL, app_a, seed=5).render(frame).bgr
    assert a1.tobytes() == a2.tobytes()
    app_b = random_appearance(POOL, np.random.default_rng(8))
    assert app_b != app_a
    b = Renderer(POOL, app_b, seed=6).render(frame).bgr
    assert np.abs(a1.astype(float) - b.astype(float)).mean() > 5.0


def test_reset_replays_the_clip():
    frame = _pool_scene(2)
    r = Renderer(POOL, random_appearance(POOL, np.random.default_rng(3)), seed=9)
    first = r.render(frame).bgr
    r.reset()
    assert r.render(frame).bgr.tobytes() == first.tobytes()


def test_body_over_ball_hides_it_and_a_free_ball_is_visible():
    cam = overhead_camera(POOL, CameraSetup((1280, 720), height_mm=3800.0, fill=0.82))
    r = clean_renderer(POOL)
    body = Occluder("body", (-1000.0, 0.0), 0.0, z_mm=400.0)
    out = r.render(
        make_frame(cam, ["ball_1", "ball_2"], [(-1150.0, 0.0), (800.0, 300.0)], occluders=[body])
    )
    assert out.visible_fraction[0] < 0.5
    assert out.visible_fraction[1] > 0.95


def test_pocketed_ball_is_darker_and_partly_hidden_by_the_rim():
    cam = tilted_camera(POOL)
    r = clean_renderer(POOL)
    corner = POOL.pocket("foot_left").centre_xy_mm
    xy = (corner[0] - 25.0, corner[1] - 25.0)
    out = r.render(make_frame(cam, ["ball_9", "ball_10"], [xy, (0.0, 0.0)], z_mm=[-70.0, 0.0]))
    assert 0.0 < out.visible_fraction[0] < 0.95
    assert out.visible_fraction[1] > 0.95


def test_removed_object_is_not_drawn():
    cam = tilted_camera(POOL)
    r = clean_renderer(POOL)
    empty = r.render(empty_frame(cam)).bgr
    f = make_frame(cam, ["ball_5"], [(100.0, 100.0)])
    f = replace(f, visible=np.zeros(1, bool))
    out = r.render(f)
    assert out.visible_fraction[0] == 0.0
    assert out.bgr.tobytes() == empty.tobytes()


def test_video_round_trip_h264(tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "clip.mp4"
    rng = np.random.default_rng(0)
    frames = [rng.integers(0, 255, (96, 160, 3), dtype=np.uint8) for _ in range(12)]
    with VideoWriter(path, 25.0, (160, 96), crf=23) as w:
        for f in frames:
            w.write(f)
    decoded = list(read_video(path))
    assert video_codec(path) == "h264"
    assert len(decoded) == 12
    assert decoded[0][0].shape == (96, 160, 3)
    ts = np.array([t for _, t in decoded])
    assert np.allclose(ts - ts[0], np.arange(12) / 25.0, atol=1e-3)


def test_occluder_polygon_reaching_far_outside_its_box_is_filled_exactly_without_overflow():
    # a hand near the camera's horizon, or its shadow, projects to pixel coordinates far
    # beyond what fixed-point filling holds: the part inside the box must still be exact
    import warnings

    from simulation.render_occluders import fill_mask

    box = (0, 0, 64, 48)
    far = np.array([[-1e9, -1e9 + 10.0], [1e9, 1e9 + 10.0], [1e9, -1e9]])  # below y = x + 10
    near = np.array([[-100.0, -90.0], [200.0, 210.0], [200.0, -100.0], [-100.0, -100.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = fill_mask(far, box)
        whole = fill_mask(np.array([[-1e12, -1e12], [1e12, -1e12], [0.0, 1e12]]), box)
        gone = fill_mask(np.array([[1e9, 1e9], [1e9 + 5, 1e9], [1e9, 1e9 + 5]]), box)
    np.testing.assert_array_equal(got, fill_mask(near, box))
    assert 0.5 < got.mean() < 0.95
    assert whole.min() == 1.0 and gone.max() == 0.0
