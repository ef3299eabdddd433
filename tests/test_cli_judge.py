"""``cueref judge``: re-judging event streams in a subprocess, as researchers run it."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cueref.stream import read_jsonl, validation_errors

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_videos"
DATA = ROOT / "tests" / "data" / "judge"
MANIFEST = json.loads((SAMPLES / "manifest.json").read_text())
CLIPS = {c["name"]: c for c in MANIFEST["clips"]}
KEY = ("shot", "player", "rule", "outcome", "text", "assumed")


def judge(*args: str) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).with_name("cueref")
    return subprocess.run([str(exe), "judge", *map(str, args)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONHASHSEED": "0"})


def calls_of(lines):
    return [{k: c[k] for k in KEY} for c in lines if c["type"] == "call"]


def write_jsonl(path: Path, lines) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def sidecar_declarations(side) -> list[dict]:
    return [{"shot": s["number"], **s.get("declaration", {})} for s in side["shots"]]


def events_from_sidecar(side) -> list[dict]:
    """The sidecar as a plain event stream: match_start with the first layout and the
    starting state, each shot's events, and a ``state`` line with where everything rested."""
    first = side["states"][0]
    start = {"v": 1, "type": "match_start", "game": side["game"], "table": side["table"],
             "source": side["video"], "fps": side["fps"], "frame_wh": side["frame_wh"],
             "players": side["players"], "turn": first["turn"], "breaking": first["breaking"],
             "ball_in_hand": first["ball_in_hand"],
             "objects": [{"id": o["id"], "label": o["label"], "xy_mm": o["xy_mm"]}
                         for o in side["shots"][0]["before"]]}
    lines = [start]
    for s in side["shots"]:
        between = s["between"] if s["number"] > 1 else []
        lines += [*between, *s["events"]]
        lines.append({"v": 1, "type": "state", "turn": first["turn"], "scores": {},
                      "objects": [{"id": o["id"], "label": o["label"], "xy_mm": o["xy_mm"]}
                                  for o in s["after"]]})
    return lines


@pytest.mark.parametrize("name", sorted(CLIPS))
def test_judge_reproduces_the_sample_calls_from_its_stream(name, tmp_path):
    """The sample's own call stream (events, positions only from events) judged afresh."""
    clip = CLIPS[name]
    side = json.loads((SAMPLES / clip["sidecar"]).read_text())
    decl = write_jsonl(tmp_path / "decl.jsonl", sidecar_declarations(side))
    out = tmp_path / "calls.jsonl"
    r = judge(SAMPLES / clip["calls"], "--game", clip["game"], "--declarations", decl,
              "--out", out)
    assert r.returncode == 0, r.stderr
    lines = read_jsonl(out)
    assert all(validation_errors(line) == [] for line in lines)
    assert calls_of(lines) == calls_of(read_jsonl(SAMPLES / clip["calls"]))


@pytest.mark.parametrize("name", sorted(CLIPS))
def test_judge_reproduces_the_sample_calls_from_sidecar_events(name, tmp_path):
    """Events extracted from the sidecar, with exact layouts: the same calls, and the
    evidence figures agree with the ground truth to the sidecar's rounding."""
    clip = CLIPS[name]
    side = json.loads((SAMPLES / clip["sidecar"]).read_text())
    events = write_jsonl(tmp_path / "events.jsonl", events_from_sidecar(side))
    decl = write_jsonl(tmp_path / "decl.jsonl", sidecar_declarations(side))
    r = judge(events, "--game", side["game"], "--declarations", decl)
    assert r.returncode == 0, r.stderr
    lines = [json.loads(t) for t in r.stdout.splitlines()]
    assert all(validation_errors(line) == [] for line in lines)
    truth = [c for s in side["shots"] for c in s["calls"]]
    assert calls_of(lines) == calls_of([{**c, "type": "call"} for c in truth])
    states = [s for s in lines if s["type"] == "state" and s["shot"] > 0]
    assert [s["turn"] for s in states] == [s["state"]["turn"] for s in side["shots"]]


def test_judge_plays_out_a_9ball_rack(tmp_path):
    r = judge(DATA / "9ball_rack.jsonl", "--game", "9ball")
    assert r.returncode == 0, r.stderr
    lines = [json.loads(t) for t in r.stdout.splitlines()]
    assert lines[0]["type"] == "match_start"
    assert [(c["shot"], c["rule"], c["outcome"]) for c in lines if c["type"] == "call"] == [
        (1, "WPA 2.3", "legal"), (1, "WPA 2.5", "legal"),
        (2, "WPA 8.2", "legal"), (2, "WPA 2.5", "legal"),
        (3, "WPA 8.2", "legal"), (3, "WPA 2.5", "loss_of_turn"),
        (4, "WPA 8.2", "legal"), (4, "WPA 2.5", "rack_win")]
    last = lines[-1]
    assert last["scores"] == {"Ann": 0, "Ben": 1} and last["rack"] == 2 and last["breaking"]


def test_judge_14_1_three_fouls_go_negative(tmp_path):
    r = judge(DATA / "14_1_three_fouls.jsonl", "--game", "14.1")
    assert r.returncode == 0, r.stderr
    lines = [json.loads(t) for t in r.stdout.splitlines()]
    states = [s for s in lines if s["type"] == "state"]
    assert [s["scores"]["Ben"] for s in states] == [0, 0, -1, -1, -2, -2, -18]
    assert states[-1]["fouls_in_a_row"]["Ben"] == 0 and states[-1]["turn"] == "Ben"
    assert states[-1]["opening_break"] is True
    assert any(c.get("rule") == "WPA 4.11" for c in lines)


@pytest.mark.parametrize(
    "fixture, line, problem",
    [
        ("bad_pocketed_twice.jsonl", 9, "pocketed twice"),
        ("bad_unknown_label.jsonl", 8, "unknown label 'ball_16'"),
        ("bad_out_of_order.jsonl", 9, "out of time order"),
        ("bad_no_end.jsonl", 7, "has no shot_end"),
        ("bad_not_on_table.jsonl", 8, "not on the table"),
    ],
)
def test_judge_rejects_a_stream_that_contradicts_itself(fixture, line, problem, tmp_path):
    out = tmp_path / "calls.jsonl"
    r = judge(DATA / fixture, "--game", "9ball", "--out", out)
    assert r.returncode == 2
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and f"{fixture}:{line}:" in err[0] and problem in err[0], err
    kept = read_jsonl(out)  # the first shot was judged and written before the bad line
    assert [c["shot"] for c in kept if c["type"] == "call"] == [1, 1]


@pytest.mark.parametrize(
    "args, problem",
    [
        (["missing.jsonl", "--game", "9ball"], "cannot read"),
        (["EVENTS", "--game", "snooker"], "unknown game"),
        (["EVENTS", "--game", "novuss"], "novuss is played on a novuss table"),
        (["EVENTS", "--game", "9ball", "--declarations", "DECL"], "unknown declaration field"),
    ],
)
def test_judge_bad_usage_exits_2_with_one_line(args, problem, tmp_path):
    decl = tmp_path / "decl.jsonl"
    decl.write_text('{"shot": 1, "colour": "red"}\n')
    args = [str(DATA / "9ball_rack.jsonl") if a == "EVENTS" else str(decl) if a == "DECL" else a
            for a in args]
    r = judge(*args)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and problem in r.stderr, r.stderr


def test_judge_starts_mid_match_and_says_what_it_did_not_see(tmp_path):
    """No match_start objects, a mid-rack position: scores start at zero, marked unseen."""
    lines = [json.loads(t) for t in (SAMPLES / "split_hit.calls.jsonl").read_text().splitlines()]
    events = write_jsonl(tmp_path / "e.jsonl", [x for x in lines if x["type"] == "event"])
    r = judge(events, "--game", "9ball")
    assert r.returncode == 0, r.stderr
    first = json.loads(r.stdout.splitlines()[0])
    assert first["type"] == "state" and first["shot"] == 0
    assert first["unseen"] == ["scores", "fouls_in_a_row", "penalty_debt"]
    assert first["breaking"] is False
