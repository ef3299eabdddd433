"""The subcommands behind ``cueref.cli``. Each takes the parsed arguments, returns 0,
and raises ``UsageError`` for bad input."""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path
from typing import Any

from cueref.cli import UsageError, _game, _out_dir, _resolution, _table

log = logging.getLogger("cueref")


def _progress_bar(total_desc: str, unit: str = "frame"):  # type: ignore[no-untyped-def]
    from tqdm import tqdm

    bar = None

    def update(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = tqdm(total=total, desc=total_desc, unit=unit, file=sys.stderr,
                       disable=None, leave=False)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return update


def cmd_simulate(args: argparse.Namespace) -> int:
    from cueref.stream import JsonlSink
    from simulation.clip import render_clip
    from simulation.match import ClipSettings

    game = _game(args.game)
    table = _table(args.table) if args.table else None
    out = _out_dir(args.out)
    if not args.name or "/" in args.name:
        raise UsageError(f"--name {args.name!r} must be a plain file name")
    try:
        settings = ClipSettings(
            game=game, seed=args.seed, shots=args.shots, table=table, fps=args.fps,
            resolution_wh=_resolution(args.resolution), realism=args.realism, case=args.case,
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    files = render_clip(settings, out, args.name, progress=_progress_bar("rendering"))
    calls_path = out / f"{args.name}.calls.jsonl"
    with JsonlSink(calls_path) as sink:
        sink.write_all(files.call_lines)
    calls = [ln for ln in files.call_lines if ln["type"] == "call"]
    print(f"simulated {game.value}: {files.n_frames} frames, {files.duration_s:.1f} s "
          f"({files.n_frames / max(files.render_s, 1e-9):.1f} frames/s rendered)")
    print(f"  video    {files.video}")
    print(f"  sidecar  {files.sidecar}")
    print(f"  calls    {calls_path} ({len(calls)} ground-truth calls)")
    return 0


def _read_image(path: str):  # type: ignore[no-untyped-def]
    import cv2

    if not Path(path).is_file():
        raise UsageError(f"image {path!r} not found")
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        raise UsageError(f"cannot read {path!r} as an image (PNG, JPEG, BMP, TIFF...)")
    return img


def cmd_detect(args: argparse.Namespace) -> int:
    import json

    from calibration.fit import fit
    from calibration.model import CalibrationError
    from calibration.tables import get_table
    from calibration.views import detector_warp, silhouette_heights_mm
    from vision.detector import Detector, DetectorError

    spec = get_table(_table(args.table))
    if not 1 <= args.threads <= 64:
        raise UsageError(f"--threads must be in 1..64, got {args.threads}")
    img = _read_image(args.image)
    try:
        calib = fit(img, spec)
    except CalibrationError as exc:
        raise UsageError(f"{exc} (is --table {args.table} right?)") from None
    try:
        dets = Detector(args.model, threads=args.threads).detect(
            img, detector_warp(calib), silhouette_heights_mm(spec))
    except DetectorError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps({"image": args.image, "table": spec.name,
                          "rms_mm": round(calib.rms_mm, 3), "objects": dets.to_json()}))
        return 0
    print(f"{len(dets)} objects on {spec.name} (calibration rms {calib.rms_mm:.2f} mm)")
    for row in dets.to_json():
        x, y = row["xy_mm"]
        print(f"  {row['label']:<11} {row['score']:.2f}  x {x:8.1f} mm  y {y:8.1f} mm"
              f"  ({row['xy_px'][0]:.1f}, {row['xy_px'][1]:.1f}) px")
    return 0


def cmd_dataset(args: argparse.Namespace) -> int:
    from simulation.dataset import CAMERAS_PER_VENUE, LAYOUTS_PER_CAMERA, write_dataset

    if not 1 <= args.images <= 1_000_000:
        raise UsageError(f"--images must be in 1..1000000, got {args.images}")
    if not 1 <= args.jobs <= 256 or args.first_venue < 0:
        raise UsageError("--jobs must be in 1..256 and --first-venue >= 0")
    out = _out_dir(args.out)
    per_venue = CAMERAS_PER_VENUE * LAYOUTS_PER_CAMERA
    bar = _progress_bar("venues", unit=f"venue ({per_venue} views)")
    m = write_dataset(out, images=args.images, seed=args.seed, workers=args.jobs,
                      first_venue=args.first_venue, progress=bar)
    print(f"wrote {m['images']} views ({sum(m['instances'].values())} objects) to {out} "
          f"in {m['seconds']:.0f} s; train with: python models/train.py --data {out}")
    return 0


def demo_clip() -> tuple[Path, Path]:
    """The sample video embedded in the package, and its sidecar."""
    from importlib import resources

    root = resources.files("cueref").joinpath("data")
    video, side = Path(str(root.joinpath("demo.mp4"))), Path(str(root.joinpath("demo.json")))
    if not video.is_file() or not side.is_file():
        raise UsageError(f"the embedded demo clip is missing from {root}; reinstall cueref")
    return video, side


def cmd_demo(args: argparse.Namespace) -> int:
    from calibration.tables import get_table
    from cueref.overlay import write_overlay
    from cueref.stream import JsonlSink, match_start
    from simulation.groundtruth import load_sidecar, rejudge

    out = _out_dir(args.out)
    video, side_path = demo_clip()
    truth = load_sidecar(side_path)
    game, spec = _game(truth["game"]), get_table(truth["table"])
    print(f"cueref demo: {truth['game']} on {truth['table']}, {video.name} "
          f"({truth['n_frames']} frames at {truth['fps']:g} fps)")
    print("  note: detector, calibration and tracking are not built yet, so this demo "
          "feeds the simulator's ground-truth events (the sidecar) to the rules engine; "
          "the calls below are judged by cueref's rules engine from those events, not "
          "measured from the pixels.")
    t0 = time.perf_counter()
    calls_path = out / "calls.jsonl"
    judged: list[dict[str, Any]] = []
    with JsonlSink(calls_path) as sink:
        sink.write(match_start(game=game.value, table=spec.name, source=str(video),
                               fps=truth["fps"], frame_wh=tuple(truth["frame_wh"]),
                               players=truth["players"]))
        for shot, judgement in rejudge(truth):
            sink.write_all(ev.to_json() for ev in shot.events)
            calls = [call.to_json() for call in judgement.calls]
            sink.write_all(calls)
            judged.extend(calls)
            sink.write(judgement.state.to_json())
    truth_calls = [(c["shot"], c["rule"], c["outcome"]) for s in truth["shots"]
                   for c in s["calls"]]
    ours = [(c["shot"], c["rule"], c["outcome"]) for c in judged]
    agree = sum(1 for c in ours if c in truth_calls)
    overlay_path = out / "overlay.mp4"
    n = write_overlay(video, truth, judged, overlay_path)
    for c in judged:
        print(f"  shot {c['shot']:>2}  {c['player']:<8} {c['outcome']:<13} {c['rule']:<16} "
              f"{c['text']}")
    print(f"  {len(judged)} calls; {agree} of {len(truth_calls)} ground-truth calls "
          f"reproduced; {time.perf_counter() - t0:.1f} s")
    print(f"  call stream  {calls_path}")
    print(f"  overlay      {overlay_path} ({n} frames)")
    return 0
