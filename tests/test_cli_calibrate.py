"""``cueref calibrate`` (and ``cueref detect --corners/--orientation``) as a user runs
them: in a subprocess, on rendered images and videos whose true camera is known."""

import json

import cv2
import numpy as np
import pytest
from test_cli import bad_input_file, cueref
from test_pool_features import render_setup

from calibration.tables import get_table
from simulation.appearance import clean_appearance
from simulation.camera import CameraSetup, overhead_camera
from simulation.racks import cue_ball_in_kitchen, pool_rack
from simulation.render import Renderer, SceneFrame
from simulation.video import VideoWriter

POOL_LABELS = {"cue_ball", *(f"ball_{n}" for n in range(1, 16))}


def true_corners(spec, cam) -> np.ndarray:  # type: ignore[no-untyped-def]
    return cam.project(np.column_stack([spec.corners_xy_mm(), np.zeros(4)]))


def corners_arg(corners_px: np.ndarray) -> str:
    return "--corners=" + ",".join(f"{v:.2f}" for v in np.asarray(corners_px).ravel())


def run_json(*args: str) -> dict:  # type: ignore[type-arg]
    result = cueref(*args, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def pool_frame(tmp_path_factory):
    """A realistic 9 ft table with 6 loose balls (a set-up the fit is measured to read)."""
    spec, cam, img = render_setup(0, "pool-9ft", True)
    path = tmp_path_factory.mktemp("calibrate") / "frame.png"
    cv2.imwrite(str(path), img)
    return spec, cam, img, path


@pytest.fixture(scope="module")
def racked_frame(tmp_path_factory):
    """A 9-ball rack seen by a camera turned half round: the foot is on the image's left,
    where a fit from the table's lines alone puts the head."""
    spec = get_table("pool-9ft")
    cam = overhead_camera(spec, CameraSetup((1280, 720), height_mm=3600, fill=0.85,
                                            tilt_deg=6, tilt_azimuth_deg=40, roll_deg=180,
                                            k1=-0.03))
    rng = np.random.default_rng(3)
    labels, xy = pool_rack("9ball", spec, rng)
    labels = (*labels, "cue_ball")
    xy = np.vstack([xy, [cue_ball_in_kitchen(spec, rng, occupied_xy_mm=xy)]])
    n = len(labels)
    frame = SceneFrame(0.0, cam, np.arange(n), labels, xy[None], np.zeros((1, n)),
                       np.ones(n, bool))
    img = Renderer(spec, clean_appearance(spec), seed=3).render(frame).bgr
    path = tmp_path_factory.mktemp("racked") / "rack.png"
    cv2.imwrite(str(path), img)
    return spec, cam, path


@pytest.fixture(scope="module")
def video(tmp_path_factory, pool_frame):
    """Two frames: an empty grey one, then the pool table."""
    _, _, img, _ = pool_frame
    path = tmp_path_factory.mktemp("video") / "clip.mp4"
    with VideoWriter(path, 30.0, (1280, 720), crf=14) as writer:
        writer.write(np.full_like(img, 90))
        writer.write(img)
    return path


def test_calibrate_json_prints_the_documented_keys_and_the_true_corners(pool_frame):
    spec, cam, _, path = pool_frame
    out = run_json("calibrate", str(path), "--table", "pool-9ft")
    assert {"H_table_from_image", "corners_px", "pockets_px", "rms_mm", "lens", "K", "R",
            "t_mm", "camera_centre_mm", "orientation", "method"} <= set(out)
    assert out["method"] == "fit" and out["table"] == "pool-9ft" and out["rms_mm"] < 3
    assert np.abs(np.array(out["corners_px"]) - true_corners(spec, cam)).max() < 2.0
    pockets = {p.name: cam.project(np.array([[*p.centre_xy_mm, 0.0]]))[0] for p in spec.pockets}
    assert set(out["pockets_px"]) == set(pockets)
    for name, xy in out["pockets_px"].items():
        assert np.linalg.norm(np.array(xy) - pockets[name]) < 2.0
    H = np.array(out["H_table_from_image"])
    centre = cam.project(np.zeros((1, 3)))[0]  # the lens bends least near the middle
    p = H @ [*centre, 1.0]
    assert np.linalg.norm(p[:2] / p[2]) < 5.0
    # six loose balls are no start position: the fit's frame is kept, and it says so
    assert out["orientation"]["turn_deg"] == 0 and out["orientation"]["by"] == "none"
    assert "kept" in out["orientation"]["reason"]


def test_calibrate_prints_a_summary_and_writes_a_check_image(pool_frame, tmp_path):
    _, _, img, path = pool_frame
    check = tmp_path / "check.png"
    result = cueref("calibrate", str(path), "--table", "pool-9ft", "--check-image", str(check))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("pool-9ft in frame 0 of") and "rms" in lines[0]
    assert any(ln.strip().startswith("orientation") for ln in lines)
    drawn = cv2.imread(str(check))
    assert drawn.shape == img.shape
    assert np.mean(np.any(drawn != img, axis=2)) > 0.05  # lines and grid drawn over it


def test_a_video_source_is_calibrated_at_the_frame_asked_for(pool_frame, video):
    spec, cam, _, _ = pool_frame
    out = run_json("calibrate", str(video), "--table", "pool-9ft", "--frame", "1")
    assert out["frame"] == 1 and out["t_s"] == pytest.approx(1 / 30, abs=1e-3)
    assert np.abs(np.array(out["corners_px"]) - true_corners(spec, cam)).max() < 2.0


def test_a_rack_turns_a_fit_that_took_the_foot_for_the_head(racked_frame):
    spec, cam, path = racked_frame
    out = run_json("calibrate", str(path), "--table", "pool-9ft")
    assert out["orientation"]["turn_deg"] == 180 and out["orientation"]["by"] == "objects"
    assert "rack" in out["orientation"]["reason"]
    assert np.abs(np.array(out["corners_px"]) - true_corners(spec, cam)).max() < 2.0


def test_orientation_flag_overrides_the_rack(racked_frame):
    spec, cam, path = racked_frame
    out = run_json("calibrate", str(path), "--table", "pool-9ft", "--orientation", "0")
    assert out["orientation"] == {"turn_deg": 0, "by": "--orientation",
                                  "reason": "set by --orientation 0"}
    # kept as fitted: the corners are the true ones half a turn round
    truth = np.roll(true_corners(spec, cam), 2, axis=0)
    assert np.abs(np.array(out["corners_px"]) - truth).max() < 2.0


def test_corners_flag_calibrates_from_the_given_corners(pool_frame):
    spec, cam, _, path = pool_frame
    corners = true_corners(spec, cam)
    out = run_json("calibrate", str(path), "--table", "pool-9ft", corners_arg(corners))
    assert out["method"] == "corners" and out["features"] == ["corners"]
    assert np.abs(np.array(out["corners_px"]) - corners).max() < 0.1
    assert out["lens"] == {"k1": 0.0, "k2": 0.0}


def test_detect_with_corners_reads_a_frame_the_fit_cannot(pool_frame, tmp_path):
    """An arm across the table hides a cushion and two corners' worth of outline: the
    automatic fit gives up, the clicked corners still place every visible ball."""
    spec, cam, img, _ = pool_frame
    arm = np.array([[0, 720], [0, 300], [700, 250], [760, 460], [400, 720]], np.int32)
    path = tmp_path / "arm.png"
    cv2.imwrite(str(path), cv2.fillPoly(img.copy(), [arm], (60, 70, 90)))
    refused = cueref("detect", str(path), "--table", "pool-9ft")
    assert refused.returncode == 2 and "--corners" in refused.stderr
    out = run_json("detect", str(path), "--table", "pool-9ft", corners_arg(true_corners(spec, cam)))
    assert out["method"] == "corners" and len(out["objects"]) >= 3  # 3 balls stay in view
    for o in out["objects"]:
        assert o["label"] in POOL_LABELS
        # the true camera sees the reported table point at the reported pixel
        h = spec.object_for(o["label"]).height_mm / 2
        back = cam.project(np.array([[*o["xy_mm"], h]]))[0]
        assert np.linalg.norm(back - o["xy_px"]) < 4.0  # no lens model: a few px at most


def test_detect_takes_the_orientation_flag(racked_frame):
    _, _, path = racked_frame
    turned = run_json("detect", str(path), "--table", "pool-9ft")
    kept = run_json("detect", str(path), "--table", "pool-9ft", "--orientation", "0")
    assert turned["orientation"]["turn_deg"] == 180 and kept["orientation"]["turn_deg"] == 0
    a = sorted(tuple(o["xy_mm"]) for o in turned["objects"])
    b = sorted(tuple(-np.array(o["xy_mm"])) for o in kept["objects"])
    assert len(a) == len(b) >= 8
    assert np.abs(np.array(a) - np.array(b)).max() < 2.0


@pytest.mark.parametrize(
    ("make", "args", "message"),
    [
        ("missing", ["--table", "pool-9ft"], "not found"),
        ("text", ["--table", "pool-9ft"], "cannot read"),
        ("blank", ["--table", "pool-9ft"], "no table found"),
        ("tiny", ["--table", "pool-9ft"], "too small"),
        ("frame", ["--table", "novuss"], "no novuss table found"),
        ("frame", ["--table", "snooker"], "unknown table"),
        ("video", ["--table", "pool-9ft", "--frame", "2"], "has 2 frames (0..1); frame 2 is past"),
        ("video", ["--table", "pool-9ft", "--frame", "0"], "in frame 0 of"),
        ("frame", ["--table", "pool-9ft", "--frame", "1"], "still image"),
        ("frame", ["--table", "pool-9ft", "--corners", "1,2,3,4,5,6,7"], "needs 8 numbers"),
        ("frame", ["--table", "pool-9ft", "--corners", "100,600,1100,100,1100,600,100,100"],
         "convex"),
        ("frame", ["--table", "pool-9ft", "--orientation", "90"], "turns by 0 or 180"),
        ("frame", ["--table", "pool-9ft", "--orientation", "45"], "invalid choice"),
        ("frame", ["--table", "pool-9ft", "--check-image", "out.txt"], "must end in"),
    ],
    ids=["missing", "text", "blank", "tiny", "wrong_table", "unknown_table", "past_end",
         "empty_video_frame", "image_frame_1", "seven_numbers", "crossed_corners",
         "pool_quarter_turn", "odd_turn", "check_image_suffix"],
)
def test_bad_input_exits_2_with_one_line(tmp_path, pool_frame, video, make, args, message):
    path = video if make == "video" else bad_input_file(tmp_path, make, pool_frame[3])
    result = cueref("calibrate", str(path), *args)
    assert result.returncode == 2, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    if make in ("blank", "frame") and "table found" in message:
        assert "--corners" in lines[0] and "--table" in lines[0]
