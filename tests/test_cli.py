"""The cueref command line, run as a user runs it: in a subprocess."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cueref.stream import read_jsonl, validation_errors
from simulation.video import read_video

ROOT = Path(__file__).resolve().parents[1]


def cueref(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).with_name("cueref")
    return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=600,
                          cwd=cwd, env={**os.environ, "PYTHONHASHSEED": "0"})


def bad_input_file(tmp_path: Path, make: str | None, frame: Path | None = None) -> Path:
    """A file of one bad kind for an image command: ``None`` missing, ``text``, a
    ``blank`` grey frame, a ``tiny`` one, or ``frame`` (the good ``frame`` itself)."""
    import cv2
    import numpy as np

    path = tmp_path / "in.png"
    if make == "text":
        path.write_text("not an image")
    elif make == "blank":
        cv2.imwrite(str(path), np.full((720, 1280, 3), 90, np.uint8))
    elif make == "tiny":
        cv2.imwrite(str(path), cv2.resize(cv2.imread(str(frame)), (100, 56)))
    elif make == "frame":
        assert frame is not None
        path = frame
    return path


@pytest.fixture(scope="module")
def simulated(tmp_path_factory):
    out = tmp_path_factory.mktemp("sim")
    result = cueref("simulate", "--game", "9ball", "--seed", "3", "--shots", "2",
                    "--out", str(out), "--resolution", "480x270")
    assert result.returncode == 0, result.stderr
    return out, result


def test_simulate_writes_video_sidecar_and_calls(simulated):
    out, result = simulated
    assert "sidecar" in result.stdout
    side = json.loads((out / "clip.json").read_text())
    frames = list(read_video(out / "clip.mp4"))
    assert len(frames) == side["n_frames"] > 0
    assert frames[0][0].shape == (270, 480, 3)
    assert side["game"] == "9ball" and len(side["shots"]) == 2


def test_every_simulated_call_stream_line_is_valid(simulated):
    out, _ = simulated
    lines = read_jsonl(out / "clip.calls.jsonl")
    assert lines[0]["type"] == "match_start"
    assert {ln["type"] for ln in lines} >= {"match_start", "event", "call", "state"}
    for line in lines:
        assert validation_errors(line) == [], line


def test_demo_referees_the_embedded_clip_from_its_pixels(tmp_path):
    result = cueref("demo", "--out", str(tmp_path / "demo"))
    assert result.returncode == 0, result.stderr
    assert "calibration + detector + tracker + events + rules" in result.stdout
    assert "ground-truth calls reproduced from the pixels" in result.stdout
    lines = read_jsonl(tmp_path / "demo" / "calls.jsonl")
    assert lines[0]["type"] == "match_start"
    assert all(validation_errors(ln) == [] for ln in lines)
    kinds = {ln["type"] for ln in lines}
    assert {"calibration", "event", "call", "state"} <= kinds
    starts = [e for e in lines if e["type"] == "event" and e["kind"] == "shot_start"]
    assert len(starts) >= 2 and all(e["objects"][0]["label"] == "cue_ball" for e in starts)
    overlay = list(read_video(tmp_path / "demo" / "overlay.mp4"))
    assert len(overlay) > 0.9 * 668


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--game", "snooker", "--out", "x"], "unknown game 'snooker'"),
        (["simulate", "--game", "9ball", "--shots", "0", "--out", "x"], "shots must be"),
        (["simulate", "--game", "9ball", "--fps", "500", "--out", "x"], "fps must be"),
        (["simulate", "--game", "9ball", "--table", "novuss", "--out", "x"], "cannot be played"),
        (["simulate", "--game", "9ball", "--table", "pool-12ft", "--out", "x"], "unknown table"),
        (["simulate", "--game", "9ball", "--resolution", "big", "--out", "x"], "resolution"),
        (["simulate", "--game", "9ball", "--case", "earthquake", "--out", "x"], "unknown case"),
        (["simulate", "--game", "9ball", "--out", "/proc/cueref-test"], "cannot write"),
        (["launch"], "invalid choice"),
    ],
)
def test_bad_input_exits_2_with_one_clear_line(args, message, tmp_path):
    result = cueref(*args, cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
