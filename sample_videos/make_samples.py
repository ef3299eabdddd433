"""Regenerate the sample clips, their sidecars and the manifest, exactly.

    python sample_videos/make_samples.py            # all clips
    python sample_videos/make_samples.py 9ball      # only the named ones

Each clip is fully determined by its row below (game, seed, shots, fps, resolution, case):
the director, the physics and the renderer are deterministic, and libx264 is run with a
fixed thread count so its bitstream is too. The demo clip embedded in the package
(cueref/data/demo.*) is a copy of the ``demo`` row.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))

from adjudication.games import Game  # noqa: E402
from cueref.stream import JsonlSink  # noqa: E402
from simulation.clip import render_clip  # noqa: E402
from simulation.match import ClipSettings  # noqa: E402

#: name: (game, seed, shots, fps, resolution, case, what it shows)
CLIPS: dict[str, tuple[str, int, int, float, tuple[int, int], str | None, str]] = {
    "novuss": ("novuss", 11, 3, 30.0, (1280, 720), None, "Novuss singles from the set-up"),
    "novuss_doubles": ("novuss-doubles", 12, 3, 25.0, (1280, 720), None,
                       "Novuss doubles, four players around the board"),
    "8ball": ("8ball", 13, 3, 30.0, (1280, 720), None, "8-ball break and open table"),
    "9ball": ("9ball", 14, 3, 30.0, (1280, 720), None, "9-ball rotation"),
    "10ball": ("10ball", 15, 2, 50.0, (1280, 720), None, "10-ball at 50 fps"),
    "14_1": ("14.1", 16, 2, 25.0, (1280, 720), None, "14.1 opening break and called shots"),
    "split_hit": ("9ball", 21, 1, 30.0, (1280, 720), "split_hit",
                  "cue ball meets two balls less than one frame apart"),
    "cluster_break": ("8ball", 22, 1, 60.0, (1280, 720), "cluster_break",
                      "a 10 m/s break: many contacts within single frames"),
    "hand_over_table": ("9ball", 23, 2, 30.0, (1280, 720), "hand_over_table",
                        "a player leans over the table while balls move"),
    "camera_bump": ("novuss", 24, 3, 30.0, (1280, 720), "camera_bump",
                    "the camera is knocked mid-clip and settles at a new pose"),
    "ball_in_pocket": ("9ball", 25, 2, 30.0, (1920, 1080), "ball_in_pocket",
                       "a pocketed ball stays visible in the cup, 1080p"),
    "novuss_mid_set": ("novuss", 26, 3, 30.0, (1280, 720), "mid_set",
                       "a Novuss set half played: few pawns left, some of them dark"),
}
DEMO = "9ball"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def make(name: str) -> dict:
    game, seed, shots, fps, wh, case, what = CLIPS[name]
    settings = ClipSettings(game=Game(game), seed=seed, shots=shots, fps=fps,
                            resolution_wh=wh, case=case)
    t0 = time.perf_counter()
    files = render_clip(settings, ROOT, name)
    calls_path = ROOT / f"{name}.calls.jsonl"
    with JsonlSink(calls_path) as sink:
        sink.write_all(files.call_lines)
    calls = [ln for ln in files.call_lines if ln["type"] == "call"]
    print(f"{name}: {files.n_frames} frames, {time.perf_counter() - t0:.0f} s, "
          f"{files.video.stat().st_size / 1e6:.2f} MB", flush=True)
    return {
        "name": name, "game": game, "table": Game(game).default_table, "seed": seed,
        "shots": shots, "fps": fps, "frame_wh": list(wh), "case": case, "shows": what,
        "n_frames": files.n_frames, "duration_s": round(files.duration_s, 3),
        "video": files.video.name, "sidecar": files.sidecar.name, "calls": calls_path.name,
        "outcomes": sorted({c["outcome"] for c in calls}),
        "rules": sorted({c["rule"] for c in calls}),
        "sha256": {p.name: sha256(p) for p in (files.video, files.sidecar, calls_path)},
    }


def record(entry: dict) -> list[str]:
    """Add one clip to the manifest (locked: several makers may run side by side)."""
    import fcntl

    manifest_path = ROOT / "manifest.json"
    with (ROOT / ".manifest.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
        clips = {c["name"]: c for c in manifest.get("clips", [])}
        clips[entry["name"]] = entry
        ordered = [clips[n] for n in CLIPS if n in clips]
        manifest_path.write_text(json.dumps({"version": 1, "clips": ordered}, indent=1) + "\n")
    return list(clips)


def main(names: list[str]) -> None:
    unknown = [n for n in names if n not in CLIPS]
    if unknown:
        sys.exit(f"unknown clip(s) {unknown}; choose from {', '.join(CLIPS)}")
    for name in names or list(CLIPS):
        record(make(name))
        if name == DEMO:
            data = ROOT.parent / "cueref" / "data"
            data.mkdir(exist_ok=True)
            shutil.copyfile(ROOT / f"{DEMO}.mp4", data / "demo.mp4")
            shutil.copyfile(ROOT / f"{DEMO}.json", data / "demo.json")


if __name__ == "__main__":
    main(sys.argv[1:])
