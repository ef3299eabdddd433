"""``cueref detect`` and ``cueref dataset`` as a user runs them: in a subprocess."""

import json

import cv2
import numpy as np
import pytest
from test_cli import bad_input_file, cueref
from test_pool_features import render_setup


@pytest.fixture(scope="module")
def pool_frame(tmp_path_factory):
    """A realistic 9 ft table (a setup the pool calibration is measured to fit), 6 balls."""
    spec, cam, img = render_setup(0, "pool-9ft", True)
    path = tmp_path_factory.mktemp("detect") / "frame.png"
    cv2.imwrite(str(path), img)
    return spec, cam, path


def test_detect_prints_every_ball_in_table_mm(pool_frame):
    spec, cam, path = pool_frame
    result = cueref("detect", str(path), "--table", "pool-9ft", "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["table"] == "pool-9ft" and out["rms_mm"] < 3
    objects = out["objects"]
    assert len(objects) == 6
    assert {o["label"] for o in objects} <= {"cue_ball", *(f"ball_{n}" for n in range(1, 16))}
    # each reported pixel maps through the true camera to the reported table point
    for o in objects:
        h = spec.object_for(o["label"]).height_mm / 2
        back = cam.project(np.array([[*o["xy_mm"], h]]))[0]
        assert np.linalg.norm(back - o["xy_px"]) < 3.0


def test_detect_without_json_prints_a_table(pool_frame):
    _, _, path = pool_frame
    result = cueref("detect", str(path), "--table", "pool-9ft")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("6 objects on pool-9ft")


@pytest.mark.parametrize(
    "make, args, message",
    [
        (None, ["--table", "pool-9ft"], "not found"),
        ("text", ["--table", "pool-9ft"], "cannot read"),
        ("blank", ["--table", "pool-9ft"], "no table found"),
        ("frame", ["--table", "snooker"], "unknown table"),
        ("frame", ["--table", "pool-9ft", "--model", "/nonexistent/m.onnx"],
         "/nonexistent/m.onnx not found; rebuild it with models/train.py"),
    ],
)
def test_detect_bad_input_exits_2_with_one_line(tmp_path, pool_frame, make, args, message):
    path = bad_input_file(tmp_path, make, pool_frame[2])
    result = cueref("detect", str(path), *args)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr


def test_dataset_command_writes_a_yolo_dataset(tmp_path):
    result = cueref("dataset", str(tmp_path / "ds"), "--images", "12", "--seed", "3")
    assert result.returncode == 0, result.stderr
    assert len(list((tmp_path / "ds" / "images" / "train").glob("*.jpg"))) == 12
    assert (tmp_path / "ds" / "data.yaml").is_file()
    bad = cueref("dataset", str(tmp_path / "ds"), "--images", "0")
    assert bad.returncode == 2 and "--images" in bad.stderr

